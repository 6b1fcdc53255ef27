import Foundation

/// How much CPU a scheduler's worker threads get when the machine is busy.
public enum WorkerPriority: Sendable, Equatable {
    /// The process's own priority: batch work nobody waits on frame by frame (the tile cutter).
    case normal
    /// Ten nice levels below the process (iOS's utility QoS, roughly): decodes behind an interactive
    /// view. Each worker then weighs about a tenth of the main thread in Linux's scheduler, so on a machine
    /// with as many busy workers as cores the main thread still runs the moment a frame is due instead of
    /// waiting out a decode's time slice. On the 2-core build machine this took the strip's fast-fling
    /// p99 frame time from about 5.5 ms to 2.3 ms with the same decodes (docs/EXPERIMENT.md).
    case background

    /// Nice levels added to the process's own.
    public var niceIncrement: Int32 { self == .background ? 10 : 0 }

    /// Lowers the calling thread's priority by `niceIncrement`. On Linux the nice value belongs to the
    /// thread, not the process (setpriority(2), NOTES), and lowering it needs no privilege.
    func applyToCurrentThread() {
        guard niceIncrement > 0 else { return }
        #if os(Linux)
        let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, min(19, current + niceIncrement))
        #endif
    }
}

/// Why a `WorkScheduler` completion received a failure without its work having run.
public enum WorkSchedulerError: Error, Sendable, Equatable {
    /// The queued job was dropped by `cancel`, `retainOnly` or `shutdown` before it started.
    case cancelled
    /// The request arrived after `shutdown()`.
    case shutDown
}

/// Counters of a `WorkScheduler`, read in one consistent snapshot.
public struct SchedulerStats: Sendable, Equatable {
    /// Calls to `request` (shared ones included, so jobs created = submitted - shared).
    public var submitted: Int
    /// Jobs a worker (or `runPending`) took and began: finished or not, their work has started.
    public var started: Int
    /// Jobs whose work ran (successfully or not).
    public var executed: Int
    /// Requests merged into a job already queued or running for the same key.
    public var shared: Int
    /// Queued jobs dropped before running (by `cancel`, `retainOnly` or `shutdown`).
    public var cancelled: Int
    /// Running jobs asked to stop (`cancelRunning`) whose work then threw `DecodeCancelled`.
    public var stoppedRunning: Int

    public init(submitted: Int = 0, started: Int = 0, executed: Int = 0, shared: Int = 0, cancelled: Int = 0,
                stoppedRunning: Int = 0) {
        self.submitted = submitted
        self.started = started
        self.executed = executed
        self.shared = shared
        self.cancelled = cancelled
        self.stoppedRunning = stoppedRunning
    }
}

