import TesseraCore
import TesseraImaging
/// Which tiles are held right now (on the GPU, in the UI), bounded in bytes: vipsdisp's `tilecache.c`,
/// kept apart from where tiles come from.
///
/// Recency and the byte bound are `CostCache`'s (least recently *drawn* first: the view calls `touch` for
/// every tile it draws); tiles of pinned levels never enter it and are never evicted. The values
/// themselves (textures) live here, on the one thread that owns them; the cost cache only tracks keys, so
/// `Value` need not be `Sendable`.
package final class TileStore<Value> {
    package struct Entry {
        package let value: Value
        package let cost: Int
        /// When the tile's fade-in starts (`FadeTiming.alpha(startedAt:now:)`).
        package let fadeStart: Duration
        package let isPinned: Bool
    }

    private var entries: [TileID: Entry] = [:]
    private let recency: CostCache<TileID, Int>
    private let evicted = Inbox<TileID>()
    private let isPinnedLevel: (Int) -> Bool
    package private(set) var pinnedCost = 0
    package private(set) var evictionCount = 0

    /// - Parameters:
    ///   - costLimitBytes: bound on the evictable tiles' total cost (pinned ones come on top).
    ///   - isPinned: whether a level's tiles are kept for good.
    package init(costLimitBytes: Int, isPinned: @escaping (Int) -> Bool) {
        let evicted = self.evicted
        recency = CostCache(totalCostLimit: costLimitBytes, onEvict: { key, _ in evicted.push(key) })
        isPinnedLevel = isPinned
    }

    package var costLimitBytes: Int { recency.totalCostLimit }
    package var count: Int { entries.count }
    /// Bytes held, pinned tiles included.
    package var totalCost: Int { pinnedCost + recency.stats.totalCost }
    package var peakEvictableCost: Int { recency.stats.peakCost }

    package func entry(for tile: TileID) -> Entry? { entries[tile] }
    package func contains(_ tile: TileID) -> Bool { entries[tile] != nil }

    /// Marks a tile as drawn now, so it is the last to be evicted.
    package func touch(_ tile: TileID) {
        guard let entry = entries[tile], !entry.isPinned else { return }
        _ = recency.value(for: tile)
    }

    /// Stores a tile and returns the values that had to go to respect the byte bound (the caller may
    /// recycle them), least recently drawn first. A tile costing more than the whole bound is not kept:
    /// it comes back in the result at once.
    @discardableResult
    package func insert(_ value: Value, for tile: TileID, cost: Int, fadeStart: Duration) -> [Value] {
        var dropped: [Value] = []
        if let old = remove(tile) { dropped.append(old) }
        let pinned = isPinnedLevel(tile.level)
        let entry = Entry(value: value, cost: cost, fadeStart: fadeStart, isPinned: pinned)
        if pinned {
            entries[tile] = entry
            pinnedCost += cost
            return dropped
        }
        entries[tile] = entry
        recency.insert(cost, for: tile, cost: cost)
        for key in evicted.drain() {
            if let gone = entries.removeValue(forKey: key) {
                dropped.append(gone.value)
                evictionCount += 1
            }
        }
        if recency.peek(tile) == nil, let refused = entries.removeValue(forKey: tile) {
            dropped.append(refused.value)
        }
        return dropped
    }

    /// Drops one tile (not counted as an eviction).
    @discardableResult
    package func remove(_ tile: TileID) -> Value? {
        guard let entry = entries.removeValue(forKey: tile) else { return nil }
        if entry.isPinned { pinnedCost -= entry.cost } else { recency.removeValue(for: tile) }
        return entry.value
    }

    /// Drops everything; returns the values.
    package func removeAll() -> [Value] {
        let values = entries.values.map(\.value)
        entries.removeAll()
        recency.removeAll()
        pinnedCost = 0
        return values
    }

    /// Held tiles (any order), for tests and diagnostics.
    package var tiles: [TileID] { Array(entries.keys) }
}
