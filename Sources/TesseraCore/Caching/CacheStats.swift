/// Counters and current occupancy of a `CostCache`, read in one consistent snapshot.
package struct CacheStats: Sendable, Equatable {
    /// `value(for:)` calls that found an entry.
    package var hits: Int
    /// `value(for:)` calls that found nothing.
    package var misses: Int
    /// Entries pushed out because a limit was passed (not explicit removals or replacements).
    package var evictions: Int
    /// Values stored by `insert` (replacements included, rejections not).
    package var insertions: Int
    /// `insert` calls refused because the value alone costs more than `totalCostLimit`.
    package var rejections: Int
    /// Entries resident now.
    package var count: Int
    /// Sum of the resident entries' costs now.
    package var totalCost: Int
    /// Highest `totalCost` the cache has held once limits were enforced.
    package var peakCost: Int

    package init(hits: Int = 0, misses: Int = 0, evictions: Int = 0, insertions: Int = 0, rejections: Int = 0,
                count: Int = 0, totalCost: Int = 0, peakCost: Int = 0) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
        self.insertions = insertions
        self.rejections = rejections
        self.count = count
        self.totalCost = totalCost
        self.peakCost = peakCost
    }
}
