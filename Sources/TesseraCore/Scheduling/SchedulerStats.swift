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
