import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSDL
@testable import TesseraUI

/// A file of several images (here a HEIF collection) opened alone: the overlay says which page of how
/// many, `]` and `[` step between them, and past the ends a message says there is none.
final class PagesTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    /// A HEIF collection of a red image and a blue one, written by heif-enc, and the red image as a PNG.
    private func collection() throws -> (heif: String, red: String) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc") else {
            throw XCTSkip("heif-enc is not installed (Debian package libheif-examples)")
        }
        let red = try files.png("red.png", RGBA(r: 220, g: 30, b: 30)), blue = try files.png("blue.png", RGBA(r: 30, g: 30, b: 220))
        let pages = files.path("pages.heic")
        let encoder = try Process.run(URL(fileURLWithPath: "/usr/bin/heif-enc"), arguments: ["-q", "90", red, blue, "-o", pages])
        encoder.waitUntilExit()
        XCTAssertEqual(encoder.terminationStatus, 0)
        return (pages, red)
    }

    /// In the strip, the cell of a file of several images carries a badge (two sheets, bottom right); a
    /// file of one does not.
    func testTheCellOfAFileOfSeveralImagesSaysSo() throws {
        let (pages, red) = try collection()
        let viewer = try ViewerHarness(files.options([pages, red]))
        let frame = try viewer.settle()
        func badge(_ index: Int) throws -> Double {
            let cell = try XCTUnwrap(viewer.cellRect(index))
            return frame.share(of: RGBA(r: 225, g: 228, b: 235), in: PixelRect(x: cell.x + cell.width - 20, y: cell.y + cell.height - 20,
                                                                             width: 8, height: 8), tolerance: 4)
        }
        XCTAssertEqual(try badge(0), 1, accuracy: 0.01)
        XCTAssertEqual(try badge(1), 0, accuracy: 0.01)
    }

    func testBracketsStepThroughTheImagesOfAFile() throws {
        let (pages, _) = try collection()
        var options = files.options([pages])
        options.singleViewAtStart = pages
        let viewer = try ViewerHarness(options)
        func middle(_ frame: PixelBuffer) -> RGBA { frame.pixel(x: frame.width / 2, y: frame.height / 2) }

        var frame = try viewer.settle()
        XCTAssertTrue(middle(frame).isClose(to: RGBA(r: 220, g: 30, b: 30), tolerance: 16), "\(middle(frame))")
        try viewer.run(until: { viewer.overlay.tags.contains("page 1 / 2") })

        viewer.press("]")
        frame = try viewer.settle()
        XCTAssertTrue(middle(frame).isClose(to: RGBA(r: 30, g: 30, b: 220), tolerance: 16), "the second image: \(middle(frame))")
        XCTAssertTrue(viewer.overlay.tags.contains("page 2 / 2"), "\(viewer.overlay.tags)")
        viewer.press("]")
        XCTAssertEqual(viewer.overlay.status?.text, "no page after this one")

        // Turning the picture keeps the page shown.
        viewer.press(">")
        frame = try viewer.settle()
        XCTAssertTrue(middle(frame).isClose(to: RGBA(r: 30, g: 30, b: 220), tolerance: 16), "still the second: \(middle(frame))")
        XCTAssertTrue(viewer.overlay.tags.contains("page 2 / 2"), "\(viewer.overlay.tags)")

        viewer.press("[")
        frame = try viewer.settle()
        XCTAssertTrue(middle(frame).isClose(to: RGBA(r: 220, g: 30, b: 30), tolerance: 16), "back to the first: \(middle(frame))")
        viewer.press("[")
        XCTAssertEqual(viewer.overlay.status?.text, "no page before this one")
    }
}
