import XCTest
@testable import TesseraCore
@testable import TesseraTiling

/// Which tiles the tiled view asks for: visible ones first, then a margin and the way the view moves.
final class TileRequestPolicyTests: XCTestCase {
    // 4096 x 4096, 256 px tiles: level 12 is 16 x 16 tiles.
    private let geometry = DeepZoomGeometry(width: 4096, height: 4096, tileSize: 256)
    private let visible = PixelRegion(x: 1024, y: 1024, width: 1024, height: 768)

    private func plan(held: Set<TileID> = []) -> TileDrawPlan {
        TileDrawPlanner(geometry: geometry).plan(level: 12, visible: visible, hasBackdrop: true) {
            held.contains($0) ? .opaque : .absent
        }
    }

    private func columns(_ tiles: [TileID]) -> Set<Int> { Set(tiles.map(\.column)) }

    /// Where the overview stands for the level, nothing of it is asked for, ahead or on screen; the base
    /// level still is kept.
    func testNothingIsPreloadedAtALevelTheOverviewStandsFor() {
        let plan = TileDrawPlanner(geometry: geometry).plan(level: 12, visible: visible, hasBackdrop: true,
                                                            backdropIsSharp: true) { _ in .absent }
        XCTAssertTrue(plan.overviewStandsIn)
        let base = [TileID(level: 0, column: 0, row: 0)]
        let result = TileRequestPolicy(lookahead: .milliseconds(500), marginScreens: 0.5)
            .requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 2000, y: 0), baseTiles: base,
                      isHeld: { _ in false }, hasFailed: { _ in false })
        XCTAssertEqual(result.requests, [])
        XCTAssertEqual(result.keep, Set(base))
    }

    func testVisibleTilesFirstThenAMarginNearestFirst() {
        let plan = plan()
        let result = TileRequestPolicy(lookahead: .zero, marginScreens: 0.5)
            .requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 0, y: 0), baseTiles: [],
                      isHeld: { _ in false }, hasFailed: { _ in false })
        let visibleCount = plan.visibleTiles.count
        XCTAssertEqual(visibleCount, 12)
        XCTAssertEqual(result.requests.prefix(visibleCount).map(\.tile), plan.wanted)
        XCTAssertEqual(result.requests.prefix(visibleCount).map(\.priority), Array(1...visibleCount))
        let margin = result.requests.dropFirst(visibleCount)
        XCTAssertTrue(margin.allSatisfy { $0.priority >= TileRequestPolicy.preloadPriority })
        XCTAssertTrue(margin.allSatisfy { !plan.visibleTiles.contains($0.tile) })
        // Half a screen each way: two columns (512 px) left and right, one and a half rows up and down.
        XCTAssertEqual(columns(margin.map(\.tile)), Set(2...9))
        XCTAssertEqual(Set(margin.map(\.tile.row)), Set(2...8))
        // Nearest first: the first margin tiles touch the visible ones.
        let first = margin.first!.tile
        XCTAssertTrue((3...8).contains(first.column) && (3...7).contains(first.row), "\(first)")
        XCTAssertEqual(result.keep, Set(result.requests.map(\.tile)))
    }

    func testAMovingViewLoadsWhereItIsHeading() {
        let plan = plan()
        let policy = TileRequestPolicy(lookahead: .milliseconds(500), marginScreens: 0)
        let still = policy.requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 0, y: 0), baseTiles: [],
                                    isHeld: { _ in false }, hasFailed: { _ in false })
        let right = policy.requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 2048, y: 0), baseTiles: [],
                                    isHeld: { _ in false }, hasFailed: { _ in false })
        let fast = policy.requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 100_000, y: 0), baseTiles: [],
                                   isHeld: { _ in false }, hasFailed: { _ in false })
        func ahead(_ r: TileRequestPolicy.Requests) -> Set<Int> { columns(r.requests.dropFirst(plan.visibleTiles.count).map(\.tile)) }
        // With no margin asked for, one tile all round still is.
        XCTAssertEqual(ahead(still), Set(3...8))
        // 2048 px/s for half a second: 1024 px (four columns) further right.
        XCTAssertEqual(ahead(right), Set(3...12))
        // At most one and a half screens ahead.
        XCTAssertEqual(ahead(fast), Set(3...14))
    }

    func testHeldAndFailedTilesAreNotAskedForAndTheBaseLevelIsKeptUntilHeld() {
        let visibleTile = TileID(level: 12, column: 4, row: 4)
        let marginTile = TileID(level: 12, column: 3, row: 3)
        let broken = TileID(level: 12, column: 8, row: 7)
        let base = [TileID(level: 4, column: 0, row: 0), TileID(level: 4, column: 1, row: 0)]
        let plan = plan(held: [visibleTile])
        let result = TileRequestPolicy().requests(for: plan, in: geometry, visible: visible, velocity: Point(x: 0, y: 0),
                                                  baseTiles: base, isHeld: { $0 == visibleTile || $0 == marginTile || $0 == base[0] },
                                                  hasFailed: { $0 == broken })
        let asked = result.requests.map(\.tile)
        XCTAssertFalse(asked.contains(visibleTile))
        XCTAssertFalse(asked.contains(marginTile))
        XCTAssertFalse(asked.contains(broken))
        XCTAssertFalse(asked.contains(base[1]), "the base level is asked for when the pyramid opens")
        XCTAssertTrue(result.keep.contains(base[1]), "and never dropped until held")
        XCTAssertFalse(result.keep.contains(base[0]))
    }
}
