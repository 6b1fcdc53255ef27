extension WorkScheduler {
    /// How a scheduler's jobs take their share of a `DecodeMemoryBudget`: before a job's work runs, its
    /// worker asks `estimate` for the key's working memory (it may read a file's header, so it runs on the
    /// worker, not the requester) and waits for room in `budget`; the share is given back when the work
    /// ends. Several schedulers may share one budget.
    package struct MemoryAdmission: Sendable {
        package let budget: DecodeMemoryBudget
        /// The estimated working memory, in bytes, of the job for a key.
        package let estimate: @Sendable (Key) -> Int

        package init(budget: DecodeMemoryBudget, estimate: @escaping @Sendable (Key) -> Int) {
            self.budget = budget
            self.estimate = estimate
        }
    }
}
