#if canImport(Glibc)
import Glibc
#endif
import CTesseraFiles
import Foundation

/// One run of a handler program: started with posix_spawn in a process group of its own (so cancelling
/// stops whatever it started too), fed its standard input and read its standard error through pipes on
/// the calling thread, which must be a worker's: `wait` blocks until the program ends.
///
/// The pipes are polled together, so a program that writes much to standard error before reading its
/// input cannot deadlock with us, and one that never reads its input cannot hold us: when it exits (or is
/// killed) the wait ends whatever is left unwritten. SIGPIPE is blocked on the calling thread so that
/// writing to a program that closed its input returns EPIPE instead of ending the viewer.
final class HandlerProcess {
    let pid: pid_t
    private var input: Int32
    private var errorOutput: Int32
    private var pending: [UInt8]
    private var written = 0
    private var errorTail: [UInt8] = []

    /// The most of standard error kept: the end of it, where a failing script says why.
    static let errorTailBytes = 4096

    /// Starts `executable` with `arguments` (argv[0] is the executable), `environment` ("KEY=value"),
    /// `input` to write to its standard input and its standard output sent to `output`. Throws the errno
    /// text when it cannot start.
    init(executable: String, arguments: [String], environment: [String], input bytes: [UInt8], output: Int32) throws(HandlerFailure) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        var inputPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        guard tessera_pipe_cloexec(&inputPipe) == 0 else { throw HandlerFailure(errno) }
        guard tessera_pipe_cloexec(&errorPipe) == 0 else {
            let code = errno
            close(inputPipe[0]); close(inputPipe[1])
            throw HandlerFailure(code)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &signals)

        var child: pid_t = 0
        let status = Self.withCStrings(arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&child, executable, &actions, &attributes, argv, envp)
            }
        }
        close(inputPipe[0])
        close(errorPipe[1])
        guard status == 0 else {
            close(inputPipe[1]); close(errorPipe[0])
            throw HandlerFailure(status)
        }
        pid = child
        input = inputPipe[1]
        errorOutput = errorPipe[0]
        pending = bytes
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        _ = fcntl(errorOutput, F_SETFL, fcntl(errorOutput, F_GETFL) | O_NONBLOCK)
        if pending.isEmpty { closeInput() }
    }

    deinit {
        closeInput()
        if errorOutput >= 0 { close(errorOutput) }
    }

    /// Feeds input and collects standard error until the program ends; `tick` runs at least every
    /// `interval` (the caller's chance to cancel). Returns its wait status.
    func wait(interval: Duration = .milliseconds(50), tick: (HandlerProcess) -> Void) -> Int32 {
        let timeout = Int32(interval.components.seconds * 1000 + interval.components.attoseconds / 1_000_000_000_000_000)
        while true {
            var descriptors: [pollfd] = []
            if input >= 0 { descriptors.append(pollfd(fd: input, events: Int16(POLLOUT), revents: 0)) }
            if errorOutput >= 0 { descriptors.append(pollfd(fd: errorOutput, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&descriptors, nfds_t(descriptors.count), max(1, timeout))
            if input >= 0 { feed() }
            if errorOutput >= 0 { drainErrors() }
            var status: Int32 = 0
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid || (waited < 0 && errno == ECHILD) {
                // What it wrote just before it ended; its own children may keep the pipe open, so no
                // waiting for the end of the stream.
                if errorOutput >= 0 { drainErrors() }
                return status
            }
            tick(self)
        }
    }

    /// The end of what the program wrote to standard error, as text.
    var standardErrorTail: String {
        var bytes = errorTail[...]
        // A cut in the middle of a UTF-8 sequence: drop its continuation bytes.
        while let first = bytes.first, first & 0xC0 == 0x80 { bytes = bytes.dropFirst() }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends `signal` to the program's whole process group.
    func signalGroup(_ signal: Int32) {
        kill(-pid, signal)
    }

    private func feed() {
        while written < pending.count {
            let count = pending.withUnsafeBytes { write(input, $0.baseAddress! + written, $0.count - written) }
            if count > 0 { written += count; continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { return }
            break  // EPIPE: it stopped reading, which is its right.
        }
        closeInput()
    }

    private func drainErrors() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(errorOutput, $0.baseAddress!, $0.count) }
            if count > 0 {
                errorTail.append(contentsOf: buffer[..<count])
                if errorTail.count > Self.errorTailBytes { errorTail.removeFirst(errorTail.count - Self.errorTailBytes) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count == 0 { close(errorOutput); errorOutput = -1 }
            return
        }
    }

    private func closeInput() {
        if input >= 0 { close(input); input = -1 }
    }

    /// `strings` as a NULL-terminated array of C strings for the duration of `body`.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}

/// errno of a failed start, as text.
struct HandlerFailure: Error {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var text: String { POSIXFiles.errorText(code) }
}
