#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTiling

/// Decoding in sandboxed helper processes, as GNOME's glycin does: a few long-lived helpers (the same
/// binary, `tessera decode-helper`), one per decode worker, each used by one decode at a time. The viewer opens the file and passes its
/// descriptor over a socket; the helper runs the same `ImageLoader` code on it (decode, scale, turn,
/// colour) and returns the pixels in a memfd the viewer maps; the reply is one fixed message.
///
/// A helper that crashes, is killed by its seccomp filter, runs out of its memory limit or past the time
/// limit fails that one image (`ImageLoadError.Reason.helperFailed`) and is replaced; the caller's
/// failure memo keeps the image from being tried again in a loop.
///
/// The tile cutter borrows a helper for a whole cut (`HelperScanlineSource`), an animation for as long as
/// its frames are decoded (`HelperAnimationReader`), and gives it back, or has it replaced, at the end;
/// meanwhile other decodes get another helper, started when none is idle.
package final class DecodeHelperPool: Sendable {
    package struct Configuration: Sendable {
        /// The program to run (the viewer's own binary) and what follows its name: the hidden subcommand.
        package var executable: String
        package var arguments: [String]
        /// Added to the viewer's environment.
        package var environment: [String: String] = [:]
        /// How many helpers are started at once, so their warm-up runs while the viewer starts, and kept
        /// however long they wait: one per decode worker, which a scroll of the strip keeps busy at once.
        /// More are started when more decodes run at once (the single view's tile workers beside the
        /// strip's, a cut's or an animation's borrowed helper), and those beyond this many stop once they
        /// have waited `idleLimit`.
        package var helperCount: Int
        /// How long a helper beyond `helperCount` may wait for work before it stops: the memory of a burst's
        /// helpers goes back to the system, while a helper asked for again within it costs no new start.
        package var idleLimit: Duration = .seconds(60)
        /// The clock idle time is measured by and the timer that checks it later: tests drive both.
        package var idleClock = IdleClock.system
        /// Address space a helper may map on top of what it maps warmed up; 0 means no limit.
        package var memoryLimit: Int
        /// A decode running longer than this has its helper killed.
        package var timeLimit: Duration
        /// The helpers' share of the CPU at start (`lowerPriority` lowers it later): the viewer's follow its
        /// decode workers (`StartPriority`), since a helper does the decode's work while the worker that
        /// asked only waits for the reply.
        package var priority = WorkerPriority.normal
        /// What the first helper warms up (nil: every format, as the others): for a run that opens one
        /// image, `WarmUpImages.firstHelperFormats`, so the decode the user waits for does not wait for
        /// warm-ups it does not need. Asked about a file of another format, that helper is stopped and
        /// another answers.
        package var firstHelperWarmsUp: Set<ImageFormat>?

        package init(executable: String, arguments: [String] = ["decode-helper"], helperCount: Int,
                    memoryLimit: Int, timeLimit: Duration = .seconds(20)) {
            self.executable = executable
            self.arguments = arguments
            self.helperCount = max(1, helperCount)
            self.memoryLimit = memoryLimit
            self.timeLimit = timeLimit
        }

        /// The address space for images of up to `pixelLimit` pixels read from files of up to `byteLimit`
        /// bytes: the file's bytes, plus up to 16 bytes a pixel (the widest working format among the
        /// libraries, libjxl's float planes, besides the loader's own 4-byte buffers), plus room for the
        /// libraries' tables.
        package static func memoryLimit(pixelLimit: Int, byteLimit: Int) -> Int {
            let (pixels, overflow) = pixelLimit.multipliedReportingOverflow(by: 16)
            let (total, overflow2) = pixels.addingReportingOverflow(byteLimit + (256 << 20))
            return overflow || overflow2 ? 0 : total
        }
    }

    /// Time as a duration since some origin, and a way to run work after a delay, off the caller's thread.
    package struct IdleClock: Sendable {
        package var now: @Sendable () -> Duration
        package var runAfter: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void

        package init(now: @escaping @Sendable () -> Duration,
                    runAfter: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void) {
            self.now = now
            self.runAfter = runAfter
        }

        /// The monotonic clock, and a utility-priority dispatch queue for the checks.
        package static var system: IdleClock {
            let origin = ContinuousClock.now
            return IdleClock(now: { ContinuousClock.now - origin }, runAfter: { delay, work in
                let (seconds, attoseconds) = delay.components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds)),
                                                              execute: work)
            })
        }
    }

    /// The helpers waiting for work, longest waiting first, each with when it began to wait.
    private struct Idle {
        var helpers: [(process: DecodeHelperProcess, since: Duration)] = []
        /// A check for helpers waiting past the limit is due.
        var checkScheduled = false
    }

    package let configuration: Configuration
    private let idle = Mutex(Idle())
    /// The priority helpers run at: the configuration's, until lowered.
    private let priority: Mutex<WorkerPriority>
    /// Every helper started, idle or lent (a decode's, an animation's, a slide's), for lowering them all.
    private let started = Mutex<[WeakHelper]>([])
    private struct WeakHelper { weak var process: DecodeHelperProcess? }
    private static let logger = Logger(label: "tessera.decode-helper")

    /// Starts `configuration.helperCount` helpers. With `service` (the helper's own code, run on
    /// descriptor 3 with the configuration's memory limit and its warm-up turn), they are forked from this
    /// process rather than started from the executable: ready in the time their warm-up takes, with no
    /// program to load and link, which is most of a helper's start; all but the first warm up only once
    /// lent or woken (`WarmUpTurn`). Only while this process still runs one thread (see `tessera_fork_helper`); the
    /// helpers that replace them later are always started from the executable.
    package init(configuration: Configuration,
                 forkingFirstHelpersWith service: ForkedService? = nil) {
        self.configuration = configuration
        priority = Mutex(configuration.priority)
        var made: [DecodeHelperProcess] = []
        for index in 0..<configuration.helperCount {
            let helper: DecodeHelperProcess?
            let formats = index == 0 ? configuration.firstHelperWarmsUp : nil
            if let service {
                helper = (try? DecodeHelperProcess(forking: { service(configuration.memoryLimit, $0, formats) },
                                                   dormant: index > 0, servesEveryFormat: formats == nil)).map(prioritised)
            } else {
                helper = try? start(warmingUp: formats)
            }
            if let helper { made.append(helper) }
        }
        // The first, awake, is lent first (`borrow` takes the last given back); a dormant one wakes when lent.
        for helper in made.reversed() { giveBack(helper) }
    }

    /// A helper's service run in a forked child: its memory limit, its warm-up turn and the formats it
    /// warms up (nil: every one); returns the exit status.
    package typealias ForkedService = (_ memoryLimit: Int, _ turn: WarmUpTurn, _ warmingUp: Set<ImageFormat>?) -> Int32

    /// Lets every dormant helper warm up, as the viewer's first screen is shown: the next decodes find
    /// them ready.
    package func wakeDormantHelpers() {
        for helper in started.withLock({ $0.compactMap(\.process) }) { helper.wake() }
    }

    deinit { shutdown() }

    /// Stops every idle helper; one busy now stops when its decode returns.
    package func shutdown() {
        let helpers = idle.withLock { idle in
            defer { idle.helpers.removeAll() }
            return idle.helpers.map(\.process)
        }
        for helper in helpers { helper.terminate() }
    }

    /// Waits until every idle helper has warmed up and locked itself down (one that cannot is dropped), so a
    /// measurement that follows times decodes, not starts.
    package func waitUntilReady() {
        let waiting = idle.withLock { idle in
            defer { idle.helpers.removeAll() }
            return idle.helpers.map(\.process)
        }
        // A dormant one is woken first: it is ready only after its warm-up.
        for helper in waiting { helper.wake() }
        for helper in waiting {
            if let failure = helper.awaitReady(timeLimit: configuration.timeLimit) {
                Self.logger.warning("decode helper \(helper.pid) not ready: \(failure)")
                helper.terminate()
            } else {
                giveBack(helper)
            }
        }
    }

    /// `loader`'s decode of `file`, run in a helper.
    func load(_ file: ImageFile, loader: ImageLoader, fitting box: PixelSize?,
              convertingColour: Bool) throws(ImageLoadError.Reason) -> PixelBuffer {
        let (request, tail) = DecodeHelperWire.request(loader: loader, fitting: box, convertingColour: convertingColour,
                                                       name: file.path)
        return try ask(about: file) { helper, descriptor in
            helper.decode(request, tail: tail, descriptor: descriptor, timeLimit: configuration.timeLimit)
        }
    }

    /// One request about `file` on a borrowed helper: given back after an answer or a refusal, replaced
    /// after a failure, which is this request's alone.
    private func ask<Answer>(about file: ImageFile,
                             _ exchange: (DecodeHelperProcess, Int32) -> DecodeHelperProcess.Outcome<Answer>)
        throws(ImageLoadError.Reason) -> Answer {
        let (helper, outcome) = try single { helper in file.withDescriptor { exchange(helper, $0) } }
        switch outcome {
        case .answer(let answer):
            giveBack(helper)
            return answer
        case .refused(let reason):
            giveBack(helper)
            throw reason
        case .failed(let failure):
            replace(helper, failedOn: file.path, failure)
            throw .helperFailed(failure)
        }
    }

    /// One request and its reply (`exchange`) on a borrowed helper, any helper: one that did not warm up
    /// the file's format refuses it unread, and is stopped, and the request goes to one that serves every
    /// format. The helper is returned with the outcome, for the caller to give back or replace.
    func single<Answer>(_ exchange: (DecodeHelperProcess) -> DecodeHelperProcess.Outcome<Answer>)
        throws(ImageLoadError.Reason) -> (DecodeHelperProcess, DecodeHelperProcess.Outcome<Answer>) {
        var helper: DecodeHelperProcess
        do { helper = try borrow(servingEveryFormat: false) } catch { throw .helperFailed(error) }
        var outcome = exchange(helper)
        if case .failed(.formatNotLoaded) = outcome {
            Self.logger.debug("decode helper \(helper.pid) has not loaded this format: stopped")
            helper.terminate()
            do { helper = try borrow() } catch { throw .helperFailed(error) }
            outcome = exchange(helper)
        }
        return (helper, outcome)
    }

    /// An idle helper, or a new one when none is idle, for one caller until it is given back or replaced;
    /// without `servingEveryFormat`, possibly one that warmed up only some formats (see `single`, and a
    /// cut's rows in `HelperScanlineSource.open`), which an animation's frames never get.
    func borrow(servingEveryFormat: Bool = true) throws(DecodeHelperFailure) -> DecodeHelperProcess {
        // The helper that waited least: the others keep aging towards the limit, so a pool past a burst
        // shrinks even while a few decodes go on.
        let waiting = idle.withLock { idle -> DecodeHelperProcess? in
            guard let index = idle.helpers.lastIndex(where: { !servingEveryFormat || $0.process.servesEveryFormat }) else {
                return nil
            }
            return idle.helpers.remove(at: index).process
        }
        if let waiting {
            waiting.wake()
            return waiting
        }
        return try start()
    }

    /// The process ids of the helpers waiting for work, longest waiting first: what the tests see of who
    /// holds a helper.
    var idleProcessIDs: [pid_t] { idle.withLock { $0.helpers.map(\.process.pid) } }

    /// A borrowed helper that answered its last request and waits for the next.
    func giveBack(_ helper: DecodeHelperProcess) {
        let now = configuration.idleClock.now()
        let schedules = idle.withLock { idle -> Bool in
            idle.helpers.append((helper, now))
            guard idle.helpers.count > configuration.helperCount, !idle.checkScheduled else { return false }
            idle.checkScheduled = true
            return true
        }
        if schedules { scheduleIdleCheck(after: configuration.idleLimit) }
    }

    private func scheduleIdleCheck(after delay: Duration) {
        configuration.idleClock.runAfter(delay) { [weak self] in self?.stopHelpersIdleTooLong() }
    }

    /// Stops the helpers beyond `helperCount` that have waited `idleLimit`, longest waiting first, and
    /// checks again when the next one will have, while there are more than `helperCount`.
    private func stopHelpersIdleTooLong() {
        let now = configuration.idleClock.now()
        let (stopping, nextCheck) = idle.withLock { idle -> ([DecodeHelperProcess], Duration?) in
            var stopping: [DecodeHelperProcess] = []
            while idle.helpers.count > configuration.helperCount, let first = idle.helpers.first,
                  now - first.since >= configuration.idleLimit {
                stopping.append(idle.helpers.removeFirst().process)
            }
            guard idle.helpers.count > configuration.helperCount, let first = idle.helpers.first else {
                idle.checkScheduled = false
                return (stopping, nil)
            }
            return (stopping, first.since + configuration.idleLimit - now)
        }
        for helper in stopping {
            Self.logger.debug("decode helper \(helper.pid) stopped after \(configuration.idleLimit) idle")
            helper.terminate()
        }
        if let nextCheck { scheduleIdleCheck(after: nextCheck) }
    }

    /// Stops a borrowed helper that failed or was left mid-request, and starts another in its place.
    func replace(_ helper: DecodeHelperProcess) {
        helper.terminate()
        if let replacement = try? start() { giveBack(replacement) }
    }

    /// `replace`, for a helper that failed reading `name`: the log says so once.
    func replace(_ helper: DecodeHelperProcess, failedOn name: String, _ failure: DecodeHelperFailure) {
        Self.logger.warning("decode helper \(helper.pid) failed on \(name): \(failure)")
        replace(helper)
    }

    /// `loader`'s decode of bytes in memory (a download held whole): they reach the helper in a memfd,
    /// which it reads as it reads a file.
    func load(data: Data, name: String, loader: ImageLoader, fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer {
        let memfd = tessera_memfd("tessera-image")
        guard memfd >= 0 else { throw .unreadable(POSIXFiles.errorText(errno)) }
        let written = data.withUnsafeBytes { bytes -> Int32 in
            var done = 0
            while done < bytes.count {
                let n = write(memfd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                done += n
            }
            return 0
        }
        guard written == 0 else {
            close(memfd)
            throw .unreadable(POSIXFiles.errorText(written))
        }
        let file: ImageFile
        do { file = try ImageFile(descriptor: memfd, path: name) } catch { throw ImageLoadError.Reason(error) }
        return try load(file, loader: loader, fitting: box, convertingColour: true)
    }

    /// The answer to `kind` about `file`, read in a helper (see `ImageFacts`): the same refusals as in
    /// process, and a helper's failure (`.helperFailed`) for this one question, its helper replaced.
    package func facts(_ kind: ImageFacts.Kind, of file: ImageFile) throws(ImageLoadError.Reason) -> ImageFacts {
        let (request, tail) = DecodeHelperWire.request(asking: kind, name: file.path)
        return try ask(about: file) { helper, descriptor in
            helper.facts(request, tail: tail, descriptor: descriptor, timeLimit: configuration.timeLimit)
        }
    }

    /// A new helper, run with `extraArguments` after the pool's own (a slide's helper names its slide),
    /// warming up only `formats` when given.
    func start(extraArguments: [String] = [], warmingUp formats: Set<ImageFormat>? = nil) throws(DecodeHelperFailure) -> DecodeHelperProcess {
        var environment = ProcessInfo.processInfo.environment
        // The Swift runtime's crash backtracer runs another program, which the filter forbids: a crash
        // would read as a forbidden system call.
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment.merge(configuration.environment) { $1 }
        let arguments = configuration.arguments + (configuration.memoryLimit > 0 ? ["--memory-limit", "\(configuration.memoryLimit)"] : [])
            + (formats.map { ["--warm-up", $0.map(\.rawValue).sorted().joined(separator: ",")] } ?? []) + extraArguments
        return prioritised(try DecodeHelperProcess(executable: configuration.executable, arguments: arguments,
                                                   environment: environment, servesEveryFormat: formats == nil))
    }

    /// `helper`, set to the pool's priority. A process inherits the nice value of the thread that starts
    /// it, which for the viewer is a worker's or the main thread's, so each is set explicitly.
    private func prioritised(_ helper: DecodeHelperProcess) -> DecodeHelperProcess {
        // Noted before its priority is set: a lowering meanwhile finds it, and setting twice is harmless.
        started.withLock { helpers in
            helpers.removeAll { $0.process == nil }
            helpers.append(WeakHelper(process: helper))
        }
        helper.setPriority(priority.withLock { $0 })
        return helper
    }

    /// Lowers every helper to `priority`, whether idle or lent, and those started later (never raises
    /// them: that needs a privilege the viewer lacks).
    package func lowerPriority(to lower: WorkerPriority) {
        let lowered = priority.withLock { current -> Bool in
            guard lower.isLower(than: current) else { return false }
            current = lower
            return true
        }
        guard lowered else { return }
        for helper in started.withLock({ $0.compactMap(\.process) }) { helper.setPriority(lower) }
    }
}
