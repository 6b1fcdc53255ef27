import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraFiles
@testable import TesseraSDL
@testable import TesseraUI

/// Rating keys write XMP sidecars beside the images (marked, else selected; in compare, the focused
/// pane's), ctrl+z undoes; cells show stars; `F` steps the filter and `o` reaches the rating order.
final class RatingTests: XCTestCase {
    private var files: ViewerFixtures!
    private let store = RatingStore()

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private func images(_ count: Int) throws -> [String] {
        try (0..<count).map { try files.png("img\($0).png", RGBA(r: UInt8(40 * $0 + 20), g: 90, b: 140)) }
    }

    private func stored(_ path: String) -> Rating { store.rating(of: path).rating }

    func testCtrl3WritesASidecarTheCellShowsItsStarsAndCtrlZTakesItBack() throws {
        let paths = try images(3)
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("ctrl+3")
        let frame = try viewer.settle()
        XCTAssertEqual(stored(paths[0]), .stars(3))
        XCTAssertTrue(FileManager.default.fileExists(atPath: paths[0] + ".xmp"), "NAME.EXT.xmp, as darktable names it")
        XCTAssertEqual(stored(paths[1]), .unrated, "only the selected image")
        XCTAssertEqual(viewer.model.rating(of: 0), 3)
        XCTAssertTrue(viewer.overlay.tags.contains("★★★"), "\(viewer.overlay.tags)")
        func starShare(_ index: Int) throws -> Double {
            let cell = try XCTUnwrap(viewer.cellRect(index))
            let corner = PixelRect(x: cell.x, y: cell.maxY - cell.height / 6, width: cell.width / 3, height: cell.height / 6)
            return frame.share(of: RGBA(r: 255, g: 196, b: 40), in: corner, tolerance: 40)
        }
        XCTAssertGreaterThan(try starShare(0), 0.005, "the stars in the rated cell's corner")
        XCTAssertEqual(try starShare(1), 0, "none on an unrated one")

        viewer.press("ctrl+z")
        try viewer.settle()
        XCTAssertEqual(stored(paths[0]), .unrated)
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths[0] + ".xmp"), "the sidecar Tessera made is gone")
        XCTAssertEqual(viewer.model.rating(of: 0), 0)
    }

    func testTheMarkedImagesAreRejectedTogetherAndTheFilterHidesThem() throws {
        let paths = try images(4)
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("n"); viewer.press("n")
        viewer.press("m")
        viewer.press("ctrl+r")
        try viewer.settle()
        XCTAssertEqual(paths.map(stored), [.rejected, .unrated, .rejected, .unrated])
        viewer.press("u")
        viewer.press("ctrl+5")  // the selected one, img2
        try viewer.settle()
        XCTAssertEqual(stored(paths[2]), .stars(5))

        func shown() -> [String] { (0..<viewer.model.items.count).map { viewer.model.items.path(at: $0) } }
        viewer.press("F")
        try viewer.settle()
        XCTAssertEqual(shown(), [paths[1], paths[2], paths[3]], "rejected hidden, the order kept")
        XCTAssertTrue(viewer.overlay.tags.contains("rejected hidden"), "\(viewer.overlay.tags)")
        viewer.press("F")
        try viewer.settle()
        XCTAssertEqual(shown(), [paths[2]], "1+ stars")
        for _ in 0..<5 { viewer.press("F") }
        try viewer.settle()
        XCTAssertEqual(shown(), paths, "round to all")

        for _ in 0..<5 { viewer.press("o") }
        try viewer.settle()
        XCTAssertEqual(viewer.model.sortOrder, .rating)
        XCTAssertEqual(shown(), [paths[2], paths[1], paths[3], paths[0]], "most stars first, the rejected last")
    }

    /// Ratings already in sidecars (darktable's, say) show on the cells without a key.
    func testSidecarsAlreadyThereShowOnTheCells() throws {
        let paths = try images(2)
        try store.setRating(.stars(4), of: paths[1])
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.run(until: { viewer.model.rating(of: 1) != nil })
        XCTAssertEqual(viewer.model.rating(of: 1), 4)
    }

    /// A sidecar that is not XMP is left as it is, the rating unchanged, and the message says why.
    func testADamagedSidecarIsLeftAloneAndSaysWhy() throws {
        let paths = try images(1)
        let junk = Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'><rdf:RDF".utf8)
        try junk.write(to: URL(fileURLWithPath: paths[0] + ".xmp"))
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("ctrl+2")
        try viewer.settle()
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: paths[0] + ".xmp")), junk, "byte for byte")
        let message = try XCTUnwrap(viewer.commands.status.current(now: viewer.now))
        XCTAssertTrue(message.isError)
        XCTAssertTrue(message.text.contains("cannot be read as XMP"), message.text)
    }

    /// In the compare view the rating keys rate the focused pane's image, not the marked ones.
    func testInCompareTheFocusedPaneIsRated() throws {
        let paths = try images(3)
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("n")
        viewer.press("m")
        viewer.press("c")
        viewer.press("Tab")  // from img1, selected, to img0
        viewer.press("ctrl+4")
        let frame = try viewer.settle()
        XCTAssertEqual(paths.map(stored), [.stars(4), .unrated, .unrated])
        // Each pane's label carries its image's stars: the left pane's, not the right's.
        let rects = try XCTUnwrap(viewer.modes.compare?.rects)
        func stars(in pane: PixelRect) -> Double {
            frame.share(of: RGBA(r: 255, g: 196, b: 40), in: PixelRect(x: pane.x, y: pane.maxY - pane.height / 4, width: pane.width,
                                                                       height: pane.height / 4), tolerance: 40)
        }
        XCTAssertGreaterThan(stars(in: rects[0]), 0)
        XCTAssertEqual(stars(in: rects[1]), 0)
    }

    /// Under a filter, an image the filter leaves out is still one item: its file changing adds no second
    /// one, and its file going takes it out for good.
    func testAnImageLeftOutByTheFilterIsStillOneItem() throws {
        let paths = try images(3)
        try store.setRating(.stars(2), of: paths[0])
        try store.setRating(.stars(2), of: paths[2])
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("F"); viewer.press("F")  // 1+ stars
        try viewer.settle()
        func shown() -> [String] { (0..<viewer.model.items.count).map { viewer.model.items.path(at: $0) } }
        XCTAssertEqual(shown(), [paths[0], paths[2]])
        let version = try XCTUnwrap(FileVersion.ofFile(atPath: paths[1]))
        viewer.modes.apply([.present(path: paths[1], version: version)], now: viewer.now)
        viewer.modes.apply([.removed(path: paths[2])], now: viewer.now)
        for _ in 0..<5 { viewer.press("F") }  // round to all
        try viewer.settle()
        XCTAssertEqual(shown(), [paths[0], paths[1]], "img1 once, img2 gone")
    }

    /// An image rated out of the filter stays until the filter changes: it does not vanish under the key.
    func testARatedImageStaysUntilTheFilterChanges() throws {
        let paths = try images(2)
        try store.setRating(.stars(3), of: paths[0])
        try store.setRating(.stars(3), of: paths[1])
        var options = files.options(paths)
        options.ratingFilter = .atLeast(3)
        let viewer = try ViewerHarness(options)
        try viewer.run(until: { viewer.model.items.count == 2 })
        viewer.press("ctrl+1")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.count, 2, "still shown, rated 1 now")
        XCTAssertEqual(viewer.model.rating(of: 0), 1)
        viewer.press("F"); viewer.press("F"); viewer.press("F"); viewer.press("F")  // 4+, 5+, all, rejected hidden
        viewer.press("F"); viewer.press("F"); viewer.press("F")  // 1+, 2+, 3+
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.count, 1, "the next step of the filter applies to it")
    }

    /// A compare whose images the filter all leaves out ends, back in the strip, without a crash.
    func testACompareTheFilterEmptiesEnds() throws {
        let viewer = try ViewerHarness(files.options(try images(3)))
        try viewer.settle()
        viewer.press("Enter")
        viewer.press("c")
        XCTAssertEqual(viewer.modes.mode, .compare)
        viewer.press("F"); viewer.press("F")  // 1+: none of them
        try viewer.settle()
        XCTAssertEqual(viewer.modes.mode, .strip)
        XCTAssertEqual(viewer.model.items.count, 0)
    }
}
