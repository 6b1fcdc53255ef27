/// Counters of a `WorkScheduler`, read in one consistent snapshot.
package struct SchedulerStats: Sendable, Equatable {
    /// Calls to `request` (shared ones included, so jobs created = submitted - shared).
    package var submitted: Int
    /// Jobs a worker (or `runPending`) took and began: finished or not, their work has started.
    package var started: Int
    /// Jobs whose work ran (successfully or not).
    package var executed: Int
    /// Requests merged into a job already queued or running for the same key.
    package var shared: Int
    /// Queued jobs dropped before running (by `cancel`, `retainOnly` or `shutdown`).
    package var cancelled: Int
    /// Running jobs asked to stop (`cancelRunning`) whose work then threw `DecodeCancelled`.
    package var stoppedRunning: Int

    package init(submitted: Int = 0, started: Int = 0, executed: Int = 0, shared: Int = 0, cancelled: Int = 0,
                stoppedRunning: Int = 0) {
        self.submitted = submitted
        self.started = started
        self.executed = executed
        self.shared = shared
        self.cancelled = cancelled
        self.stoppedRunning = stoppedRunning
    }
}
