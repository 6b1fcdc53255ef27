import Dispatch
import Synchronization
import XCTest
@testable import TesseraCore

/// A value shared with callbacks that may run on any thread.
private final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }

    func mutate(_ body: (inout Value) -> Void) { mutex.withLock { body(&$0) } }
}

/// Records eviction callbacks, which run on whichever thread caused the eviction.
private final class EvictionLog<Key: Sendable, Value: Sendable>: Sendable {
    private let entries = Locked<[(Key, Value)]>([])

    func append(_ key: Key, _ value: Value) { entries.mutate { $0.append((key, value)) } }
    var keys: [Key] { entries.value.map(\.0) }
    var values: [Value] { entries.value.map(\.1) }
}

final class CostCacheTests: XCTestCase {
    func testCountLimitEvictsOldest() {
        let cache = CostCache<String, Int>(countLimit: 3)
        for (index, key) in ["a", "b", "c", "d"].enumerated() { cache.insert(index, for: key, cost: 1) }

        XCTAssertEqual(cache.keysInRecencyOrder, ["b", "c", "d"])
        XCTAssertNil(cache.peek("a"))
        XCTAssertEqual(cache.stats.count, 3)
        XCTAssertEqual(cache.stats.evictions, 1)
    }

    func testCostLimitEvictsUntilUnderLimit() {
        let cache = CostCache<String, Int>(totalCostLimit: 100)
        cache.insert(1, for: "a", cost: 40)
        cache.insert(2, for: "b", cost: 40)
        XCTAssertEqual(cache.stats.totalCost, 80)
        cache.insert(3, for: "c", cost: 40)

        XCTAssertEqual(cache.keysInRecencyOrder, ["b", "c"])
        XCTAssertEqual(cache.stats.totalCost, 80)
        XCTAssertEqual(cache.stats.peakCost, 80)
    }

    func testEitherLimitTriggersEviction() {
        let cache = CostCache<String, Int>(countLimit: 10, totalCostLimit: 50)
        cache.insert(1, for: "a", cost: 30)
        cache.insert(2, for: "b", cost: 30)  // count is fine, cost is not
        XCTAssertEqual(cache.keysInRecencyOrder, ["b"])

        cache.countLimit = 1
        cache.insert(3, for: "c", cost: 1)  // cost is fine, count is not
        XCTAssertEqual(cache.keysInRecencyOrder, ["c"])
    }

    func testZeroLimitsMeanUnlimited() {
        let cache = CostCache<Int, Int>()
        for key in 0..<1_000 { cache.insert(key, for: key, cost: 1_000_000) }
        XCTAssertEqual(cache.stats.count, 1_000)
        XCTAssertEqual(cache.stats.evictions, 0)
    }

    func testReadRefreshesRecencyButPeekDoesNot() {
        let cache = CostCache<String, Int>(countLimit: 3)
        cache.insert(1, for: "a", cost: 1)
        cache.insert(2, for: "b", cost: 1)
        cache.insert(3, for: "c", cost: 1)

        XCTAssertEqual(cache.value(for: "a"), 1)
        XCTAssertEqual(cache.keysInRecencyOrder, ["b", "c", "a"])
        cache.insert(4, for: "d", cost: 1)
        XCTAssertEqual(cache.keysInRecencyOrder, ["c", "a", "d"], "b was least recently used")

        XCTAssertEqual(cache.peek("c"), 3)
        cache.insert(5, for: "e", cost: 1)
        XCTAssertEqual(cache.keysInRecencyOrder, ["a", "d", "e"], "peek must not have saved c")
    }

    func testReplacingRefreshesAndUpdatesCost() {
        let cache = CostCache<String, Int>(totalCostLimit: 100)
        cache.insert(1, for: "a", cost: 10)
        cache.insert(2, for: "b", cost: 10)
        cache.insert(3, for: "a", cost: 50)

        XCTAssertEqual(cache.keysInRecencyOrder, ["b", "a"])
        XCTAssertEqual(cache.peek("a"), 3)
        XCTAssertEqual(cache.stats.count, 2)
        XCTAssertEqual(cache.stats.totalCost, 60)
    }

