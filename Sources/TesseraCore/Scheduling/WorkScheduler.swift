import Foundation

/// Why a `WorkScheduler` completion received a failure without its work having run.
public enum WorkSchedulerError: Error, Sendable, Equatable {
    /// The queued job was dropped by `cancel`, `retainOnly` or `shutdown` before it started.
    case cancelled
    /// The request arrived after `shutdown()`.
    case shutDown
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
/// - **Memory** (optional): a job's work starts only once its estimated working memory fits a
///   `DecodeMemoryBudget` beside the work already running (see `MemoryAdmission`); until then its worker
///   waits, the job counted as running.
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
    ///   - memory: a budget each job's estimated working memory must fit before its work runs; nil runs
    ///     every job as soon as a worker takes it.
    public init(executor: Executor, name: String = "tessera.worker", priority: WorkerPriority = .normal,
                memory: MemoryAdmission? = nil) {
        self.executor = executor
        queue = JobQueue(admission: memory)
        if case .threads(let requested) = executor {
            let count = max(1, requested)
            queue.startWorkers(count: count, name: name, priority: priority)
        }
    }

    /// A pool of `max(1, workerCount)` threads named "`name`.0", "`name`.1", ... (`name` shortened as
    /// needed to fit Linux's 15-byte thread names).
    public convenience init(workerCount: Int, name: String = "tessera.worker", priority: WorkerPriority = .normal,
                            memory: MemoryAdmission? = nil) {
        self.init(executor: .threads(workerCount), name: name, priority: priority, memory: memory)
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
    /// How many jobs run at once: the pool's threads, or one for `.manual` (the `runPending` caller).
    public var workerCount: Int {
        switch executor {
        case .threads(let count): return max(1, count)
        case .manual: return 1
        }
    }

    /// Worker threads that have not exited yet (0 for `.manual`).
    public var liveWorkerCount: Int { queue.locked { $0.liveWorkers } }
    public var stats: SchedulerStats { queue.locked { $0.stats } }
}
