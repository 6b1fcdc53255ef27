import Foundation

/// The one engine a process runs its background work on: a fixed pool of worker threads (or, for tests,
/// the thread that calls `runPending`), shared by every lane of work, with the process's
/// `DecodeMemoryBudget` beside it for the lanes that decode.
///
/// Views do not start threads: each asks for a lane (`WorkScheduler(rank:on:)`, `SerialWorkLane`) and
/// requests and cancels work on it. A free worker takes the queued job that runs first by
/// (lane rank, job priority, submission order), so moving a lane to another rank (the slideshow's next
/// image becoming the shown one) reorders all its queued work at once, and the image on screen is never
/// behind one being opened ahead. A lane may cap how many of its jobs run at once (one, for work that must
/// keep its order).
///
/// Running work is never interrupted: a long job holds its worker until it ends or, asked to stop (see
/// `WorkScheduler.cancelRunning`), gives up. Hand-offs of work longer than a few decodes (a tile cut, an
/// animation's stream of frames) keep threads of their own.
package final class WorkExecutor: Sendable {
    /// Who executes jobs.
    package enum Workers: Sendable, Equatable {
        /// A pool of this many worker threads (at least one).
        case threads(Int)
        /// Nothing runs until `runPending(limit:)` is called, so tests decide exactly what runs when.
        case manual
    }

    /// A sensible pool size: every core, but at least two so one slow decode does not stall the view.
    package static var defaultWorkerCount: Int { max(2, ProcessInfo.processInfo.activeProcessorCount) }

    package let workers: Workers
    /// The working memory the lanes' decodes share; lanes that give an estimate per key wait for room in
    /// it (see `WorkScheduler.MemoryAdmission`). Nil lets every job start as soon as a worker takes it.
    package let memoryBudget: DecodeMemoryBudget?
    /// The worker threads hold the core, not the executor, so the executor can be deinitialised (and shut
    /// the pool down) while workers are still parked on the condition.
    let core: ExecutorCore

    /// - Parameters:
    ///   - name: Base name of the worker threads, "`name`.0", "`name`.1", ... (shortened to fit Linux's
    ///     15-byte thread names; ignored by `.manual`).
    ///   - priority: The CPU priority of the worker threads (ignored by `.manual`).
    ///   - memoryBudget: the budget the decoding lanes share.
    package init(_ workers: Workers, name: String = "tessera.worker", priority: WorkerPriority = .normal,
                memoryBudget: DecodeMemoryBudget? = nil) {
        self.workers = workers
        self.memoryBudget = memoryBudget
        core = ExecutorCore()
        if case .threads(let requested) = workers {
            core.startWorkers(count: max(1, requested), name: name, priority: priority)
        }
    }

    /// An executor that runs nothing until `runPending(limit:)` is called on the calling thread.
    package static func manual(memoryBudget: DecodeMemoryBudget? = nil) -> WorkExecutor {
        WorkExecutor(.manual, memoryBudget: memoryBudget)
    }

    deinit { core.shutdown() }

    /// How many jobs run at once: the pool's threads, or one for `.manual` (the `runPending` caller).
    package var workerCount: Int {
        switch workers {
        case .threads(let count): return max(1, count)
        case .manual: return 1
        }
    }

    /// Lowers the workers to `priority` (never raises them: see `WorkerPriority.applyToCurrentThread`), each
    /// before the next job it takes.
    package func lowerPriority(to priority: WorkerPriority) {
        core.locked {
            if priority.isLower(than: core.workerPriority) { core.workerPriority = priority }
        }
    }

    /// Worker threads that have not exited yet (0 for `.manual`).
    package var liveWorkerCount: Int { core.locked { core.liveWorkers } }

    /// Runs up to `limit` queued jobs of any lane on the calling thread, in the order workers would take
    /// them, completions included; returns how many ran.
    @discardableResult
    package func runPending(limit: Int = .max) -> Int {
        var ran = 0
        while ran < limit, let next = core.locked({ core.takeNext() }) {
            next.lane.run(next.job)
            ran += 1
        }
        return ran
    }

    /// Drops every lane's queued jobs (their completions get `WorkSchedulerError.cancelled`), lets running
    /// ones finish, and lets the worker threads exit. Later requests fail with `.shutDown`. Does not block;
    /// see `waitForWorkersToExit`.
    package func shutdown() { core.shutdown() }

    /// Blocks until every worker thread has exited after `shutdown()`, or until `timeout` passes;
    /// returns whether they all exited. Never call it from a worker: that worker cannot exit meanwhile.
    package func waitForWorkersToExit(timeout: TimeInterval) -> Bool {
        core.waitForWorkersToExit(until: Date(timeIntervalSinceNow: timeout))
    }

    package var isShutDown: Bool { core.locked { core.isShutDown } }
}