/// Runs keyed jobs by priority on a fixed pool of worker threads (or, for tests, on demand on the
/// calling thread).
///
/// Why not Dispatch or Swift concurrency: decoding is blocking CPU work, and the grid needs to reorder
/// and drop queued work as the user scrolls (`reprioritize`, `retainOnly`), which neither a
/// `DispatchQueue` nor the cooperative pool allows. A fixed pool also bounds how many full-size decodes
/// hold memory at once.
///
/// - **Priority:** lower numbers run sooner (0 = visible now); equal priorities run in submission order.
/// - **Deduplication:** one key has at most one job. A request for a key already queued or running adds
///   its completion to that job, so all requesters share one execution; a queued job's priority becomes
///   the more urgent of the two.
/// - **Completions** run on the thread that did the work (a worker, or the `runPending` caller); for a
///   dropped job, on the thread that dropped it; after shutdown, on the requesting thread. Never with a
///   scheduler lock held, so a completion may call back into the scheduler.
/// - **Cancellation** drops queued jobs: their completions receive `WorkSchedulerError.cancelled` so
///   callers can clear in-flight markers. Running work is only ever *asked* to stop (`cancelRunning`):
///   work submitted as `CancellableWork` sees its `DecodeCancellation` set and may throw
///   `DecodeCancelled`, which its completions receive like any other error. A new request for the key
///   before then withdraws the request to stop.
public final class WorkScheduler<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public typealias Work = @Sendable () throws -> Value
    /// Work that looks at its cancellation signal now and then and stops when it is set.
    public typealias CancellableWork = @Sendable (DecodeCancellation) throws -> Value
    public typealias Completion = @Sendable (Key, Result<Value, Error>) -> Void

    /// Who executes jobs.
    public enum Executor: Sendable, Equatable {
        /// A pool of this many worker threads (at least one).
        case threads(Int)
        /// Nothing runs until `runPending(limit:)` is called, so tests decide exactly what runs when.
        case manual
    }

    /// A sensible pool size: every core, but at least two so one slow decode does not stall the grid.
    public static var defaultWorkerCount: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    /// The worker threads hold the queue, not the scheduler, so the scheduler can be deinitialised (and
    /// shut the pool down) while workers are still parked on the condition.
    private let queue: JobQueue
    public let executor: Executor

    /// - Parameters:
    ///   - name: Base name of the worker threads (ignored by `.manual`).
    ///   - priority: The CPU priority of the worker threads (ignored by `.manual`).
    public init(executor: Executor, name: String = "tessera.worker", priority: WorkerPriority = .normal) {
        self.executor = executor
        queue = JobQueue()
        if case .threads(let requested) = executor {
            let count = max(1, requested)
            queue.startWorkers(count: count, name: name, priority: priority)
        }
    }

    /// A pool of `max(1, workerCount)` threads named "`name`.0", "`name`.1", ... (`name` shortened as
    /// needed to fit Linux's 15-byte thread names).
    public convenience init(workerCount: Int, name: String = "tessera.worker", priority: WorkerPriority = .normal) {
        self.init(executor: .threads(workerCount), name: name, priority: priority)
    }

    /// A scheduler that runs nothing until `runPending(limit:)` is called on the calling thread.
    public static func inline() -> WorkScheduler {
        WorkScheduler(executor: .manual)
    }

    deinit {
        queue.shutdown()
    }

    /// Schedules `work` for `key`, or joins the job already queued or running for `key`.
    /// After `shutdown()`, `completion` is called at once with `WorkSchedulerError.shutDown`.
    public func request(_ key: Key, priority: Int, work: @escaping Work, completion: @escaping Completion) {
        queue.request(key, priority: priority, work: { _ in try work() }, completion: completion)
    }

    /// Like `request(_:priority:work:completion:)`, for work that `cancelRunning` can ask to stop.
    public func request(_ key: Key, priority: Int, cancellableWork work: @escaping CancellableWork,
                        completion: @escaping Completion) {
        queue.request(key, priority: priority, work: work, completion: completion)
    }

    /// Asks the running jobs whose key is not in `keep` to stop (their cancellation signal is set; work
    /// that ignores it just finishes), and withdraws that request from running jobs whose key is in
    /// `keep` again. Queued jobs are untouched (see `retainOnly`). Returns the keys newly asked to stop.
    @discardableResult
    public func cancelRunning(except keep: Set<Key>) -> [Key] {
        queue.cancelRunning { !keep.contains($0) }
    }

    /// Asks the running jobs for these keys to stop; returns the keys newly asked.
    @discardableResult
    public func cancelRunning(_ keys: Set<Key>) -> [Key] {
        queue.cancelRunning { keys.contains($0) }
    }

    /// Sets the priority of the queued jobs for these keys; running jobs and unknown keys are ignored.
    public func reprioritize(_ priorities: [Key: Int]) {
        queue.reprioritize(priorities)
    }

    /// Drops every queued job whose key is not in `keep` (its completions get `.cancelled`) and returns
    /// the dropped keys. Running jobs finish.
    @discardableResult
    public func retainOnly(_ keep: Set<Key>) -> [Key] {
        queue.drop { !keep.contains($0) }
    }

    /// Drops the queued job for `key` (its completions get `.cancelled`); returns false if there was no
    /// queued job (none at all, or already running).
    @discardableResult
    public func cancel(_ key: Key) -> Bool {
        !queue.drop { $0 == key }.isEmpty
    }

    /// Runs up to `limit` queued jobs on the calling thread, most urgent first, completions included;
    /// returns how many ran. This is how `.manual` schedulers make progress; with threads it just lends
    /// the calling thread to the pool.
    @discardableResult
    public func runPending(limit: Int = .max) -> Int {
        var ran = 0
        while ran < limit, let job = queue.takeNextJobWithoutWaiting() {
            queue.execute(job)
            ran += 1
        }
        return ran
    }

    /// Drops all queued jobs (completions get `.cancelled`), lets running ones finish, and lets the worker
    /// threads exit. Later requests fail with `.shutDown`. Does not block; see `waitForWorkersToExit`.
    public func shutdown() {
        queue.shutdown()
    }

    /// Blocks until every worker thread has exited after `shutdown()`, or until `timeout` passes;
    /// returns whether they all exited. Never call it from a worker: that worker cannot exit meanwhile.
    public func waitForWorkersToExit(timeout: TimeInterval) -> Bool {
        queue.waitForWorkersToExit(until: Date(timeIntervalSinceNow: timeout))
    }

    /// Where the job for `key` stands, read in one look so a job being taken is never seen as neither.
    public enum JobState: Sendable, Equatable {
        /// Waiting for a worker: it can still be reprioritised or dropped.
        case queued
        /// A worker is executing it (it cannot be dropped any more).
        case running
    }

    /// The state of the job for `key`; nil when there is none (never asked for, finished, or dropped).
    public func state(of key: Key) -> JobState? {
        queue.locked { state in
            switch state.jobsByKey[key]?.phase {
            case .queued: return .queued
            case .running: return .running
            case .dropped, nil: return nil
            }
        }
    }

    /// Whether a worker is executing the job for `key` right now (it cannot be dropped any more).
    public func isRunning(_ key: Key) -> Bool { state(of: key) == .running }

    /// How long the job for `key` has been running, nil when it is not running.
    public func runningSeconds(_ key: Key) -> Double? {
        guard let start = queue.locked({ state -> ContinuousClock.Instant? in
            guard let job = state.jobsByKey[key], job.phase == .running else { return nil }
            return job.startedAt
        }) else { return nil }
        return (ContinuousClock.now - start) / .seconds(1)
    }

    public var queuedCount: Int { queue.locked { $0.queuedCount } }
    public var runningCount: Int { queue.locked { $0.runningCount } }
    /// Worker threads that have not exited yet (0 for `.manual`).
    public var liveWorkerCount: Int { queue.locked { $0.liveWorkers } }
    public var stats: SchedulerStats { queue.locked { $0.stats } }
}