    func testEvictionCallbackGetsVictimsOldestFirst() {
        let log = EvictionLog<String, Int>()
        let cache = CostCache<String, Int>(totalCostLimit: 100, onEvict: { log.append($0, $1) })
        cache.insert(10, for: "a", cost: 10)
        cache.insert(20, for: "b", cost: 20)
        cache.insert(30, for: "c", cost: 30)
        cache.insert(40, for: "d", cost: 40)
        XCTAssertEqual(log.keys, [])

        cache.insert(60, for: "e", cost: 60)  // 160 > 100: a, b, c must go (leaving 100)
        XCTAssertEqual(log.keys, ["a", "b", "c"])
        XCTAssertEqual(log.values, [10, 20, 30])
        XCTAssertEqual(cache.keysInRecencyOrder, ["d", "e"])

        cache.removeValue(for: "d")
        cache.removeAll()
        XCTAssertEqual(log.keys, ["a", "b", "c"], "explicit removals are not evictions")
    }

    func testLoweringLimitsEvictsAtOnce() {
        let log = EvictionLog<String, Int>()
        let cache = CostCache<String, Int>(onEvict: { log.append($0, $1) })
        for (index, key) in ["a", "b", "c", "d"].enumerated() { cache.insert(index, for: key, cost: 10) }

        cache.countLimit = 3
        XCTAssertEqual(log.keys, ["a"])
        cache.totalCostLimit = 15
        XCTAssertEqual(log.keys, ["a", "b", "c"])
        XCTAssertEqual(cache.keysInRecencyOrder, ["d"])
        XCTAssertEqual(cache.countLimit, 3)
        XCTAssertEqual(cache.totalCostLimit, 15)
    }

    func testEvictionCallbackMayReenterTheCache() {
        let cacheHolder = Locked<CostCache<String, Int>?>(nil)
        let seenCounts = Locked<[Int]>([])
        let cache = CostCache<String, Int>(countLimit: 1, onEvict: { _, _ in
            // Would deadlock if the callback ran with the cache's lock held.
            let count = cacheHolder.value?.stats.count ?? -1
            seenCounts.mutate { $0.append(count) }
        })
        cacheHolder.value = cache
        cache.insert(1, for: "a", cost: 1)
        cache.insert(2, for: "b", cost: 1)

        XCTAssertEqual(seenCounts.value, [1])
        cacheHolder.value = nil  // break the cache -> callback -> holder -> cache cycle
    }

    func testOversizeEntryIsRejected() {
        let log = EvictionLog<String, Int>()
        let cache = CostCache<String, Int>(totalCostLimit: 100, onEvict: { log.append($0, $1) })
        cache.insert(1, for: "small", cost: 60)
        cache.insert(2, for: "huge", cost: 101)

        XCTAssertNil(cache.peek("huge"))
        XCTAssertEqual(cache.peek("small"), 1, "a rejected insert must not flush the others")
        XCTAssertEqual(cache.stats.rejections, 1)
        XCTAssertEqual(cache.stats.insertions, 1)
        XCTAssertEqual(log.keys, [])

        cache.insert(3, for: "small", cost: 500)
        XCTAssertNil(cache.peek("small"), "the stale value for a key is dropped when its replacement is rejected")
        XCTAssertEqual(cache.stats.totalCost, 0)
        XCTAssertEqual(cache.stats.rejections, 2)
    }

