import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class TileStoreTests: XCTestCase {
    private let tileCost = 256 * 256 * 4

    func testEvictionTakesLeastRecentlyDrawnAndKeepsCoarseLevels() {
        // Levels 0...3 pinned, a budget of four fine tiles.
        let store = TileStore<String>(costLimitBytes: 4 * tileCost, isPinned: { $0 <= 3 })
        for level in 0...3 { store.insert("coarse\(level)", for: TileID(level: level, column: 0, row: 0), cost: tileCost, fadeStart: .zero) }
        let fine = (0..<4).map { TileID(level: 8, column: $0, row: 0) }
        for tile in fine { XCTAssertTrue(store.insert("\(tile)", for: tile, cost: tileCost, fadeStart: .zero).isEmpty) }
        store.touch(fine[0])  // drawn again: now the most recent
        let dropped = store.insert("new", for: TileID(level: 8, column: 9, row: 0), cost: tileCost, fadeStart: .zero)
        XCTAssertEqual(dropped, ["\(fine[1])"], "least recently drawn goes first")
        XCTAssertTrue(store.contains(fine[0]))
        XCTAssertEqual(store.evictionCount, 1)
        // Flood the cache: the pinned levels stay.
        for column in 20..<60 { store.insert("x", for: TileID(level: 9, column: column, row: 0), cost: tileCost, fadeStart: .zero) }
        for level in 0...3 { XCTAssertTrue(store.contains(TileID(level: level, column: 0, row: 0)), "level \(level) evicted") }
        XCTAssertEqual(store.totalCost, 8 * tileCost, "4 pinned + 4 within the budget")
        XCTAssertEqual(store.pinnedCost, 4 * tileCost)
    }

    func testTileBiggerThanTheBudgetIsRefused() {
        let store = TileStore<Int>(costLimitBytes: 100, isPinned: { _ in false })
        XCTAssertEqual(store.insert(7, for: TileID(level: 5, column: 0, row: 0), cost: 200, fadeStart: .zero), [7])
        XCTAssertEqual(store.count, 0)
    }

    func testReplacingATileHandsBackTheOldValue() {
        let store = TileStore<Int>(costLimitBytes: 1000, isPinned: { $0 == 0 })
        let tile = TileID(level: 0, column: 0, row: 0)
        store.insert(1, for: tile, cost: 10, fadeStart: .zero)
        XCTAssertEqual(store.insert(2, for: tile, cost: 10, fadeStart: .zero), [1])
        XCTAssertEqual(store.entry(for: tile)?.value, 2)
        XCTAssertEqual(store.pinnedCost, 10)
    }
}