// MARK: - Internals

extension WorkScheduler {
    /// One execution of `work` for `key`, shared by every requester of the key while it is queued or
    /// running. Only touched with the queue's lock held.
    private final class Job {
        enum Phase { case queued, running, dropped }

        let key: Key
        let work: CancellableWork
        /// Set when the job, already running, is asked to stop.
        let cancellation = DecodeCancellation()
        /// When a worker took it.
        var startedAt: ContinuousClock.Instant?
        /// Submission order, the tie-breaker between equal priorities (kept when the priority changes,
        /// so a reprioritised job does not lose its place among its new peers).
        let sequence: Int
        var priority: Int
        var phase = Phase.queued
        var completions: [Completion]
        /// Bumped whenever the priority changes; heap entries carrying an older generation are stale.
        var generation = 0

        init(key: Key, work: @escaping CancellableWork, sequence: Int, priority: Int, completion: @escaping Completion) {
            self.key = key
            self.work = work
            self.sequence = sequence
            self.priority = priority
            self.completions = [completion]
        }
    }

    /// A snapshot of a job's place in the queue. Reprioritising pushes a fresh entry instead of
    /// re-sifting the old one (lazy deletion): stale entries are skipped when popped.
    private struct HeapEntry {
        let priority: Int
        let sequence: Int
        let generation: Int
        let job: Job

        func runsBefore(_ other: HeapEntry) -> Bool {
            (priority, sequence) < (other.priority, other.sequence)
        }

        var isCurrent: Bool { job.phase == .queued && job.generation == generation }
    }

    /// Binary min-heap on (priority, sequence).
    private struct JobHeap {
        private(set) var entries: [HeapEntry] = []

