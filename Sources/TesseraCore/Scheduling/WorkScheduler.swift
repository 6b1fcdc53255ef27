import Foundation

/// Why a `WorkScheduler` completion received a failure without its work having run.
package enum WorkSchedulerError: Error, Sendable, Equatable {
    /// The queued job was dropped by `cancel`, `retainOnly` or `shutdown` before it started.
    case cancelled
    /// The request arrived after `shutdown()`.
    case shutDown
}

/// One lane of keyed jobs on a `WorkExecutor`: run by priority on the executor's shared workers (or, for
/// tests, on demand on the calling thread), after the jobs of lanes of a more urgent rank.
///
/// Why not Dispatch or Swift concurrency: decoding is blocking CPU work, and the grid needs to reorder
/// and drop queued work as the user scrolls (`reprioritize`, `retainOnly`), which neither a
/// `DispatchQueue` nor the cooperative pool allows. A fixed pool also bounds how many full-size decodes
/// hold memory at once.
///
/// - **Rank and priority:** a lane's rank (`WorkRank`) orders its jobs against other lanes'; within the
///   rank, lower priorities run sooner (0 = visible now); equal priorities run in submission order. The
///   holder of a lane moves it between ranks (`rank`) as what it shows comes on or goes off screen.
/// - **Deduplication:** one key has at most one job in a lane. A request for a key already queued or
///   running adds its completion to that job, so all requesters share one execution; a queued job's
///   priority becomes the more urgent of the two.
/// - **Completions** run on the thread that did the work (a worker, or the `runPending` caller); for a
///   dropped job, on the thread that dropped it; after shutdown, on the requesting thread. Never with a
///   scheduler lock held, so a completion may call back into the scheduler.
/// - **Memory** (optional): a job's work starts only once its estimated working memory fits a
///   `DecodeMemoryBudget` beside the work already running (see `MemoryAdmission`); until then its worker
///   waits, the job counted as running.
/// - **Cancellation** drops queued jobs of this lane only: their completions receive
///   `WorkSchedulerError.cancelled` so callers can clear in-flight markers. Running work is only ever
///   *asked* to stop (`cancelRunning`): work submitted as `CancellableWork` sees its `DecodeCancellation`
///   set and may throw `DecodeCancelled`, which its completions receive like any other error. A new request
///   for the key before then withdraws the request to stop.
///
/// A scheduler made with a worker count (`init(workerCount:)`, `inline()`) is the only lane of an
/// executor of its own, for work outside the viewer (the tile cutter's encoders) and for tests.
package final class WorkScheduler<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    package typealias Work = @Sendable () throws -> Value
    /// Work that looks at its cancellation signal now and then and stops when it is set.
    package typealias CancellableWork = @Sendable (DecodeCancellation) throws -> Value
    package typealias Completion = @Sendable (Key, Result<Value, Error>) -> Void
    /// Who executes the jobs of a scheduler with an executor of its own.
    package typealias Executor = WorkExecutor.Workers

    /// A sensible pool size: every core, but at least two so one slow decode does not stall the grid.
    package static var defaultWorkerCount: Int { WorkExecutor.defaultWorkerCount }

    /// The executor's workers reach the queue through the executor, not through the scheduler, so the
    /// scheduler can be deinitialised (and drop its queued work) while a worker runs one of its jobs.
    private let queue: JobQueue
    /// Whether the executor is this scheduler's alone, shut down with it.
    private let ownsExecutor: Bool

    /// A lane of `executor` at `rank`.
    /// - Parameters:
    ///   - maxRunning: how many of the lane's jobs run at once at most (1 keeps them in order).
    ///   - memory: a budget each job's estimated working memory must fit before its work runs (usually
    ///     the executor's `memoryBudget`); nil runs every job as soon as a worker takes it.
    package init(rank: WorkRank, on executor: WorkExecutor, maxRunning: Int = .max, memory: MemoryAdmission? = nil) {
        queue = JobQueue(executor: executor, rank: rank, maxRunning: maxRunning, admission: memory)
        ownsExecutor = false
    }

    /// A scheduler with an executor of its own, its only lane.
    /// - Parameters:
    ///   - name: Base name of the worker threads (ignored by `.manual`).
    ///   - priority: The CPU priority of the worker threads (ignored by `.manual`).
    ///   - memory: a budget each job's estimated working memory must fit before its work runs; nil runs
    ///     every job as soon as a worker takes it.
    package init(executor: Executor, name: String = "tessera.worker", priority: WorkerPriority = .normal,
                memory: MemoryAdmission? = nil) {
        let own = WorkExecutor(executor, name: name, priority: priority, memoryBudget: memory?.budget)
        queue = JobQueue(executor: own, rank: .visible, maxRunning: .max, admission: memory)
        ownsExecutor = true
    }

    /// A pool of `max(1, workerCount)` threads named "`name`.0", "`name`.1", ... (`name` shortened as
    /// needed to fit Linux's 15-byte thread names).
    package convenience init(workerCount: Int, name: String = "tessera.worker", priority: WorkerPriority = .normal,
                            memory: MemoryAdmission? = nil) {
        self.init(executor: .threads(workerCount), name: name, priority: priority, memory: memory)
    }

    /// A scheduler that runs nothing until `runPending(limit:)` is called on the calling thread.
    package static func inline() -> WorkScheduler {
        WorkScheduler(executor: .manual)
    }

    deinit {
        shutdown()
    }

    /// The executor this lane runs on.
    package var executor: WorkExecutor { queue.executor }

    /// Where this lane's jobs stand against other lanes'; a change reorders its queued jobs at once.
    package var rank: WorkRank {
        get { queue.currentRank }
        set { queue.currentRank = newValue }
    }

    /// Schedules `work` for `key`, or joins the job already queued or running for `key`.
    /// After `shutdown()`, `completion` is called at once with `WorkSchedulerError.shutDown`.
    package func request(_ key: Key, priority: Int, work: @escaping Work, completion: @escaping Completion) {
        queue.request(key, priority: priority, work: { _ in try work() }, completion: completion)
    }

    /// Like `request(_:priority:work:completion:)`, for work that `cancelRunning` can ask to stop.
    package func request(_ key: Key, priority: Int, cancellableWork work: @escaping CancellableWork,
                        completion: @escaping Completion) {
        queue.request(key, priority: priority, work: work, completion: completion)
    }

    /// Asks the running jobs whose key is not in `keep` to stop (their cancellation signal is set; work
    /// that ignores it just finishes), and withdraws that request from running jobs whose key is in
    /// `keep` again. Queued jobs are untouched (see `retainOnly`). Returns the keys newly asked to stop.
    @discardableResult
    package func cancelRunning(except keep: Set<Key>) -> [Key] {
        queue.cancelRunning { !keep.contains($0) }
    }

    /// Asks the running jobs for these keys to stop; returns the keys newly asked.
    @discardableResult
    package func cancelRunning(_ keys: Set<Key>) -> [Key] {
        queue.cancelRunning { keys.contains($0) }
    }

    /// Sets the priority of the queued jobs for these keys; running jobs and unknown keys are ignored.
    package func reprioritize(_ priorities: [Key: Int]) {
        queue.reprioritize(priorities)
    }

    /// Drops every queued job whose key is not in `keep` (its completions get `.cancelled`) and returns
    /// the dropped keys. Running jobs finish.
    @discardableResult
    package func retainOnly(_ keep: Set<Key>) -> [Key] {
        queue.drop { !keep.contains($0) }
    }

    /// Drops the queued job for `key` (its completions get `.cancelled`); returns false if there was no
    /// queued job (none at all, or already running).
    @discardableResult
    package func cancel(_ key: Key) -> Bool {
        !queue.drop { $0 == key }.isEmpty
    }

    /// Runs up to `limit` of this lane's queued jobs on the calling thread, most urgent first, completions
    /// included; returns how many ran. This is how a `.manual` scheduler of its own makes progress; with
    /// threads it just lends the calling thread to the pool. (`WorkExecutor.runPending` runs every lane's.)
    @discardableResult
    package func runPending(limit: Int = .max) -> Int {
        var ran = 0
        while ran < limit, let job = queue.takeNextJobWithoutWaiting() {
            queue.execute(job)
            ran += 1
        }
        return ran
    }

    /// Drops this lane's queued jobs (completions get `.cancelled`) and lets running ones finish; an
    /// executor of its own lets its worker threads exit too. Later requests fail with `.shutDown`. Does not
    /// block; see `waitForWorkersToExit`.
    package func shutdown() {
        queue.shutdown()
        if ownsExecutor { queue.executor.shutdown() }
    }

    /// Blocks after `shutdown()` until this lane's running jobs have ended (and, with an executor of its
    /// own, its worker threads have exited), or until `timeout` passes; returns whether they have. Never
    /// call it from a worker: that worker cannot end meanwhile.
    package func waitForWorkersToExit(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        if ownsExecutor { return queue.executor.waitForWorkersToExit(timeout: timeout) }
        return queue.waitUntilNoneRunning(until: deadline)
    }

    /// Where the job for `key` stands, read in one look so a job being taken is never seen as neither.
    package enum JobState: Sendable, Equatable {
        /// Waiting for a worker: it can still be reprioritised or dropped.
        case queued
        /// A worker is executing it (it cannot be dropped any more).
        case running
    }

    /// The state of the job for `key`; nil when there is none (never asked for, finished, or dropped).
    package func state(of key: Key) -> JobState? {
        queue.locked { state in
            switch state.jobsByKey[key]?.phase {
            case .queued: return .queued
            case .running: return .running
            case .dropped, nil: return nil
            }
        }
    }

    /// Whether a worker is executing the job for `key` right now (it cannot be dropped any more).
    package func isRunning(_ key: Key) -> Bool { state(of: key) == .running }

    /// How long the job for `key` has been running, nil when it is not running.
    package func runningSeconds(_ key: Key) -> Double? {
        guard let start = queue.locked({ state -> ContinuousClock.Instant? in
            guard let job = state.jobsByKey[key], job.phase == .running else { return nil }
            return job.startedAt
        }) else { return nil }
        return (ContinuousClock.now - start) / .seconds(1)
    }

    package var queuedCount: Int { queue.locked { $0.queuedCount } }
    package var runningCount: Int { queue.locked { _ in queue.runningCount } }
    /// How many of this lane's jobs run at once: the executor's workers (one for `.manual`, the
    /// `runPending` caller), or fewer when the lane caps them.
    package var workerCount: Int { min(queue.executor.workerCount, queue.maxRunning) }

    /// The executor's worker threads that have not exited yet (0 for `.manual`).
    package var liveWorkerCount: Int { queue.executor.liveWorkerCount }
    package var stats: SchedulerStats { queue.locked { $0.stats } }
}
