import XCTest
@testable import TesseraCore

final class StripLayoutTests: XCTestCase {
    /// 10 items in 2 rows of 100x80 cells, 16 pt spacing and inset, in a 400x300 viewport:
    /// columns at x = 16, 132, 248, 364, 480; rows at y = 62, 158 (grid 176 high, centred in 300).
    private let grid = StripLayout(itemCount: 10, rows: 2, cellSize: Size(width: 100, height: 80),
                                   viewportSize: Size(width: 400, height: 300))

    func testSizes() {
        XCTAssertEqual(grid.columnCount, 5)
        XCTAssertEqual(grid.columnWidth, 116)
        XCTAssertEqual(grid.contentWidth, 596, "16 + 5 * 100 + 4 * 16 + 16")
        XCTAssertEqual(grid.maxOffset, 196)
        XCTAssertEqual(grid.gridHeight, 176)
        XCTAssertEqual(grid.gridTop, 62)
        XCTAssertEqual(grid.columnsPerPage, 3)
        XCTAssertEqual(grid.pageWidth, 348)

        let partial = StripLayout(itemCount: 7, rows: 3, cellSize: Size(width: 50, height: 50),
                                  viewportSize: Size(width: 300, height: 300))
        XCTAssertEqual(partial.columnCount, 3)
        let empty = StripLayout(itemCount: 0, cellSize: Size(width: 50, height: 50),
                                viewportSize: Size(width: 300, height: 300))
        XCTAssertEqual(empty.columnCount, 0)
        XCTAssertEqual(empty.contentWidth, 32)
        XCTAssertEqual(empty.visibleRange(offset: 0), 0..<0)
    }

    func testColumnMajorFrames() {
        XCTAssertEqual(grid.frame(of: 0), Rect(x: 16, y: 62, width: 100, height: 80))
        XCTAssertEqual(grid.frame(of: 1), Rect(x: 16, y: 158, width: 100, height: 80))
        XCTAssertEqual(grid.frame(of: 2), Rect(x: 132, y: 62, width: 100, height: 80))
        XCTAssertEqual(grid.frame(of: 9), Rect(x: 480, y: 158, width: 100, height: 80))
        XCTAssertEqual(grid.frame(of: 9).maxX + grid.inset, grid.contentWidth)
        XCTAssertEqual(grid.column(of: 7), 3)
        XCTAssertEqual(grid.row(of: 7), 1)
    }

    /// The strip makes this many columns' cell textures before the first frame: scrolling anywhere must
    /// never show more, and some offset must show that many.
    func testMaximumVisibleColumnsIsTheMostAnyOffsetShows() {
        for (width, items) in [(400.0, 10), (364.0, 30), (1280.0, 120), (90.0, 30), (400.0, 2)] {
            let layout = StripLayout(itemCount: items, rows: 2, cellSize: Size(width: 100, height: 80),
                                     viewportSize: Size(width: width, height: 300))
            var most = 0
            for step in 0...Int(layout.maxOffset * 4) {
                let visible = layout.visibleRange(offset: Double(step) / 4)
                guard !visible.isEmpty else { continue }
                most = max(most, layout.column(of: visible.upperBound - 1) - layout.column(of: visible.lowerBound) + 1)
            }
            XCTAssertEqual(layout.maximumVisibleColumns, most, "viewport \(width) pt, \(items) items")
        }
    }

    func testTallGridPinsToTop() {
        let tall = StripLayout(itemCount: 6, rows: 3, cellSize: Size(width: 100, height: 200),
                               viewportSize: Size(width: 400, height: 300))
        XCTAssertEqual(tall.gridTop, 0)
        XCTAssertEqual(tall.frame(of: 1).y, 216)
    }