        var count: Int { entries.count }

        mutating func push(_ entry: HeapEntry) {
            entries.append(entry)
            var child = entries.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard entries[child].runsBefore(entries[parent]) else { break }
                entries.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> HeapEntry? {
            guard !entries.isEmpty else { return nil }
            entries.swapAt(0, entries.count - 1)
            let first = entries.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].runsBefore(entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].runsBefore(entries[smallest]) { smallest = right }
                guard smallest != parent else { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
            return first
        }

        /// Rebuilds from the live jobs only, so stale entries cannot pile up without bound.
        mutating func compact() {
            let live = entries.filter(\.isCurrent)
            entries = []
            entries.reserveCapacity(live.count)
            for entry in live { push(entry) }
        }
    }

    /// Everything mutable; guarded by `JobQueue.condition`.
    private struct State {
        var jobsByKey: [Key: Job] = [:]
        var heap = JobHeap()
        var nextSequence = 0
        var queuedCount = 0
        var runningCount = 0
        var liveWorkers = 0
        var isShutDown = false
        var stats = SchedulerStats()

        mutating func enqueue(_ job: Job) {
            heap.push(HeapEntry(priority: job.priority, sequence: job.sequence, generation: job.generation, job: job))
        }

        mutating func setPriority(_ priority: Int, of job: Job) {
            guard job.phase == .queued, job.priority != priority else { return }
            job.priority = priority
            job.generation += 1
            enqueue(job)
            if heap.count > 2 * queuedCount + 64 { heap.compact() }
        }

        /// The most urgent queued job, now marked running.
        mutating func takeNextJob() -> Job? {
            while let entry = heap.popFirst() {
                guard entry.isCurrent else { continue }
                entry.job.phase = .running
                entry.job.startedAt = .now
                queuedCount -= 1
                runningCount += 1
                stats.started += 1
                return entry.job
            }
            return nil
        }
    }

    /// The shared core: state, the condition that guards it and wakes workers, and the worker loop.
    /// `@unchecked Sendable` because `state` is only ever read or written with `condition` locked.
    private final class JobQueue: @unchecked Sendable {
        private let condition = NSCondition()
        private var state = State()

        func locked<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            condition.lock()
            defer { condition.unlock() }
            return try body(&state)
        }

        func startWorkers(count: Int, name: String, priority: WorkerPriority) {
            locked { $0.liveWorkers = count }
            for index in 0..<count {
                let threadName = Self.threadName(name, index: index)
                // The thread retains this queue (not the scheduler) until its loop returns after shutdown.
                let launched = DispatchSemaphore(value: 0)
                let thread = Thread { [self] in
                    // Named from inside, once start() has returned: corelibs Foundation ignores a name
                    // set before start(), and drops one set before start() has stored the pthread handle.
                    // Named, workers are recognisable in top -H, gdb and /proc.
                    launched.wait()
                    Thread.current.name = threadName
                    priority.applyToCurrentThread()
                    runWorkerLoop()
                }
                thread.start()
                launched.signal()
            }
        }

        /// "`base`.`index`", with `base` shortened so the whole fits Linux's 15-byte thread names
        /// (longer names are refused outright, not truncated).
        private static func threadName(_ base: String, index: Int) -> String {
            let suffix = ".\(index)"
            var base = Substring(base)
            while base.utf8.count + suffix.utf8.count > 15, !base.isEmpty { base.removeLast() }
            return base + suffix
        }

        func request(_ key: Key, priority: Int, work: @escaping CancellableWork, completion: @escaping Completion) {
            let accepted = locked { state -> Bool in
                guard !state.isShutDown else { return false }
                state.stats.submitted += 1
                if let job = state.jobsByKey[key] {
                    state.stats.shared += 1
                    job.completions.append(completion)
                    // Wanted again: a running job asked to stop carries on if it has not stopped yet.
                    if job.phase == .running { job.cancellation.withdraw() }
                    state.setPriority(min(job.priority, priority), of: job)
                    return true
                }
                let job = Job(key: key, work: work, sequence: state.nextSequence, priority: priority,
                              completion: completion)
                state.nextSequence += 1
                state.jobsByKey[key] = job
                state.queuedCount += 1
                state.enqueue(job)
                condition.signal()
                return true
            }
            if !accepted { completion(key, .failure(WorkSchedulerError.shutDown)) }
        }