/// The executor's shared state and its worker loop. `@unchecked Sendable` because every field below
/// `condition` (and every registered lane's queue) is only read or written with `condition` locked.
final class ExecutorCore: @unchecked Sendable {
    /// Guards the executor's and its lanes' state, and wakes workers when a job is queued.
    let condition = NSCondition()
    /// The lanes that may have queued jobs, registered until they shut down.
    private var lanes: [ExecutorLane] = []
    /// Submission order across lanes: equal ranks and priorities run first come, first served.
    var nextSequence = 0
    var liveWorkers = 0
    /// The priority workers run their next jobs at.
    var workerPriority = WorkerPriority.normal
    private(set) var isShutDown = false

    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    // MARK: With the lock held

    /// Adds a lane; false once the executor is shut down.
    func register(_ lane: ExecutorLane) -> Bool {
        guard !isShutDown else { return false }
        lanes.append(lane)
        return true
    }

    func unregister(_ lane: ExecutorLane) {
        lanes.removeAll { $0 === lane }
    }

    /// The job that runs first by (lane rank, priority, sequence), now counted as running in its lane.
    /// Lanes are few (a handful per process), so a scan of their heads beats keeping one heap that a
    /// change of rank would have to rebuild.
    func takeNext() -> (lane: ExecutorLane, job: AnyObject)? {
        var best: ExecutorLane?
        var bestOrder = (Int.max, Int.max, Int.max)
        for lane in lanes where lane.runningCount < lane.maxRunning {
            guard let head = lane.firstQueued() else { continue }
            let order = (lane.rank.rawValue, head.priority, head.sequence)
            if order < bestOrder {
                best = lane
                bestOrder = order
            }
        }
        guard let best else { return nil }
        return (best, best.takeFirst())
    }

    // MARK: Workers

    func startWorkers(count: Int, name: String, priority: WorkerPriority) {
        locked {
            liveWorkers = count
            workerPriority = priority
        }
        for index in 0..<count {
            let threadName = Self.threadName(name, index: index)
            let launched = DispatchSemaphore(value: 0)
            let thread = Thread { [self] in
                // Named from inside, once start() has returned: corelibs Foundation ignores a name set
                // before start(), and drops one set before start() has stored the pthread handle. Named,
                // workers are recognisable in top -H, gdb and /proc.
                launched.wait()
                Thread.current.name = threadName
                priority.applyToCurrentThread()
                var applied = priority
                while let next = waitForNextJob() {
                    // Lowered since this worker last looked (`WorkExecutor.lowerPriority`): it steps down
                    // before the job, for good.
                    let wanted = locked { workerPriority }
                    if wanted.isLower(than: applied) {
                        wanted.applyToCurrentThread(from: applied)
                        applied = wanted
                    }
                    next.lane.run(next.job)
                }
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

    /// Sleeps until a job can start (returning it) or the executor shuts down (returning nil, after
    /// counting this worker out so `waitForWorkersToExit` can see it).
    private func waitForNextJob() -> (lane: ExecutorLane, job: AnyObject)? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if isShutDown {
                liveWorkers -= 1
                condition.broadcast()
                return nil
            }
            if let next = takeNext() { return next }
            condition.wait()
        }
    }

    /// Drops every lane's queued jobs and wakes the workers to exit; the dropped completions run after.
    func shutdown() {
        let failures = locked { () -> [() -> Void] in
            guard !isShutDown else { return [] }
            isShutDown = true
            let closing = lanes
            lanes = []
            condition.broadcast()
            return closing.map { $0.close() }
        }
        for fail in failures { fail() }
    }

    func waitForWorkersToExit(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while liveWorkers > 0 {
            if !condition.wait(until: deadline) { return liveWorkers == 0 }
        }
        return true
    }
}

/// What the executor sees of a lane: its rank, its cap on running jobs, and its queue's head. The
/// methods marked so are called with the executor's lock held. `@unchecked Sendable` for the same reason
/// as `ExecutorCore`.
class ExecutorLane: @unchecked Sendable {
    /// Guarded by the executor's lock.
    var rank: WorkRank
    let maxRunning: Int
    /// Jobs of this lane a worker (or a `runPending` caller) is executing; guarded by the executor's lock.
    var runningCount = 0

    init(rank: WorkRank, maxRunning: Int) {
        self.rank = rank
        self.maxRunning = max(1, maxRunning)
    }

    /// Lock held: the priority and sequence of the job this lane runs next, nil when none is queued.
    func firstQueued() -> (priority: Int, sequence: Int)? { fatalError("abstract") }

    /// Lock held: takes the job `firstQueued` named and marks it running.
    func takeFirst() -> AnyObject { fatalError("abstract") }

    /// Lock held: the executor shuts down; drops the queued jobs and returns what tells their requesters,
    /// to be called once the lock is released.
    func close() -> () -> Void { fatalError("abstract") }

    /// Executes a job `takeFirst` returned, without the lock.
    func run(_ job: AnyObject) { fatalError("abstract") }
}