    func testVisibleRangeAtStartMiddleAndEnd() {
        // Start: columns 0-2 whole, column 3 (364..464) partly.
        XCTAssertEqual(grid.visibleRange(offset: 0), 0..<8)
        // Column 0 partly (ends at 116 > 100) and column 4 partly (starts at 480 < 500).
        XCTAssertEqual(grid.visibleRange(offset: 100), 0..<10)
        // Column 0's trailing edge exactly at the viewport's leading edge: touching is not visible.
        XCTAssertEqual(grid.visibleRange(offset: 116), 2..<10)
        // Middle: column 3 ends at 464 < 480 + ..., viewport 250..650 clipped by content.
        XCTAssertEqual(grid.visibleRange(offset: 150), 2..<10)
        // End.
        XCTAssertEqual(grid.visibleRange(offset: grid.maxOffset), 2..<10)

        // A single row, longer strip: middle range is exact.
        let strip = StripLayout(itemCount: 100, cellSize: Size(width: 100, height: 100),
                                viewportSize: Size(width: 500, height: 200))
        // Viewport 1000..1500: item 8 spans 944..1044, item 12 spans 1408..1508.
        XCTAssertEqual(strip.visibleRange(offset: 1000), 8..<13)
        XCTAssertEqual(strip.visibleRange(offset: strip.maxOffset), 95..<100)

        // A last column that is only partly filled ends the range at itemCount.
        let partial = StripLayout(itemCount: 7, rows: 3, cellSize: Size(width: 50, height: 50),
                                  viewportSize: Size(width: 300, height: 300))
        XCTAssertEqual(partial.visibleRange(offset: 0), 0..<7)
    }

    func testVisibleRangeInGapIsEmptyAtNextItem() {
        let narrow = StripLayout(itemCount: 10, rows: 2, cellSize: Size(width: 100, height: 80),
                                 viewportSize: Size(width: 10, height: 300))
        // 117..127 lies in the gap between column 0 (ends 116) and column 1 (starts 132).
        XCTAssertEqual(narrow.visibleRange(offset: 117), 2..<2)
    }

    func testWholeColumnsAreThoseInsideTheViewport() {
        // Columns at x = 16, 132, 248, 364, 480, each 100 wide, in a 400-wide viewport.
        XCTAssertEqual(grid.wholeColumns(offset: 0), 0...2, "column 3 ends at 464, past 400")
        XCTAssertEqual(grid.wholeColumns(offset: 20), 1...2, "column 0 starts before 20, column 3 ends past 420")
        XCTAssertEqual(grid.wholeColumns(offset: 64), 1...3, "column 3 ends on the edge at 464")
        XCTAssertEqual(grid.wholeColumns(offset: 16), 0...2, "a column starting on the edge is inside")
        XCTAssertEqual(grid.wholeColumns(offset: 196), 2...4)
        let narrow = StripLayout(itemCount: 10, cellSize: Size(width: 100, height: 80), viewportSize: Size(width: 90, height: 300))
        XCTAssertNil(narrow.wholeColumns(offset: 0), "no column fits")
        let empty = StripLayout(itemCount: 0, cellSize: Size(width: 50, height: 50), viewportSize: Size(width: 300, height: 300))
        XCTAssertNil(empty.wholeColumns(offset: 0))
    }

    func testHitTesting() {
        XCTAssertEqual(grid.index(at: Point(x: 20, y: 70), offset: 0), 0)
        XCTAssertEqual(grid.index(at: Point(x: 20, y: 160), offset: 0), 1)
        XCTAssertNil(grid.index(at: Point(x: 20, y: 150), offset: 0), "gap between rows")
        XCTAssertNil(grid.index(at: Point(x: 120, y: 70), offset: 0), "gap between columns")
        XCTAssertNil(grid.index(at: Point(x: 5, y: 70), offset: 0), "inset")
        XCTAssertNil(grid.index(at: Point(x: 20, y: 20), offset: 0), "above the grid")
        XCTAssertEqual(grid.index(at: Point(x: 20, y: 70), offset: 116), 2, "scrolled by one column")
        XCTAssertEqual(grid.index(at: Point(x: 300, y: 200), offset: 196), 9)
        XCTAssertNil(grid.index(at: Point(x: 390, y: 70), offset: 196), "trailing inset")
        XCTAssertNil(grid.index(at: Point(x: 401, y: 70), offset: 0), "outside the viewport")
        XCTAssertNil(grid.index(at: Point(x: -1, y: 70), offset: 100), "outside the viewport")

        let nine = StripLayout(itemCount: 9, rows: 2, cellSize: Size(width: 100, height: 80),
                               viewportSize: Size(width: 400, height: 300))
        XCTAssertEqual(nine.index(at: Point(x: 300, y: 70), offset: 196), 8)
        XCTAssertNil(nine.index(at: Point(x: 300, y: 200), offset: 196), "empty slot of the last column")
    }

