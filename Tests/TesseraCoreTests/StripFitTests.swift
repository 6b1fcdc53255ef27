import XCTest
@testable import TesseraCore

final class StripFitTests: XCTestCase {
    private let spacing = 16.0, inset = 16.0, bar = CarouselConfiguration.nameBarHeight

    private func grid(_ fit: StripFit, _ width: Double, _ height: Double) -> (rows: Int, cellSize: Size) {
        fit.grid(viewportSize: Size(width: width, height: height), spacing: spacing, inset: inset, bottomBar: bar)
    }

    /// The height the rows and their gaps take, against what there is above the name bar.
    private func gridHeight(_ grid: (rows: Int, cellSize: Size)) -> Double {
        Double(grid.rows) * grid.cellSize.height + Double(grid.rows - 1) * spacing
    }

    /// Unfixed, the rows fill the height above the name bar, up to less than a row's height step of slack,
    /// with 4:3 cells in the size range wherever the window allows it.
    func testUnfixedCellsFillTheHeight() {
        let windows: [(width: Double, height: Double)] = [(1280, 720), (1920, 1080), (800, 600), (720, 1280),
                                                          (2560, 1440), (1024, 768), (3840, 2160)]
        for window in windows {
            let fitted = grid(StripFit(), window.width, window.height)
            let room = window.height - bar - 2 * inset
            XCTAssertLessThanOrEqual(gridHeight(fitted), room, "\(window)")
            XCTAssertGreaterThan(gridHeight(fitted), room - Double(fitted.rows) * StripFit.heightStep, "\(window)")
            XCTAssertEqual(fitted.cellSize.width, (fitted.cellSize.height * 4 / 3).rounded(), "\(window): 4:3")
            XCTAssertTrue((StripFit.smallestCellHeight...StripFit.largestCellHeight).contains(fitted.cellSize.height),
                          "\(window): \(fitted.cellSize.height) tall")
            XCTAssertLessThanOrEqual(2 * fitted.cellSize.width + spacing, window.width - 2 * inset,
                                     "\(window): two whole columns show")
        }
    }

    /// What a user sees in common windows: several rows of large pictures, more rows as the window grows
    /// taller, and a tall narrow window a grid of two columns rather than one column and a sliver.
    func testCommonWindows() {
        XCTAssertEqual(grid(StripFit(), 1280, 720).rows, 2)
        XCTAssertEqual(grid(StripFit(), 1280, 720).cellSize, Size(width: 424, height: 318))
        XCTAssertEqual(grid(StripFit(), 1920, 1080).rows, 3)
        XCTAssertEqual(grid(StripFit(), 800, 600).rows, 2)
        XCTAssertEqual(grid(StripFit(), 720, 1280).rows, 5)
    }

    /// A window too small for the size range still gets one row of cells that fill it, and one a cell high
    /// at least.
    func testSmallWindows() {
        let small = grid(StripFit(), 400, 300)
        XCTAssertEqual(small.rows, 1)
        XCTAssertLessThanOrEqual(small.cellSize.height, 300 - bar - 2 * inset)
        XCTAssertLessThanOrEqual(small.cellSize.width, 400 - 2 * inset)
        let tiny = grid(StripFit(), 10, 10)
        XCTAssertEqual(tiny.rows, 1)
        XCTAssertEqual(tiny.cellSize, Size(width: 8, height: 6))
    }

    /// Fixed rows are kept and the cells fill the height with them, no wider than the window.
    func testFixedRowsFillTheHeight() {
        let one = grid(StripFit(rows: 1), 1280, 720)
        XCTAssertEqual(one.rows, 1)
        XCTAssertGreaterThan(gridHeight(one), 720 - bar - 2 * inset - StripFit.heightStep)
        let four = grid(StripFit(rows: 4), 1280, 720)
        XCTAssertEqual(four.rows, 4)
        XCTAssertGreaterThan(gridHeight(four), 720 - bar - 2 * inset - 4 * StripFit.heightStep)
        let narrow = grid(StripFit(rows: 1), 500, 1200)
        XCTAssertLessThanOrEqual(narrow.cellSize.width, 500 - 2 * inset)
    }

    /// A fixed cell size is kept, with as many rows as the height holds.
    func testFixedCellSetsTheRows() {
        let cell = Size(width: 400, height: 300)
        XCTAssertEqual(grid(StripFit(cellSize: cell), 1280, 720).rows, 2, "2 * 300 + 16 fits 720 - 36 - 32")
        XCTAssertEqual(grid(StripFit(cellSize: cell), 1280, 720).cellSize, cell)
        XCTAssertEqual(grid(StripFit(cellSize: cell), 1920, 1080).rows, 3)
        XCTAssertEqual(grid(StripFit(cellSize: cell), 800, 300).rows, 1, "at least one row")
    }

    /// Rows and cell both fixed: the window decides nothing.
    func testFixedRowsAndCellAreKept() {
        let fit = StripFit(rows: 1, cellSize: Size(width: 400, height: 300))
        XCTAssertTrue(fit.isFixed)
        for (width, height) in [(1280.0, 720.0), (800, 600), (3840, 2160)] {
            XCTAssertEqual(grid(fit, width, height).rows, 1)
            XCTAssertEqual(grid(fit, width, height).cellSize, Size(width: 400, height: 300))
        }
    }
}
