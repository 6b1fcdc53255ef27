import XCTest
@testable import TesseraCore

/// The strip as the command line makes it when neither `--rows` nor `--cell` is given: the grid follows the
/// window.
final class CarouselResizeTests: XCTestCase {
    private func fittedModel(count: Int, scheduler: WorkScheduler<ImageKey, PixelBuffer>,
                             loader: @escaping Fixture.Loader = Fixture.loader()) -> CarouselModel {
        var configuration = CarouselConfiguration()
        configuration.rows = nil
        configuration.cellSize = nil
        return CarouselModel(items: Fixture.items(count), configuration: configuration,
                             pipeline: .fixture(scheduler, loader: loader), viewportWidth: 1280, viewportHeight: 720)
    }

    private func assertSelectionWhollyInView(_ model: CarouselModel, file: StaticString = #filePath, line: UInt = #line) {
        let frame = model.layout.frame(of: model.selectedIndex)
        let viewport = model.layout.viewportSize
        XCTAssertGreaterThanOrEqual(frame.minX - model.scroll.offset, 0, "selection's left edge", file: file, line: line)
        XCTAssertLessThanOrEqual(frame.maxX - model.scroll.offset, viewport.width, "selection's right edge", file: file, line: line)
        XCTAssertLessThanOrEqual(frame.maxY, viewport.height - model.configuration.bottomBar, "above the bar", file: file, line: line)
    }

    func testTheGridFollowsTheWindowAndTheSelectionStaysInView() {
        let model = fittedModel(count: 300, scheduler: .inline())
        XCTAssertEqual(model.layout.rows, 2)
        XCTAssertEqual(model.layout.cellSize, Size(width: 424, height: 318))
        model.select(81, time: .zero, animated: false)
        model.update(now: .zero)
        assertSelectionWhollyInView(model)
        let before = model.layout.frame(of: 81).x - model.scroll.offset
        model.resize(viewportWidth: 1920, viewportHeight: 1080, pixelScale: 1)
        XCTAssertEqual(model.layout.rows, 3)
        XCTAssertEqual(model.layout.frame(of: 81).x - model.scroll.offset, before, accuracy: 0.5,
                       "where the window has room, the selection keeps its place on screen")
        var time = Duration.zero
        for (width, height) in [(800.0, 600.0), (720, 1280), (1280, 720), (3000, 400), (400, 300)] {
            time += .milliseconds(16)
            model.resize(viewportWidth: width, viewportHeight: height, pixelScale: 1)
            model.update(now: time)
            XCTAssertEqual(model.selectedIndex, 81)
            assertSelectionWhollyInView(model)
            XCTAssertTrue(model.visibleCells.contains { $0.index == 81 }, "\(width)x\(height)")
        }
    }

    /// Larger cells ask for thumbnails decoded at their size; until they come, a cell keeps its old image,
    /// drawn at the size of the new cell, rather than going back to the placeholder.
    func testLargerCellsDecodeAgainAndKeepTheirImageMeanwhile() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let model = fittedModel(count: 40, scheduler: scheduler) { key in
            var pixels = PixelBuffer(width: key.size.width, height: key.size.height,
                                     filledWith: Fixture.colour(for: Fixture.index(of: key.path)))
            pixels.sourceSize = PixelSize(width: 4000, height: 3000)
            return pixels
        }
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .milliseconds(16))
        let small = model.cellPixelSize
        let cell = try! XCTUnwrap(model.visibleCells.first)
        guard case .image(let before) = cell.content else { return XCTFail("no image before the resize") }
        XCTAssertEqual(before.size, small)

        model.resize(viewportWidth: 1920, viewportHeight: 1080, pixelScale: 1)
        let large = model.cellPixelSize
        XCTAssertGreaterThan(large.height, small.height)
        XCTAssertEqual(model.key(for: cell.index!).size, large)
        XCTAssertTrue(cell.hasImage, "the old image stays")
        XCTAssertEqual(model.displaySize(of: cell), large, "drawn at the new cell's size")

        model.update(now: .milliseconds(32))
        scheduler.runPending()
        model.update(now: .milliseconds(48))
        guard case .image(let after) = cell.content else { return XCTFail("no image after the resize") }
        XCTAssertEqual(after.size, large, "decoded again at the larger size")
        XCTAssertEqual(model.displaySize(of: cell), large)
        XCTAssertFalse(cell.isForOtherCellSize)
    }

    /// A fixed grid (both `--rows` and `--cell`) does not change with the window; a narrower window still
    /// keeps the selection in view.
    func testAFixedGridStaysAsGivenAndKeepsTheSelectionInView() {
        let model = CarouselModel(items: Fixture.items(50), configuration: CarouselConfiguration(),
                                  pipeline: .fixture(.inline(), loader: Fixture.loader()),
                                  viewportWidth: 1920, viewportHeight: 1080)
        model.select(3, time: .zero, animated: false)
        model.update(now: .zero)
        XCTAssertEqual(model.scroll.offset, 0, "the fourth cell shows in a 1920-point window")
        model.resize(viewportWidth: 800, viewportHeight: 600, pixelScale: 1)
        XCTAssertEqual(model.layout.rows, 1)
        XCTAssertEqual(model.layout.cellSize, Size(width: 400, height: 300))
        assertSelectionWhollyInView(model)
    }
}
