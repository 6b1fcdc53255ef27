import TesseraCore

/// How often, and how soon, a tile whose failure may pass (a server's error or silence) is tried again by
/// itself: after `firstDelay`, then twice as long each time up to `longestDelay`, `automaticRetries` times
/// in all. A server that is down stays asked a few times, not for ever.
package struct TileRetryPolicy: Sendable, Equatable {
    package var firstDelay: Duration
    package var longestDelay: Duration
    package var automaticRetries: Int

    package init(firstDelay: Duration = .seconds(1), longestDelay: Duration = .seconds(8), automaticRetries: Int = 4) {
        self.firstDelay = firstDelay
        self.longestDelay = longestDelay
        self.automaticRetries = automaticRetries
    }

    /// No automatic retry: failures stay until the user asks (a file's).
    package static let never = TileRetryPolicy(automaticRetries: 0)

    /// How long after its `failures`-th failure in a row a tile is tried again, nil when it is not tried
    /// again by itself.
    package func delay(afterFailures failures: Int) -> Duration? {
        guard failures >= 1, failures <= automaticRetries else { return nil }
        var delay = firstDelay
        for _ in 1..<failures where delay < longestDelay { delay = delay * 2 }
        return min(delay, longestDelay)
    }
}

/// When each failed tile is due to be tried again: a failure sets its time (`TileRetryPolicy`), a
/// success forgets the tile, and the user's retry makes every failed tile due at once with its count
/// started over. Worked out without a clock: every call takes `now`. Main thread only, as its owner.
package struct TileRetrySchedule: Sendable {
    package let policy: TileRetryPolicy

    private struct Entry: Sendable {
        var failures: Int
        /// Nil once the automatic retries are spent.
        var dueAt: Duration?
    }

    private var entries: [TileID: Entry] = [:]

    package init(policy: TileRetryPolicy) {
        self.policy = policy
    }

    /// A load of `tile` failed at `now`.
    package mutating func failed(_ tile: TileID, at now: Duration) {
        let failures = (entries[tile]?.failures ?? 0) + 1
        entries[tile] = Entry(failures: failures, dueAt: policy.delay(afterFailures: failures).map { now + $0 })
    }

    /// A load of `tile` succeeded: its failures are forgotten.
    package mutating func succeeded(_ tile: TileID) {
        entries[tile] = nil
    }

    /// The user asked to try again: `tiles` are due at `now`, their failures counted afresh.
    package mutating func retryNow(_ tiles: some Sequence<TileID>, at now: Duration) {
        for tile in tiles { entries[tile] = Entry(failures: 0, dueAt: now) }
    }

    /// Which of `candidates` are due at `now`; each is taken off the schedule until its next failure.
    package mutating func takeDue(among candidates: some Sequence<TileID>, now: Duration) -> [TileID] {
        var due: [TileID] = []
        for tile in candidates {
            guard var entry = entries[tile], let dueAt = entry.dueAt, dueAt <= now else { continue }
            entry.dueAt = nil
            entries[tile] = entry
            due.append(tile)
        }
        return due
    }

    /// The soonest time one of `candidates` is due, nil when none is.
    package func nextDue(among candidates: some Sequence<TileID>) -> Duration? {
        candidates.compactMap { entries[$0]?.dueAt }.min()
    }

    /// How many times in a row `tile` has failed since it last loaded or the user retried it.
    package func failures(of tile: TileID) -> Int { entries[tile]?.failures ?? 0 }
}
