import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraSDL
@testable import TesseraUI

/// `t` in the single view shows the neighbouring images' thumbnails along the bottom, the image above
/// it; a click on one shows it.
final class FilmStripTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    func testTheFilmStripShowsTheNeighboursAndAClickShowsOne() throws {
        let colours = [RGBA(r: 220, g: 30, b: 30), RGBA(r: 30, g: 200, b: 40), RGBA(r: 40, g: 50, b: 210)]
        let paths = try colours.enumerated().map { try files.png("\($0.offset).png", $0.element, width: 400, height: 300) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("n")
        viewer.press("Enter")
        try viewer.settle()
        viewer.press("t")
        XCTAssertTrue(viewer.modes.showsFilmStrip)
        // The neighbours' thumbnails come from the strip's loads around the selection.
        let scale = viewer.model.pixelScale
        var frame = try viewer.run(until: { viewer.model.cachedImage(for: 0) != nil && viewer.model.cachedImage(for: 2) != nil })
        frame = try viewer.frame()
        let row = FilmStrip.pixelHeight(scale: scale), bottom = frame.height - FilmStrip.reservedHeight(scale: scale) + row
        let strip = PixelRect(x: 0, y: bottom - row, width: frame.width, height: row)
        XCTAssertGreaterThan(frame.share(of: colours[0], in: strip), 0.02, "the previous image's thumbnail")
        XCTAssertGreaterThan(frame.share(of: colours[2], in: strip), 0.02, "the next image's")
        let above = PixelRect(x: frame.width / 2 - 10, y: (bottom - row) / 2 - 10, width: 20, height: 20)
        XCTAssertGreaterThan(frame.share(of: colours[1], in: above), 0.9, "the image itself above the row")

        // A click on the next image's thumbnail, right of the middle one.
        var x = frame.width / 2
        while x < frame.width, frame.pixel(x: x, y: bottom - row / 2) != colours[2] { x += 1 }
        XCTAssertLessThan(x, frame.width, "the next thumbnail is right of the middle")
        viewer.viewer.handle(.mouseDown(.left, x: Double(x + 5) / scale, y: Double(bottom - row / 2) / scale, clicks: 1),
                             now: viewer.now)
        XCTAssertEqual(viewer.model.selectedIndex, 2)
        viewer.press("t")
        XCTAssertFalse(viewer.modes.showsFilmStrip)
    }
}