        func reprioritize(_ priorities: [Key: Int]) {
            locked { state in
                for (key, priority) in priorities {
                    if let job = state.jobsByKey[key] { state.setPriority(priority, of: job) }
                }
            }
        }

        /// Sets the cancellation signal of the running jobs whose key matches and clears it on the others.
        func cancelRunning(where shouldStop: (Key) -> Bool) -> [Key] {
            locked { state -> [Key] in
                var asked: [Key] = []
                for job in state.jobsByKey.values where job.phase == .running {
                    if shouldStop(job.key) {
                        if !job.cancellation.isCancelled {
                            job.cancellation.cancel()
                            asked.append(job.key)
                        }
                    } else if job.cancellation.isCancelled {
                        job.cancellation.withdraw()
                    }
                }
                return asked
            }
        }

        /// Removes the queued jobs whose key matches, then fails their completions outside the lock.
        func drop(where shouldDrop: (Key) -> Bool) -> [Key] {
            let dropped = locked { state -> [DroppedJob] in
                let jobs = state.jobsByKey.values.filter { $0.phase == .queued && shouldDrop($0.key) }
                guard !jobs.isEmpty else { return [] }
                let dropped = jobs.map { remove($0, from: &state) }
                state.heap.compact()
                return dropped
            }
            failAsCancelled(dropped)
            return dropped.map(\.key)
        }

        func shutdown() {
            let dropped = locked { state -> [DroppedJob] in
                guard !state.isShutDown else { return [] }
                state.isShutDown = true
                let jobs = state.jobsByKey.values.filter { $0.phase == .queued }
                let dropped = jobs.map { remove($0, from: &state) }
                state.heap = JobHeap()
                condition.broadcast()
                return dropped
            }
            failAsCancelled(dropped)
        }

        func waitForWorkersToExit(until deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while state.liveWorkers > 0 {
                if !condition.wait(until: deadline) { return state.liveWorkers == 0 }
            }
            return true
        }

        func takeNextJobWithoutWaiting() -> Job? {
            locked { $0.takeNextJob() }
        }

        /// Runs the job's work, then hands the result to every completion gathered meanwhile. The job
        /// leaves `jobsByKey` in the same critical section that collects its completions, so a request
        /// either joins this execution or starts a new job, never falls between the two.
        func execute(_ job: Job) {
            let result = Result { try job.work(job.cancellation) }
            let completions = locked { state -> [Completion] in
                state.jobsByKey[job.key] = nil
                state.runningCount -= 1
                state.stats.executed += 1
                if case .failure(let error) = result, error is DecodeCancelled { state.stats.stoppedRunning += 1 }
                let completions = job.completions
                job.completions = []
                return completions
            }
            for completion in completions { completion(job.key, result) }
        }

        private func runWorkerLoop() {
            while let job = waitForNextJob() {
                execute(job)
            }
        }

        /// Sleeps until a job is queued (returning it) or the queue shuts down (returning nil, after
        /// counting this worker out so `waitForWorkersToExit` can see it).
        private func waitForNextJob() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while true {
                if state.isShutDown {
                    state.liveWorkers -= 1
                    condition.broadcast()
                    return nil
                }
                if let job = state.takeNextJob() { return job }
                condition.wait()
            }
        }

        /// A dropped job's key and completions, taken under the lock so they can be called after it.
        private typealias DroppedJob = (key: Key, completions: [Completion])

        private func remove(_ job: Job, from state: inout State) -> DroppedJob {
            state.jobsByKey[job.key] = nil
            state.queuedCount -= 1
            state.stats.cancelled += 1
            job.phase = .dropped  // any heap entry left for it is now stale
            let completions = job.completions
            job.completions = []
            return (job.key, completions)
        }

        private func failAsCancelled(_ dropped: [DroppedJob]) {
            for (key, completions) in dropped {
                for completion in completions { completion(key, .failure(WorkSchedulerError.cancelled)) }
            }
        }
    }
}
