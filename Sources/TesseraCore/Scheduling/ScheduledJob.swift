extension WorkScheduler {
    /// One execution of `work` for `key`, shared by every requester of the key while it is queued or
    /// running. Only touched with the queue's lock held.
    final class Job {
        enum Phase { case queued, running, dropped }

        let key: Key
        /// Taken out, under the lock, when the job is dropped or has run, and let go after the lock: what
        /// the work holds may be the last reference to something whose deinit asks the executor again.
        var work: CancellableWork?
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
    struct HeapEntry {
        let priority: Int
        let sequence: Int
        let generation: Int
        let job: Job

        func runsBefore(_ other: HeapEntry) -> Bool {
            (priority, sequence) < (other.priority, other.sequence)
        }

        var isCurrent: Bool { job.phase == .queued && job.generation == generation }
    }
}
