import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class DeepZoomGeometryTests: XCTestCase {
    func testLevelsForAwkwardSizes() {
        XCTAssertEqual(DeepZoomGeometry(width: 1, height: 1).maxLevel, 0)
        XCTAssertEqual(DeepZoomGeometry(width: 255, height: 255).maxLevel, 8)
        XCTAssertEqual(DeepZoomGeometry(width: 256, height: 256).maxLevel, 8)
        XCTAssertEqual(DeepZoomGeometry(width: 257, height: 257).maxLevel, 9)
        XCTAssertEqual(DeepZoomGeometry(width: 1, height: 100_000).maxLevel, 17)
        XCTAssertEqual(DeepZoomGeometry(width: 4097, height: 3).maxLevel, 13)
        XCTAssertEqual(DeepZoomGeometry(width: 20480, height: 11520).maxLevel, 15)
    }

    func testEachLevelIsTheOneAboveHalvedRoundedUp() {
        for (w, h) in [(1, 1), (1, 100_000), (255, 255), (256, 256), (257, 257), (4097, 3), (20480, 11520), (1000, 333)] {
            let g = DeepZoomGeometry(width: w, height: h)
            XCTAssertEqual(g.levelSize(g.maxLevel), PixelSize(width: w, height: h))
            XCTAssertEqual(g.levelSize(0), PixelSize(width: 1, height: 1))
            for level in stride(from: g.maxLevel, to: 0, by: -1) {
                let above = g.levelSize(level)
                XCTAssertEqual(g.levelSize(level - 1), PixelSize(width: (above.width + 1) / 2, height: (above.height + 1) / 2),
                               "\(w)x\(h) level \(level - 1)")
            }
        }
    }

    func testEdgeTilesAreCroppedAndContentCoversTheLevelOnce() {
        let g = DeepZoomGeometry(width: 4097, height: 3)
        XCTAssertEqual(g.columns(13), 17)
        XCTAssertEqual(g.rows(13), 1)
        XCTAssertEqual(g.region(of: TileID(level: 13, column: 16, row: 0)), PixelRegion(x: 4096, y: 0, width: 1, height: 3))
        let g257 = DeepZoomGeometry(width: 257, height: 257)
        var covered = 0
        for row in 0..<g257.rows(9) {
            for column in 0..<g257.columns(9) { covered += g257.contentRegion(of: TileID(level: 9, column: column, row: row)).width
                * g257.contentRegion(of: TileID(level: 9, column: column, row: row)).height }
        }
        XCTAssertEqual(covered, 257 * 257)
    }

    func testOverlapAddsOnInnerEdgesOnly() {
        let g = DeepZoomGeometry(width: 1000, height: 600, tileSize: 256, overlap: 1)
        let level = g.maxLevel
        XCTAssertEqual(g.region(of: TileID(level: level, column: 0, row: 0)), PixelRegion(x: 0, y: 0, width: 257, height: 257))
        XCTAssertEqual(g.region(of: TileID(level: level, column: 1, row: 1)), PixelRegion(x: 255, y: 255, width: 258, height: 258))
        // Last column: starts one pixel early, clipped at the right edge.
        XCTAssertEqual(g.region(of: TileID(level: level, column: 3, row: 2)), PixelRegion(x: 767, y: 511, width: 233, height: 89))
        let g1 = DeepZoomGeometry(width: 1, height: 1, overlap: 2)
        XCTAssertEqual(g1.region(of: TileID(level: 0, column: 0, row: 0)), PixelRegion(x: 0, y: 0, width: 1, height: 1))
    }

    func testTilesIntersectingARegion() {
        let g = DeepZoomGeometry(width: 1000, height: 600)
        let tiles = g.tiles(in: g.maxLevel, intersecting: PixelRegion(x: 250, y: 10, width: 10, height: 300))
        XCTAssertEqual(tiles, [TileID(level: 10, column: 0, row: 0), TileID(level: 10, column: 1, row: 0),
                               TileID(level: 10, column: 0, row: 1), TileID(level: 10, column: 1, row: 1)])
        XCTAssertEqual(g.tiles(in: g.maxLevel, intersecting: PixelRegion(x: 2000, y: 0, width: 10, height: 10)), [])
    }

    func testLevelForScaleFollowsTheDisplayedPixelDensity() {
        let g = DeepZoomGeometry(width: 20480, height: 11520)
        XCTAssertEqual(g.level(forScale: 1), 15)
        XCTAssertEqual(g.level(forScale: 4), 15)  // magnified: the finest level, drawn bigger
        XCTAssertEqual(g.level(forScale: 0.5), 14)
        XCTAssertEqual(g.level(forScale: 0.51), 15)  // level 14 would be soft: 0.5 < 0.51
        XCTAssertEqual(g.level(forScale: 0.49), 14)
        XCTAssertEqual(g.level(forScale: 1280.0 / 20480), 11)
        XCTAssertEqual(g.level(forScale: 1e-9), 0)
    }
}
