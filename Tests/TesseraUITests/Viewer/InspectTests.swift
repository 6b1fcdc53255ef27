import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSDL
@testable import TesseraUI

/// The single view's full overlay shows the histogram, how much is clipped and the pixel under the
/// pointer; `e` marks clipped highlights in red over the picture.
final class InspectTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    func testTheFullOverlayShowsTheHistogramTheClippedShareAndThePixelUnderThePointer() throws {
        let white = RGBA(r: 255, g: 255, b: 255), grey = RGBA(r: 90, g: 120, b: 150)
        let path = try files.halvesPNG("halves.png", top: white, bottom: grey, width: 400, height: 300)
        var options = files.options([path])
        options.singleViewAtStart = path
        let viewer = try ViewerHarness(options)
        let frame = try viewer.settle()
        let view = try XCTUnwrap(viewer.modes.shownView)
        viewer.press("i")
        try viewer.run(until: { viewer.overlay.histogram != nil })
        let histogram = try XCTUnwrap(viewer.overlay.histogram)
        XCTAssertEqual(Double(histogram.red[255]) / Double(histogram.pixelCount), 0.5, accuracy: 0.02)
        XCTAssertEqual(Double(histogram.green[120]) / Double(histogram.pixelCount), 0.5, accuracy: 0.02)
        XCTAssertEqual(viewer.overlay.information.first { $0.label == "Clipped" }?.value, "50.0 % highlights, 0.0 % shadows")

        // The pointer over the lower half of the fitted picture, at the window's centre column.
        let scale = viewer.model.pixelScale
        let x = Double(frame.width) / 2 / scale, y = Double(frame.height) * 0.7 / scale
        viewer.viewer.handle(.mouseMotion(x: x, y: y, isLeftDown: false), now: viewer.now)
        try viewer.run(until: { viewer.overlay.information.first { $0.label == "Pixel" }?.value.contains("R 90") == true })
        let line = try XCTUnwrap(viewer.overlay.information.first { $0.label == "Pixel" }?.value)
        XCTAssertTrue(line.hasSuffix(": R 90  G 120  B 150"), line)
        XCTAssertTrue(line.hasPrefix("200, "), "the column under the pointer, in the image's pixels: \(line)")

        XCTAssertFalse(view.showsClipping)
        viewer.press("e")
        let marked = try viewer.run(until: { view.showsClipping && view.histogram != nil })
        _ = marked
        let shown = try viewer.frame()
        let topHalf = PixelRect(x: frame.width / 2 - 10, y: frame.height / 3 - 10, width: 20, height: 20)
        XCTAssertGreaterThan(shown.share(of: RGBA(r: 255, g: 40, b: 40), in: topHalf, tolerance: 20), 0.9,
                             "the clipped white is marked red")
        let bottomHalf = PixelRect(x: frame.width / 2 - 10, y: frame.height * 2 / 3, width: 20, height: 20)
        XCTAssertGreaterThan(shown.share(of: grey, in: bottomHalf, tolerance: 6), 0.9, "the rest is shown as it is")
    }
}