    func testOffsetToShow() {
        // Already fully visible (with margins): unchanged.
        XCTAssertEqual(grid.offsetToShow(index: 2, offset: 0), 0)
        XCTAssertEqual(grid.offsetToShow(index: 4, offset: 30), 30)
        // Column 3 (364..464) plus a 16 pt margin must end at the viewport's trailing edge.
        XCTAssertEqual(grid.offsetToShow(index: 6, offset: 0), 480 - 400)
        XCTAssertEqual(grid.offsetToShow(index: 7, offset: 0), 80, "same column, same offset")
        // Scrolling back to the first item reveals the leading inset.
        XCTAssertEqual(grid.offsetToShow(index: 0, offset: 150), 0)
        // Column 1 (132..232) when scrolled past it: minimal move aligns its margin with the leading edge.
        XCTAssertEqual(grid.offsetToShow(index: 3, offset: 150), 116)
        // Last item: clamped to the end.
        XCTAssertEqual(grid.offsetToShow(index: 9, offset: 0), grid.maxOffset)

        // The result always shows the whole cell.
        for index in 0..<10 {
            for start in stride(from: 0.0, through: grid.maxOffset, by: 7) {
                let offset = grid.offsetToShow(index: index, offset: start)
                let frame = grid.frame(of: index)
                XCTAssertGreaterThanOrEqual(frame.minX, offset)
                XCTAssertLessThanOrEqual(frame.maxX, offset + grid.viewportSize.width)
            }
        }
    }

    func testOffsetCentering() {
        XCTAssertEqual(grid.offsetCentering(index: 4), 298 - 200)
        XCTAssertEqual(grid.offsetCentering(index: 0), 0, "clamped at the start")
        XCTAssertEqual(grid.offsetCentering(index: 9), grid.maxOffset, "clamped at the end")
    }
}

final class RectTests: XCTestCase {
    func testEdgesAndMidpoints() {
        let r = Rect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(r.maxX, 40)
        XCTAssertEqual(r.maxY, 60)
        XCTAssertEqual(r.midX, 25)
        XCTAssertEqual(r.midY, 40)
        XCTAssertFalse(r.isEmpty)
        XCTAssertTrue(Rect(x: 0, y: 0, width: 0, height: 5).isEmpty)
    }

    func testIntersectsNeedsOverlapNotJustTouch() {
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(r.intersects(Rect(x: 9, y: 9, width: 5, height: 5)))
        XCTAssertFalse(r.intersects(Rect(x: 10, y: 0, width: 5, height: 5)), "shared edge")
        XCTAssertFalse(r.intersects(Rect(x: 0, y: 20, width: 5, height: 5)))
        XCTAssertFalse(r.intersects(Rect(x: 2, y: 2, width: 0, height: 0)), "empty")
        XCTAssertTrue(r.intersects(Rect(x: -5, y: -5, width: 30, height: 30)), "contains it")
    }

    func testContainsIsHalfOpen() {
        let r = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(r.contains(Point(x: 0, y: 0)))
        XCTAssertTrue(r.contains(Point(x: 9.99, y: 5)))
        XCTAssertFalse(r.contains(Point(x: 10, y: 5)))
        XCTAssertFalse(r.contains(Point(x: 5, y: -0.01)))
        XCTAssertTrue(r.contains(Rect(x: 0, y: 0, width: 10, height: 10)))
        XCTAssertFalse(r.contains(Rect(x: 1, y: 1, width: 10, height: 1)))
    }

    func testInsetBy() {
        let r = Rect(x: 0, y: 0, width: 100, height: 50)
        XCTAssertEqual(r.insetBy(dx: 10, dy: 5), Rect(x: 10, y: 5, width: 80, height: 40))
        XCTAssertEqual(r.insetBy(dx: -10, dy: 0), Rect(x: -10, y: 0, width: 120, height: 50))
        XCTAssertEqual(r.insetBy(dx: 60, dy: 0), Rect(x: 50, y: 0, width: 0, height: 50))
        XCTAssertEqual(r.offsetBy(dx: 3, dy: -2), Rect(x: 3, y: -2, width: 100, height: 50))
    }
}
