import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraSDL
@testable import TesseraUI

/// `c` shows the marked images (else the selected one and the next) side by side, each sharp through the
/// tiled pipeline; zoom and pan are locked together until `z`; `n`/`p` replace the focused pane, `Tab`
/// or a click moves the focus, and `Esc` returns to where compare began.
final class CompareTests: XCTestCase {
    private var files: ViewerFixtures!
    private let red = RGBA(r: 220, g: 30, b: 30), green = RGBA(r: 30, g: 200, b: 40)
    private let blue = RGBA(r: 40, g: 50, b: 210), yellow = RGBA(r: 240, g: 230, b: 60)

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private func fourImages() throws -> [String] {
        [try files.png("a.png", red, width: 400, height: 300), try files.png("b.png", green, width: 400, height: 300),
         try files.png("c.png", blue, width: 800, height: 600), try files.png("d.png", yellow, width: 400, height: 300)]
    }

    func testTheMarkedImagesAreShownSideBySideAndEscReturnsToTheStrip() throws {
        let paths = try fourImages()
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("n"); viewer.press("n")
        viewer.press("m")
        viewer.press("c")
        XCTAssertEqual(viewer.modes.mode, .compare)
        XCTAssertEqual(viewer.modes.comparedIndices, [0, 2], "the marked images, in strip order")
        let frame = try viewer.settle()
        let width = frame.width, height = frame.height
        XCTAssertGreaterThan(frame.share(of: red, in: PixelRect(x: width / 4 - 10, y: height / 2 - 10, width: 20, height: 20)), 0.9,
                             "the first marked image in the left pane")
        XCTAssertGreaterThan(frame.share(of: blue, in: PixelRect(x: width * 3 / 4 - 10, y: height / 2 - 10, width: 20, height: 20)), 0.9,
                             "the second in the right pane")
        XCTAssertEqual(viewer.selectedPath, paths[2], "the selected image, marked, keeps the keys in its pane")
        XCTAssertTrue(viewer.overlay.tags.contains("compare 2 / 2, locked"), "\(viewer.overlay.tags)")

        viewer.press("Esc")
        XCTAssertEqual(viewer.modes.mode, .strip)
        XCTAssertNil(viewer.modes.compare)
    }

    func testWithNothingMarkedTheSelectedImageAndTheNextAreCompared() throws {
        let viewer = try ViewerHarness(files.options(try fourImages()))
        try viewer.settle()
        viewer.press("n")
        viewer.press("c")
        XCTAssertEqual(viewer.modes.comparedIndices, [1, 2])
        viewer.press("c")
        XCTAssertEqual(viewer.modes.mode, .strip, "c again leaves")
        XCTAssertEqual(viewer.model.selectedIndex, 1)
    }

    /// Zoomed to 100 % in the focused pane, the other shows the same part of its picture, even at another
    /// size; unlocked, each zooms alone.
    func testZoomAndPanAreLockedUntilZ() throws {
        let viewer = try ViewerHarness(files.options(try fourImages()))
        try viewer.settle()
        viewer.press("n")
        viewer.press("c")  // b (400 x 300) and c (800 x 600)
        try viewer.settle()
        let compare = try XCTUnwrap(viewer.modes.compare)
        viewer.press("Tab")
        XCTAssertEqual(compare.focused, 1)
        XCTAssertEqual(viewer.model.selectedIndex, 2, "the selection follows the focus")
        viewer.press("1")  // c at 100 %: b, half its size, is shown at 200 %
        try viewer.frame()
        let left = try XCTUnwrap(compare.panes[0].view.framing), right = try XCTUnwrap(compare.panes[1].view.framing)
        XCTAssertFalse(left.isFitted)
        XCTAssertEqual(left.shownWidth, right.shownWidth, accuracy: 0.5, "the same part of the scene")
        XCTAssertEqual(left.centre.x, right.centre.x, accuracy: 0.01)
        XCTAssertEqual(left.centre.y, right.centre.y, accuracy: 0.01)

        viewer.press("z")
        XCTAssertFalse(compare.isLocked)
        viewer.press("Tab")
        XCTAssertEqual(compare.focused, 0)
        viewer.press("0")
        try viewer.frame()
        XCTAssertEqual(compare.panes[0].view.framing?.isFitted, true)
        XCTAssertEqual(compare.panes[1].view.framing?.isFitted, false, "unlocked, the other pane stays where it was")
    }

    func testNReplacesTheFocusedPaneWithAnImageNotShownAndAClickMovesTheFocus() throws {
        let paths = try fourImages()
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("c")  // a and b
        XCTAssertEqual(viewer.modes.comparedIndices, [0, 1])
        viewer.press("n")
        XCTAssertEqual(viewer.modes.comparedIndices, [2, 1], "the focused pane steps past b, which the other pane shows")
        let frame = try viewer.settle()
        XCTAssertGreaterThan(frame.share(of: blue, in: PixelRect(x: frame.width / 4 - 10, y: frame.height / 2 - 10, width: 20, height: 20)), 0.9)

        let scale = viewer.model.pixelScale
        viewer.viewer.handle(.mouseDown(.left, x: Double(frame.width) * 0.75 / scale, y: Double(frame.height) / 2 / scale, clicks: 1),
                             now: viewer.now)
        viewer.viewer.handle(.mouseUp(.left, x: Double(frame.width) * 0.75 / scale, y: Double(frame.height) / 2 / scale), now: viewer.now)
        XCTAssertEqual(viewer.modes.compare?.focused, 1)
        XCTAssertEqual(viewer.selectedPath, paths[1])
        viewer.press("Esc")
        XCTAssertEqual(viewer.modes.mode, .strip)
        XCTAssertEqual(viewer.selectedPath, paths[1], "back at the focused image")
    }

    /// Entered from the single view, Esc goes back to it, at the focused image.
    func testCompareEnteredFromTheSingleViewReturnsToIt() throws {
        let viewer = try ViewerHarness(files.options(try fourImages()))
        try viewer.settle()
        viewer.press("Enter")
        XCTAssertEqual(viewer.modes.mode, .detail)
        viewer.press("c")
        XCTAssertEqual(viewer.modes.mode, .compare)
        viewer.press("Tab")
        viewer.press("Esc")
        XCTAssertEqual(viewer.modes.mode, .detail)
        XCTAssertEqual(viewer.model.selectedIndex, 1)
    }

    /// A compared image moved to the trash leaves its pane; with one left, compare ends.
    func testATrashedImageLeavesCompare() throws {
        let viewer = try ViewerHarness(files.options(try fourImages()))
        try viewer.settle()
        viewer.press("c")
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertNotEqual(viewer.modes.mode, .compare)
        XCTAssertEqual(viewer.model.items.count, 3)
    }
}
