import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// The single view steps through the strip's images with nsxiv's keys, pans a zoomed image sideways
/// instead, and goes back to the strip at the image it shows.
final class SingleViewStepTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private func colour(_ i: Int) -> RGBA { RGBA(r: UInt8(30 + i * 25), g: UInt8(200 - i * 20), b: 90) }

    func testTheSingleViewOpensWithTheViewersCacheWorkersAndPixelLimit() throws {
        let paths = [try files.png("a.png", colour(0)), try files.png("b.png", colour(1))]
        var options = files.options(paths)
        options.cacheLimitBytes = 77 << 20
        options.workerCount = 3
        options.pixelLimit = 5_000_000
        options.singleView.maxDeviceScale = 2
        let viewer = try ViewerHarness(options)
        try viewer.settle()
        viewer.press("Enter")
        let view = try XCTUnwrap(viewer.modes.detail)
        XCTAssertEqual(view.options.cacheLimitBytes, 77 << 20, "--cache-mb reaches the single view")
        XCTAssertTrue(view.executor === viewer.viewer.parts.executor, "the single view runs on the viewer's executor")
        XCTAssertEqual(view.executor.workerCount, 3, "--workers reaches the single view")
        XCTAssertEqual(view.options.pixelLimit, 5_000_000)
        XCTAssertEqual(view.options.maxDeviceScale, 2, "the single view's own settings are kept")
        viewer.press("n")
        try viewer.frame()
        XCTAssertEqual(viewer.modes.detail?.path, paths[1])
        XCTAssertEqual(viewer.modes.detail?.options.cacheLimitBytes, 77 << 20, "a step opens with the same options")
    }

    func testKeysStepGoToTheEndsAndEscapeReturnsToTheStripAtThatImage() throws {
        // A wide first image, then small ones.
        var paths = [try files.png("img0.png", colour(0), width: 2000, height: 300)]
        for i in 1..<8 { paths.append(try files.png("img\(i).png", colour(i))) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("Enter")
        XCTAssertEqual(viewer.modes.mode, .detail)
        try viewer.settle()
        func shown() -> String? { viewer.modes.detail?.path }
        XCTAssertEqual(shown(), paths[0])

        let steps: [(key: String, index: Int)] = [("n", 1), ("space", 2), ("p", 1), ("Backspace", 0), ("G", 7), ("g", 0),
                                                  ("PageDown", 1), ("PageUp", 0)]
        for (key, index) in steps {
            viewer.press(key)
            try viewer.frame()
            XCTAssertEqual(viewer.model.selectedIndex, index, key)
            XCTAssertEqual(shown(), paths[index], key)
        }
        viewer.press("p")
        XCTAssertEqual(viewer.model.selectedIndex, 0, "no step before the first (nsxiv does not wrap)")

        // At fit the whole width of the wide image shows: Right and Left step.
        try viewer.settle()
        viewer.press("Right")
        try viewer.frame()
        XCTAssertEqual(shown(), paths[1])
        viewer.press("Left")
        try viewer.settle()
        XCTAssertEqual(shown(), paths[0])
        XCTAssertEqual(viewer.overlay.position, "1 / 8")
        XCTAssertTrue(viewer.overlay.tags.contains { $0.hasSuffix(" %") }, "\(viewer.overlay.tags)")

        // Zoomed in, the wide image is wider than the window: Right pans it and stays on it.
        viewer.press("+")
        try viewer.settle()
        let before = try XCTUnwrap(viewer.modes.detail?.imageOriginInPixels)
        viewer.press("Right")
        try viewer.settle()
        let after = try XCTUnwrap(viewer.modes.detail?.imageOriginInPixels)
        XCTAssertEqual(viewer.model.selectedIndex, 0)
        XCTAssertLessThan(after.x, before.x - 50, "the picture moved left under the window")
        viewer.press("Left")
        try viewer.settle()
        XCTAssertEqual(viewer.model.selectedIndex, 0, "Left pans back, no step")
        XCTAssertEqual(try XCTUnwrap(viewer.modes.detail?.imageOriginInPixels).x, before.x, accuracy: 1)

        // Esc: the strip, at the image shown last, scrolled to show it.
        viewer.press("G")
        try viewer.frame()
        viewer.press("Esc")
        try viewer.settle()
        XCTAssertEqual(viewer.modes.mode, .strip)
        XCTAssertEqual(viewer.model.selectedIndex, 7)
        let cell = try XCTUnwrap(viewer.cellRect(7), "the strip shows the image")
        XCTAssertGreaterThanOrEqual(cell.x, 0)
        XCTAssertLessThanOrEqual(cell.x + cell.width, 1280)
        // Enter and Enter again: there and back.
        viewer.press("Enter")
        try viewer.frame()
        XCTAssertEqual(viewer.modes.mode, .detail)
        viewer.press("Enter")
        try viewer.frame()
        XCTAssertEqual(viewer.modes.mode, .strip)
    }

    func testTheStripStepsWithTheSameKeys() throws {
        let paths = try (0..<6).map { try files.png("img\($0).png", colour($0)) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        for (key, index) in [("n", 1), ("space", 2), ("Right", 3), ("p", 2), ("Backspace", 1), ("Left", 0), ("G", 5), ("g", 0)] {
            viewer.press(key)
            try viewer.frame()
            XCTAssertEqual(viewer.model.selectedIndex, index, key)
        }
        XCTAssertEqual(viewer.modes.mode, .strip)
    }
}
