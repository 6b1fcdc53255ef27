import Synchronization

/// A lane of a `WorkExecutor` whose jobs run one at a time in the order they were given: the serial
/// queue of work that must keep its order (file actions, one after the other) or that nobody needs two of
/// at once (the information overlay's reads, the strip's sort facts), on the process's shared workers.
package final class SerialWorkLane: Sendable {
    private let scheduler: WorkScheduler<Int, Void>
    /// The next job's key: jobs never share one, so none is merged into another.
    private let nextKey = Atomic<Int>(0)

    package init(rank: WorkRank, on executor: WorkExecutor) {
        scheduler = WorkScheduler(rank: rank, on: executor, maxRunning: 1)
    }

    /// Queues `body` behind the jobs given before it. After shutdown it does not run.
    package func perform(_ body: @escaping @Sendable () -> Void) {
        let key = nextKey.add(1, ordering: .relaxed).oldValue
        scheduler.request(key, priority: 0, work: body, completion: { _, _ in })
    }

    /// Drops the jobs not started yet; a running one finishes.
    package func cancelQueued() { scheduler.retainOnly([]) }

    /// Jobs given and not finished (queued or running).
    package var pendingCount: Int { scheduler.queuedCount + scheduler.runningCount }

    package var rank: WorkRank {
        get { scheduler.rank }
        set { scheduler.rank = newValue }
    }

    /// Runs the queued jobs on the calling thread (a `.manual` executor's way to make progress); returns
    /// how many ran.
    @discardableResult
    package func runPending() -> Int { scheduler.runPending() }
}
