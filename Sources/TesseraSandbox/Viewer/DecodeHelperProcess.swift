#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// One running decode helper, from the viewer's side: its process and its end of the socket. It answers
/// one request at a time; `DecodeHelperPool` hands it to one caller at a time, hence `@unchecked Sendable`.
final class DecodeHelperProcess: @unchecked Sendable {
    /// How a request ended.
    /// How one request ended.
    enum Outcome<Answer> {
        case answer(Answer)
        /// The loader's refusal, as in process: the helper is fine and can be used again.
        case refused(ImageLoadError.Reason)
        /// The helper is dead (or killed now); it must not be used again.
        case failed(DecodeHelperFailure)
    }

    let pid: pid_t
    /// Whether it warmed up every format; else it refuses, unread, a file of a format it did not
    /// (`DecodeHelperFailure.formatNotLoaded`), and only single requests and a cut's rows are sent to it.
    let servesEveryFormat: Bool
    private let socket: Int32
    /// Whether it has been waited for, and the priority it was set to, under one lock: its pid names it
    /// only until it is reaped, so a priority is set on it only before.
    private let lifecycle = Mutex(Lifecycle())
    private struct Lifecycle {
        var reaped = false
        var priority = WorkerPriority.normal
        /// The viewer's end of a dormant helper's wake-up socket, -1 once woken (see `WarmUpTurn`).
        var wakeDescriptor: Int32 = -1
    }
    /// Whether its first message (locked down and ready) has been read.
    private var ready = false

    /// The file descriptor number the helper finds its socket at.
    static let helperSocketNumber: Int32 = 3

