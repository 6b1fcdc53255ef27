import XCTest
@testable import TesseraCore

final class PixelRegionTests: XCTestCase {
    private let window = PixelRegion(x: 0, y: 0, width: 1280, height: 720)

    func testNothingCoveringLeavesTheWholeRegionAndFullCoverLeavesNothing() {
        XCTAssertEqual(window.subtracting([]), [window])
        XCTAssertEqual(window.subtracting([PixelRegion(x: 2000, y: 0, width: 10, height: 10)]), [window])
        XCTAssertEqual(window.subtracting([PixelRegion(x: -10, y: -10, width: 2000, height: 2000)]), [])
        XCTAssertEqual(PixelRegion(x: 5, y: 5, width: 0, height: 10).subtracting([]), [])
    }

    func testARowOfCellsLeavesOneBandAboveOneBelowAndOneRectanglePerGap() {
        // Three cells across the middle, the last one running off the right edge.
        let cells = [PixelRegion(x: 40, y: 100, width: 400, height: 500),
                     PixelRegion(x: 460, y: 100, width: 400, height: 500),
                     PixelRegion(x: 880, y: 100, width: 400, height: 500)]
        let gaps = Set(window.subtracting(cells))
        XCTAssertEqual(gaps, [PixelRegion(x: 0, y: 0, width: 1280, height: 100),
                              PixelRegion(x: 0, y: 100, width: 40, height: 500),
                              PixelRegion(x: 440, y: 100, width: 20, height: 500),
                              PixelRegion(x: 860, y: 100, width: 20, height: 500),
                              PixelRegion(x: 0, y: 600, width: 1280, height: 120)])
    }

    func testARegionContainsWhatLiesWhollyInsideIt() {
        let picture = PixelRegion(x: 100, y: 150, width: 300, height: 200)
        XCTAssertTrue(picture.contains(PixelRegion(x: 202, y: 202, width: 96, height: 96)))
        XCTAssertTrue(picture.contains(picture))
        XCTAssertFalse(picture.contains(PixelRegion(x: 202, y: 100, width: 96, height: 96)), "sticks out at the top")
        XCTAssertFalse(picture.contains(PixelRegion(x: 350, y: 202, width: 96, height: 96)), "sticks out at the right")
        XCTAssertTrue(picture.contains(PixelRegion(x: 0, y: 0, width: 0, height: 0)))
    }

    func testAPictureInsideACellLeavesItsLetterboxBands() {
        let cell = PixelRegion(x: 100, y: 50, width: 300, height: 400)
        let picture = PixelRegion(x: 100, y: 150, width: 300, height: 200)
        XCTAssertEqual(Set(cell.subtracting([picture])), [PixelRegion(x: 100, y: 50, width: 300, height: 100),
                                                          PixelRegion(x: 100, y: 350, width: 300, height: 100)])
    }

    /// Every pixel of the region is in exactly one result rectangle or in a cover, never both.
    func testTheGapsAndTheCoversTileTheRegionExactlyForOverlappingCovers() {
        var generator = SystemRandomNumberGenerator()
        let region = PixelRegion(x: 3, y: 2, width: 37, height: 29)
        for _ in 0..<200 {
            let covers = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                PixelRegion(x: Int.random(in: -5...42, using: &generator), y: Int.random(in: -5...33, using: &generator),
                            width: Int.random(in: 0...20, using: &generator), height: Int.random(in: 0...20, using: &generator))
            }
            let gaps = region.subtracting(covers)
            for y in region.y..<region.maxY {
                for x in region.x..<region.maxX {
                    let inGaps = gaps.filter { $0.contains(x: x, y: y) }.count
                    let covered = covers.contains { $0.contains(x: x, y: y) }
                    XCTAssertEqual(inGaps, covered ? 0 : 1, "pixel (\(x),\(y)) with covers \(covers)")
                }
            }
            XCTAssertTrue(gaps.allSatisfy { !$0.isEmpty && region.intersection($0) == $0 })
        }
    }
}

private extension PixelRegion {
    func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
}