    func testRemovingMatchingValuesSaysHowManyWent() {
        let cache = CostCache<String, Int>()
        for key in ["a1", "a2", "b1"] { cache.insert(1, for: key, cost: 1) }
        XCTAssertEqual(cache.removeValues { $0.hasPrefix("a") }, 2)
        XCTAssertEqual(cache.removeValues { $0.hasPrefix("a") }, 0)
        XCTAssertEqual(cache.keysInRecencyOrder, ["b1"])
        XCTAssertEqual(cache.stats.evictions, 0, "a removal is not an eviction")
    }

    func testStatsCountEveryKindOfEvent() {
        let cache = CostCache<String, Int>(countLimit: 2, totalCostLimit: 100)
        cache.insert(1, for: "a", cost: 30)
        cache.insert(2, for: "b", cost: 50)
        _ = cache.value(for: "a")  // hit
        _ = cache.value(for: "z")  // miss
        _ = cache.peek("b")  // not counted
        cache.insert(3, for: "c", cost: 40)  // count limit evicts b (a was read)
        cache.insert(4, for: "d", cost: 200)  // rejected
        _ = cache.value(for: "b")  // miss

        XCTAssertEqual(cache.stats, CacheStats(hits: 1, misses: 2, evictions: 1, insertions: 3, rejections: 1,
                                               count: 2, totalCost: 70, peakCost: 80))
    }

    /// Many threads hammer a small cache; afterwards the limits, the list and the totals must agree.
    func testConcurrentMixedOperationsKeepInvariants() {
        let countLimit = 50, costLimit = 1_000, threads = 8, operationsPerThread = 4_000
        // Each value is its own cost, so the resident values must sum to `totalCost`.
        let cache = CostCache<Int, Int>(countLimit: countLimit, totalCostLimit: costLimit)
        let reads = Atomic<Int>(0), inserts = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var seed = UInt64(thread + 1) &* 0x9E37_79B9_7F4A_7C15
            for _ in 0..<operationsPerThread {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let key = Int((seed >> 33) % 200)
                switch (seed >> 20) % 10 {
                case 0..<4:
                    let cost = Int((seed >> 40) % 60) + 1
                    cache.insert(cost, for: key, cost: cost)
                    inserts.add(1, ordering: .relaxed)
                case 4..<8:
                    _ = cache.value(for: key)
                    reads.add(1, ordering: .relaxed)
                case 8:
                    cache.removeValue(for: key)
                default:
                    _ = cache.peek(key)
                }
            }
        }

        let stats = cache.stats
        let keys = cache.keysInRecencyOrder
        XCTAssertLessThanOrEqual(stats.totalCost, costLimit)
        XCTAssertLessThanOrEqual(stats.count, countLimit)
        XCTAssertLessThanOrEqual(stats.peakCost, costLimit)
        XCTAssertEqual(keys.count, stats.count)
        XCTAssertEqual(Set(keys).count, keys.count, "no key listed twice")
        XCTAssertEqual(keys.compactMap { cache.peek($0) }.reduce(0, +), stats.totalCost)
        XCTAssertEqual(stats.hits + stats.misses, reads.load(ordering: .relaxed))
        XCTAssertEqual(stats.insertions + stats.rejections, inserts.load(ordering: .relaxed))
        XCTAssertEqual(stats.rejections, 0)
    }
}

final class CostCacheRankingTests: XCTestCase {
    func testARankingReplacesRecencyAndNilRestoresIt() {
        let evicted = Mutex<[Int]>([])
        let cache = CostCache<Int, Int>(countLimit: 3, onEvict: { key, _ in evicted.withLock { $0.append(key) } })
        cache.setEvictionRanking { key in abs(Double(key) - 10) }  // keep what is near 10
        for key in [10, 2, 11, 9] { cache.insert(key, for: key, cost: 1) }
        XCTAssertEqual(evicted.withLock { $0 }, [2])
        cache.setEvictionRanking(nil)
        _ = cache.value(for: 10)
        cache.insert(30, for: 30, cost: 1)
        XCTAssertEqual(evicted.withLock { $0 }, [2, 11], "least recently used again")
    }
}