    /// Starts `executable` with `arguments` (the subcommand first) and `environment`, its socket on
    /// descriptor 3, stdin from /dev/null, stdout to stderr.
    init(executable: String, arguments: [String], environment: [String: String],
         servesEveryFormat: Bool = true) throws(DecodeHelperFailure) {
        self.servesEveryFormat = servesEveryFormat
        var pair: [Int32] = [-1, -1]
        guard tessera_socketpair_cloexec(&pair) == 0 else { throw .unavailable("socketpair: \(POSIXFiles.errorText(errno))") }
        var childEnd = pair[1]
        if childEnd == Self.helperSocketNumber {
            // dup2 onto itself would leave close-on-exec set: move it out of the way first.
            childEnd = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
            close(pair[1])
        }
        defer { close(childEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // What a library prints goes to the log, never into the viewer's output (`-o` prints paths there).
        posix_spawn_file_actions_adddup2(&actions, 2, 1)
        posix_spawn_file_actions_adddup2(&actions, childEnd, Self.helperSocketNumber)

        let argv = [executable] + arguments
        let envp = environment.map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let rc = Self.withCStrings(argv) { argv in
            Self.withCStrings(envp) { envp in posix_spawn(&child, executable, &actions, nil, argv, envp) }
        }
        guard rc == 0 else {
            close(pair[0])
            throw .unavailable("cannot start \(executable): \(POSIXFiles.errorText(rc))")
        }
        pid = child
        socket = pair[0]
    }

    /// Forks a helper from this process, without exec, which runs `service` on descriptor 3 and exits with
    /// what it returns: no program to load and link, so it is ready in the time its warm-up takes. With
    /// `dormant`, it warms up only once woken (`wake()`, see `WarmUpTurn`). Only while this process runs one
    /// thread (see `tessera_fork_helper`).
    init(forking service: (WarmUpTurn) -> Int32, dormant: Bool = false,
         servesEveryFormat: Bool = true) throws(DecodeHelperFailure) {
        self.servesEveryFormat = servesEveryFormat
        var word: [Int32] = [-1, -1]
        if dormant, tessera_socketpair_cloexec(&word) != 0 { word = [-1, -1] }
        var parentEnd: Int32 = -1
        let child = tessera_fork_helper(&parentEnd, word[1], -1)
        if child == 0 { _exit(service(.forked(waits: word[1] >= 0))) }
        let failure = errno
        if word[1] >= 0 { close(word[1]) }
        guard child > 0 else {
            if word[0] >= 0 { close(word[0]) }
            throw .unavailable("fork: \(POSIXFiles.errorText(failure))")
        }
        pid = child
        socket = parentEnd
        lifecycle.withLock { $0.wakeDescriptor = word[0] }
    }

    /// Lets a dormant helper warm up (nothing for one awake), from any thread.
    func wake() {
        lifecycle.withLock { state in
            guard state.wakeDescriptor >= 0 else { return }
            WarmUpTurn.wake(through: state.wakeDescriptor)
            state.wakeDescriptor = -1
        }
    }

    deinit {
        terminate()
        close(socket)
    }

    /// Stops the helper (if it still runs) and reaps it.
    func terminate() {
        lifecycle.withLock { state in
            if state.wakeDescriptor >= 0 {
                close(state.wakeDescriptor)
                state.wakeDescriptor = -1
            }
            guard !state.reaped else { return }
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            state.reaped = true
        }
    }

    /// Lowers the running helper to `priority` (it starts at the viewer's own), from any thread.
    func setPriority(_ priority: WorkerPriority) {
        lifecycle.withLock { state in
            guard !state.reaped, priority.isLower(than: state.priority) else { return }
            _ = priority.apply(toProcess: pid)
            state.priority = priority
        }
    }

    /// Sends one request with the image's descriptor and waits for the reply, killing the helper after
    /// `timeLimit`: the pixels of a decode.
    func decode(_ request: tessera_decode_request, tail: [UInt8], descriptor: Int32, timeLimit: Duration) -> Outcome<PixelBuffer> {
        exchange(request, tail: tail, descriptor: descriptor, timeLimit: timeLimit) { reply, memfd in
            guard reply.status == 0 else { return .refused(DecodeHelperWire.reason(from: reply)) }
            guard memfd >= 0 else {
                terminate()
                return .failed(.unavailable("the helper sent no pixels"))
            }
            return pixels(from: reply, memfd: memfd)
        }
    }

    /// Sends one question (a request of a facts kind) with the file's descriptor and waits for the answer,
    /// killing the helper after `timeLimit`. The answer is decoded by Swift's JSON decoder, bounded in
    /// size, and must answer the question asked.
    func facts(_ request: tessera_decode_request, tail: [UInt8], descriptor: Int32, timeLimit: Duration) -> Outcome<ImageFacts> {
        exchange(request, tail: tail, descriptor: descriptor, timeLimit: timeLimit) { reply, memfd in
            if reply.status == 1 { return .refused(DecodeHelperWire.reason(from: reply)) }
            var st = stat()
            guard reply.status == DecodeHelperWire.factsStatus, memfd >= 0, fstat(memfd, &st) == 0,
                  st.st_size > 0, st.st_size <= DecodeHelperWire.factsByteLimit else {
                terminate()
                return .failed(.unavailable("the helper's answer is garbled"))
            }
            var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
            let got = bytes.withUnsafeMutableBytes { pread(memfd, $0.baseAddress!, $0.count, 0) }
            guard got == bytes.count, let facts = DecodeHelperWire.facts(from: bytes),
                  facts.kind.rawValue == request.kind else {
                terminate()
                return .failed(.unavailable("the helper's answer is garbled"))
            }
            return .answer(facts)
        }
    }

    /// One request and its reply: waits for the helper to be ready, sends, waits for the reply up to
    /// `timeLimit`, and has `read` make the answer of the reply and its memfd (-1 if none; closed after).
    private func exchange<Answer>(_ request: tessera_decode_request, tail: [UInt8], descriptor: Int32, timeLimit: Duration,
                                  read: (tessera_decode_reply, Int32) -> Outcome<Answer>) -> Outcome<Answer> {
        if let failure = awaitReady(timeLimit: timeLimit) { return .failed(failure) }
        guard send(request, tail: tail, descriptor: descriptor) else { return .failed(death()) }
        switch receive(timeLimit: timeLimit) {
        case .reply(let reply, let memfd):
            defer { if memfd >= 0 { close(memfd) } }
            if reply.status == DecodeHelperWire.formatNotLoadedStatus, !servesEveryFormat { return .failed(.formatNotLoaded) }
            return read(reply, memfd)
        case .failed(let failure): return .failed(failure)
        case .cancelled: return .failed(.unavailable("cancelled"))  // never: nothing cancels this wait
        }
    }

    /// What `receive` got.
    enum Received {
        /// A well-formed reply, and the descriptor attached to it (-1 if none), which the caller closes.
        case reply(tessera_decode_reply, memfd: Int32)
        /// The helper is dead (or killed now).
        case failed(DecodeHelperFailure)
        /// `isCancelled` said so before the reply came; the helper still works on the request.
        case cancelled
    }

    /// Sends `request`, then `tail`, with `descriptor` attached unless it is negative; false when the
    /// helper has gone (`death()` says why).
    func send(_ request: tessera_decode_request, tail: [UInt8] = [], descriptor: Int32 = -1) -> Bool {
        var request = request
        return tessera_send_with_fd(socket, &request, MemoryLayout<tessera_decode_request>.size, descriptor) == 0
            && (tail.isEmpty || tail.withUnsafeBytes({ tessera_send_with_fd(socket, $0.baseAddress!, $0.count, -1) }) == 0)
    }

    /// Waits for the next reply, killing the helper when it has not come within `timeLimit`; polls
    /// `isCancelled` meanwhile.
    func receive(timeLimit: Duration, isCancelled: (() -> Bool)? = nil) -> Received {
        switch waitForReply(timeLimit: timeLimit, isCancelled: isCancelled) {
        case .arrived: break
        case .timedOut:
            terminate()
            return .failed(.timeLimit)
        case .cancelled:
            return .cancelled
        }
        var reply = tessera_decode_reply()
        var memfd: Int32 = -1
        let received = tessera_receive_with_fd(socket, &reply, MemoryLayout<tessera_decode_reply>.size, &memfd)
        guard received > 0 else {
            if memfd >= 0 { close(memfd) }
            return .failed(death())
        }
        guard reply.magic == DecodeHelperWire.replyMagic else {
            if memfd >= 0 { close(memfd) }
            terminate()
            return .failed(.unavailable("the helper's reply is garbled"))
        }
        return .reply(reply, memfd: memfd)
    }

    /// Reads the helper's first message, which it sends once warmed up and locked down; nil when it is
    /// ready. A helper that cannot lock itself down decodes nothing.
    func awaitReady(timeLimit: Duration) -> DecodeHelperFailure? {
        guard !ready else { return nil }
        guard waitForReply(timeLimit: timeLimit, isCancelled: nil) == .arrived else {
            terminate()
            return .unavailable("the helper did not start in time")
        }
        var reply = tessera_decode_reply()
        var fd: Int32 = -1
        let received = tessera_receive_with_fd(socket, &reply, MemoryLayout<tessera_decode_reply>.size, &fd)
        if fd >= 0 { close(fd) }
        guard received > 0 else { return death() }
        guard reply.magic == DecodeHelperWire.replyMagic, reply.status == 2 else {
            terminate()
            return .unavailable(reply.status == 3 ? "the helper " + DecodeHelperWire.text(of: reply) : "the helper's first reply is garbled")
        }
        ready = true
        return nil
    }

    /// Maps the memfd and copies the pixels out of it, trusting no size the helper sent beyond what the
    /// memfd holds.
    private func pixels(from reply: tessera_decode_reply, memfd: Int32) -> Outcome<PixelBuffer> {
        var st = stat()
        guard fstat(memfd, &st) == 0, st.st_size > 0 else {
            terminate()
            return .failed(.unavailable("the helper's pixels cannot be read"))
        }
        let length = Int(st.st_size)
        guard DecodeHelperWire.isPlausible(reply, mappedBytes: length) else {
            terminate()
            return .failed(.unavailable("the helper's reply does not match its pixels"))
        }
        guard let memory = mmap(nil, length, PROT_READ, MAP_SHARED, memfd, 0), memory != MAP_FAILED else {
            return .refused(.unreadable(POSIXFiles.errorText(errno)))
        }
        defer { munmap(memory, length) }
        return .answer(DecodeHelperWire.pixels(from: reply, memory: UnsafeRawBufferPointer(start: memory, count: length)))
    }

    private enum Wait { case arrived, timedOut, cancelled }

    /// Whether the reply (or the end of the socket) arrived within `timeLimit`, or `isCancelled` said yes
    /// first (asked a few times a second).
    private func waitForReply(timeLimit: Duration, isCancelled: (() -> Bool)?) -> Wait {
        let deadline = ContinuousClock.now + timeLimit
        while true {
            if isCancelled?() == true { return .cancelled }
            let left = deadline - ContinuousClock.now
            var milliseconds = max(0, Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            if isCancelled != nil { milliseconds = min(milliseconds, 50) }
            var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return .arrived }
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 && deadline > ContinuousClock.now { continue }
            return .timedOut
        }
    }

    /// Why the helper went away: it closed its socket, so it has exited or is about to; waits for that a
    /// little, then kills it.
    func death() -> DecodeHelperFailure {
        var status: Int32 = 0
        var exited = false
        for _ in 0..<200 {
            let rc = lifecycle.withLock { state -> pid_t in
                let rc = waitpid(pid, &status, WNOHANG)
                if rc == pid { state.reaped = true }
                return rc
            }
            if rc == pid { exited = true; break }
            if rc < 0 && errno != EINTR { break }
            usleep(10_000)
        }
        if !exited {
            terminate()
            return .unavailable("the helper stopped answering")
        }
        let signal = status & 0x7f
        if signal == 0 {
            let code = (status >> 8) & 0xff
            return code == TESSERA_EXIT_OUT_OF_MEMORY ? .memoryLimit : .unavailable("the helper exited with status \(code)")
        }
        switch signal {
        case SIGSYS: return .forbiddenSystemCall
        case SIGKILL: return .memoryLimit  // not the watchdog's (that is reported as the time limit): the OOM killer
        default: return .crashed(signal: signal)
        }
    }

    private static func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
        var pointers = strings.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        pointers.append(nil)
        return body(pointers)
    }
}
