import Synchronization

/// A thread-safe key/value cache bounded by entry count and by total cost, in the manner of `NSCache`. It
/// only stores: what is being loaded is the business of whoever loads (`LoadPipeline` keeps the book's
/// listing 14.5 "in flight" marks itself).
///
/// We write our own because swift-corelibs-foundation's `NSCache` evicts the *cheapest* entry first and
/// ignores recency, so a grid that keeps touching the thumbnails on screen would still lose them.
///
/// **Eviction policy: least recently used**, or an `EvictionRanking` when one is set. Whenever the entry
/// count exceeds `countLimit` or the total cost exceeds `totalCostLimit` (either one suffices; 0 means
/// "no limit", as with `NSCache`), the entry that was least recently inserted or read through
/// `value(for:)` (or the one ranked highest) is evicted, repeatedly, until both limits hold. `peek(_:)`
/// reads without refreshing recency. Without a ranking all operations are O(1) (a dictionary plus a doubly
/// linked list threaded through an array of slots).
///
/// `onEvict` is called for limit evictions only, after the lock is released, so it may call back into
/// the cache. It runs on whichever thread caused the eviction.
package final class CostCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Ranks entries for eviction: the highest value goes first. Used instead of recency when set, e.g. to
    /// evict what is farthest from the visible centre (the Core Animation book's own suggestion).
    package typealias EvictionRanking = @Sendable (Key) -> Double

    /// One cached entry; also a link in the recency list (`older`/`newer` are slot indices, `noSlot` ends).
    private struct Entry {
        var key: Key
        var value: Value
        var cost: Int
        var older: Int
        var newer: Int
    }

    private static var noSlot: Int { -1 }

    /// Everything mutable, guarded by one mutex so every operation sees a consistent list and totals.
    private struct State {
        var countLimit: Int
        var totalCostLimit: Int
        /// Slot storage for the linked list; indices stay stable, so links are plain Ints (no ARC traffic).
        var slots: [Entry?] = []
        var freeSlots: [Int] = []
        var slotByKey: [Key: Int] = [:]
        var oldest = CostCache.noSlot
        var newest = CostCache.noSlot
        var stats = CacheStats()
        /// When set, eviction takes the entry ranked highest instead of the least recently used one.
        var evictionRanking: EvictionRanking?

        init(countLimit: Int, totalCostLimit: Int) {
            self.countLimit = countLimit
            self.totalCostLimit = totalCostLimit
        }

        // MARK: Recency list

        mutating func unlink(_ slot: Int) {
            let entry = slots[slot]!
            if entry.older != CostCache.noSlot { slots[entry.older]!.newer = entry.newer } else { oldest = entry.newer }
            if entry.newer != CostCache.noSlot { slots[entry.newer]!.older = entry.older } else { newest = entry.older }
            slots[slot]!.older = CostCache.noSlot
            slots[slot]!.newer = CostCache.noSlot
        }

        mutating func linkAsNewest(_ slot: Int) {
            slots[slot]!.older = newest
            slots[slot]!.newer = CostCache.noSlot
            if newest != CostCache.noSlot { slots[newest]!.newer = slot } else { oldest = slot }
            newest = slot
        }

        mutating func touch(_ slot: Int) {
            guard slot != newest else { return }
            unlink(slot)
            linkAsNewest(slot)
        }

        // MARK: Storage

        mutating func store(_ value: Value, for key: Key, cost: Int) {
            if let slot = slotByKey[key] {
                stats.totalCost += cost - slots[slot]!.cost
                slots[slot]!.value = value
                slots[slot]!.cost = cost
                touch(slot)
                return
            }
            let entry = Entry(key: key, value: value, cost: cost, older: CostCache.noSlot, newer: CostCache.noSlot)
            let slot: Int
            if let reused = freeSlots.popLast() {
                slot = reused
                slots[slot] = entry
            } else {
                slot = slots.count
                slots.append(entry)
            }
            slotByKey[key] = slot
            linkAsNewest(slot)
            stats.count += 1
            stats.totalCost += cost
        }

        @discardableResult
        mutating func remove(slot: Int) -> Entry {
            unlink(slot)
            let entry = slots[slot]!
            slots[slot] = nil
            freeSlots.append(slot)
            slotByKey[entry.key] = nil
            stats.count -= 1
            stats.totalCost -= entry.cost
            return entry
        }

        /// The slot to evict next: the oldest, or under a ranking the highest ranked (oldest first on ties).
        /// A ranking costs a scan of the entries, fine for the hundreds a viewer holds.
        func victim() -> Int {
            guard let rank = evictionRanking else { return oldest }
            var best = oldest
            var bestRank = -Double.infinity
            var slot = oldest
            while slot != CostCache.noSlot {
                let entry = slots[slot]!
                let r = rank(entry.key)
                if r > bestRank { best = slot; bestRank = r }
                slot = entry.newer
            }
            return best
        }

        var isOverLimit: Bool {
            (countLimit > 0 && stats.count > countLimit) || (totalCostLimit > 0 && stats.totalCost > totalCostLimit)
        }

        /// Evicts from the old end until both limits hold; returns the victims oldest first so the
        /// caller can report them once the lock is released.
        mutating func evictWhileOverLimit() -> [(Key, Value)] {
            var evicted: [(Key, Value)] = []
            while isOverLimit, oldest != CostCache.noSlot {
                let entry = remove(slot: victim())
                evicted.append((entry.key, entry.value))
            }
            stats.evictions += evicted.count
            stats.peakCost = max(stats.peakCost, stats.totalCost)
            return evicted
        }
    }

    private let state: Mutex<State>
    private let onEvict: (@Sendable (Key, Value) -> Void)?

    /// - Parameters:
    ///   - countLimit: Maximum number of entries; 0 means unlimited.
    ///   - totalCostLimit: Maximum sum of entry costs; 0 means unlimited.
    ///   - onEvict: Called, outside the lock and oldest first, for each entry evicted to honour a limit.
    package init(countLimit: Int = 0, totalCostLimit: Int = 0, onEvict: (@Sendable (Key, Value) -> Void)? = nil) {
        state = Mutex(State(countLimit: max(0, countLimit), totalCostLimit: max(0, totalCostLimit)))
        self.onEvict = onEvict
    }

    /// Maximum number of entries (0 = unlimited). Lowering it evicts at once.
    package var countLimit: Int {
        get { state.withLock { $0.countLimit } }
        set {
            report(state.withLock { state in
                state.countLimit = max(0, newValue)
                return state.evictWhileOverLimit()
            })
        }
    }

    /// Maximum total cost (0 = unlimited). Lowering it evicts at once.
    package var totalCostLimit: Int {
        get { state.withLock { $0.totalCostLimit } }
        set {
            report(state.withLock { state in
                state.totalCostLimit = max(0, newValue)
                return state.evictWhileOverLimit()
            })
        }
    }

    /// The cached value, refreshing its recency; counts a hit or a miss.
    package func value(for key: Key) -> Value? {
        state.withLock { state in
            guard let slot = state.slotByKey[key] else {
                state.stats.misses += 1
                return nil
            }
            state.stats.hits += 1
            state.touch(slot)
            return state.slots[slot]!.value
        }
    }

    /// The cached value without touching recency or stats (for diagnostics and tests).
    package func peek(_ key: Key) -> Value? {
        state.withLock { state in state.slotByKey[key].map { state.slots[$0]!.value } }
    }

    /// Stores `value` as the most recent entry, replacing any previous value for `key`, then evicts while a
    /// limit is passed.
    ///
    /// A value whose cost alone exceeds `totalCostLimit` could never stay without flushing everything
    /// else, so it is not stored (counted as a rejection) and any older value for the key is dropped,
    /// since it is stale now.
    package func insert(_ value: Value, for key: Key, cost: Int) {
        let cost = max(0, cost)
        let evicted = state.withLock { state -> [(Key, Value)] in
            if state.totalCostLimit > 0, cost > state.totalCostLimit {
                state.stats.rejections += 1
                if let slot = state.slotByKey[key] { state.remove(slot: slot) }
                return []
            }
            state.store(value, for: key, cost: cost)
            state.stats.insertions += 1
            return state.evictWhileOverLimit()
        }
        report(evicted)
    }

    /// Drops the entry for `key`, if any (not reported to `onEvict`).
    package func removeValue(for key: Key) {
        state.withLock { state in
            if let slot = state.slotByKey[key] { state.remove(slot: slot) }
        }
    }

    /// Drops every entry whose key matches (not reported to `onEvict`), e.g. the pixels of a file's old
    /// version once it changed; returns how many went. Walks every entry: for rare events, not per frame.
    @discardableResult
    package func removeValues(where matches: (Key) -> Bool) -> Int {
        state.withLock { state in
            var removed = 0
            for (key, slot) in state.slotByKey where matches(key) {
                state.remove(slot: slot)
                removed += 1
            }
            return removed
        }
    }

    /// Drops every entry (not reported to `onEvict`). Counters are kept.
    package func removeAll() {
        state.withLock { state in
            state.slots.removeAll()
            state.freeSlots.removeAll()
            state.slotByKey.removeAll()
            state.oldest = Self.noSlot
            state.newest = Self.noSlot
            state.stats.count = 0
            state.stats.totalCost = 0
        }
    }

    // MARK: Introspection

    /// Switches eviction from least-recently-used to `ranking` (nil restores LRU). The ranking is called
    /// under the cache's lock: it must be quick and must not call back into the cache.
    package func setEvictionRanking(_ ranking: EvictionRanking?) {
        state.withLock { $0.evictionRanking = ranking }
    }

    package var stats: CacheStats {
        state.withLock { $0.stats }
    }

    /// Cached keys from least to most recently used (O(n); for tests and debugging).
    package var keysInRecencyOrder: [Key] {
        state.withLock { state in
            var keys: [Key] = []
            keys.reserveCapacity(state.stats.count)
            var slot = state.oldest
            while slot != Self.noSlot {
                let entry = state.slots[slot]!
                keys.append(entry.key)
                slot = entry.newer
            }
            return keys
        }
    }

    /// Hands evicted entries to `onEvict`; only ever called with the lock released, so the callback may
    /// re-enter the cache without deadlocking.
    private func report(_ evicted: [(Key, Value)]) {
        guard let onEvict else { return }
        for (key, value) in evicted { onEvict(key, value) }
    }
}
