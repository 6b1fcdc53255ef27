import Foundation
import TesseraImaging
import TesseraTiling
import XCTest

final class TileProgressLineTests: XCTestCase {
    func testDrawsAtMostTenTimesASecondButAlwaysTheEnd() {
        var line = TileProgressLine(width: 10)
        XCTAssertNotNil(line.line(for: TileProgress(tilesWritten: 0, totalTiles: 100), now: 0))
        XCTAssertNil(line.line(for: TileProgress(tilesWritten: 5, totalTiles: 100), now: 0.05))
        XCTAssertNotNil(line.line(for: TileProgress(tilesWritten: 10, totalTiles: 100), now: 0.1))
        XCTAssertNotNil(line.line(for: TileProgress(tilesWritten: 100, totalTiles: 100), now: 0.12))
    }

    func testShowsPercentRateAndTimeLeft() {
        let line = TileProgressLine(width: 10)
        XCTAssertEqual(line.text(for: TileProgress(tilesWritten: 450, totalTiles: 1000), elapsed: 3),
                       "[####......]  45%  150 tiles/s  0:04 left")
        XCTAssertEqual(line.text(for: TileProgress(tilesWritten: 1000, totalTiles: 1000), elapsed: 65),
                       "[##########] 100%  15 tiles/s  done in 1:05")
    }
}
