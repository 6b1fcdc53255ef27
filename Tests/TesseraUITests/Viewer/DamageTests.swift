import Foundation
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSDL
@testable import TesseraUI

/// A file that decodes only in part is shown as far as it goes, with a badge on its cell, "damaged" in the
/// overlay and the decoder's reason in the information overlay.
final class DamageTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    func testADamagedFileIsShownWithABadgeAndItsReason() throws {
        let whole = try files.halvesJPEG("whole.jpg", top: RGBA(r: 200, g: 30, b: 30), bottom: RGBA(r: 30, g: 30, b: 200))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = files.path("cut.jpg")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        let viewer = try ViewerHarness(files.options([whole, cut]))
        let frame = try viewer.settle()

        // The badge's red in the damaged cell's top-left corner, beside its exclamation mark; none on the whole one.
        func badge(_ index: Int) throws -> Double {
            let cell = try XCTUnwrap(viewer.cellRect(index))
            return frame.share(of: RGBA(r: 240, g: 90, b: 60), in: PixelRect(x: cell.x + 9, y: cell.y + 9, width: 5, height: 5))
        }
        XCTAssertEqual(try badge(0), 0, accuracy: 0.01)
        XCTAssertEqual(try badge(1), 1, accuracy: 0.01)
        XCTAssertFalse(viewer.overlay.tags.contains("damaged"))

        viewer.press("Right")
        try viewer.frame()
        XCTAssertTrue(viewer.overlay.tags.contains("damaged"))
        viewer.press("i")
        try viewer.run(until: { viewer.overlay.information.contains { $0.label == "Dimensions" } })
        XCTAssertEqual(viewer.overlay.information.first { $0.label == "Damaged" }?.value, "Premature end of JPEG file")
    }

    /// A large photo cut short, opened alone (as from a file manager): the single view reads it tile by
    /// tile and shows what the file holds, its top, and says it is damaged.
    func testADamagedPhotoOpenedAloneSaysSo() throws {
        let whole = try files.halvesJPEG("big.jpg", top: RGBA(r: 200, g: 30, b: 30), bottom: RGBA(r: 30, g: 30, b: 200),
                                         width: 2400, height: 1600)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let cut = files.path("big-cut.jpg")
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: cut))
        var options = files.options([cut])
        options.singleViewAtStart = cut
        let viewer = try ViewerHarness(options)
        let frame = try viewer.settle()
        XCTAssertEqual(viewer.modes.mode, .detail)
        XCTAssertTrue(viewer.overlay.tags.contains("damaged"), "\(viewer.overlay.tags)")
        // The top half's red is there: the picture was read as far as the file goes, not refused; below,
        // libjpeg's grey stands where the file ended.
        let size = PixelSize(width: frame.width, height: frame.height)
        XCTAssertGreaterThan(frame.share(of: RGBA(r: 200, g: 30, b: 30), in: PixelRect(x: size.width / 2 - 20, y: size.height / 4,
                                                                                     width: 40, height: 10), tolerance: 12), 0.5)
        XCTAssertGreaterThan(frame.share(of: RGBA(r: 128, g: 128, b: 128), in: PixelRect(x: size.width / 2 - 20, y: size.height * 3 / 4,
                                                                                        width: 40, height: 10), tolerance: 4), 0.5)
    }

    /// A GIF cut in its image data, in the strip and opened alone: the same badge, tag and reason, in the
    /// loader's words for a file that ends in its data.
    func testACutGIFSaysSoInTheStripAndAlone() throws {
        var state: UInt32 = 7
        let indices = (0..<(240 * 160)).map { _ -> UInt8 in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8((state >> 16) & 3)
        }
        let gif = GIFFixtures.gif(screenWidth: 240, screenHeight: 160,
                                  palette: [RGBA(r: 200, g: 30, b: 30), RGBA(r: 30, g: 200, b: 30),
                                            RGBA(r: 30, g: 30, b: 200), RGBA(r: 250, g: 250, b: 250)],
                                  frames: [GIFFixtures.Frame(width: 240, height: 160, indices: indices)])
        let cut = files.path("cut.gif")
        try gif.prefix(gif.count / 2).write(to: URL(fileURLWithPath: cut))
        let reason = "the file ends inside the image data: it is truncated"

        let strip = try ViewerHarness(files.options([cut]))
        let frame = try strip.settle()
        let cell = try XCTUnwrap(strip.cellRect(0))
        XCTAssertEqual(frame.share(of: RGBA(r: 240, g: 90, b: 60), in: PixelRect(x: cell.x + 9, y: cell.y + 9, width: 5, height: 5)),
                       1, accuracy: 0.01, "the badge")
        strip.press("i")
        try strip.run(until: { strip.overlay.information.contains { $0.label == "Dimensions" } })
        XCTAssertEqual(strip.overlay.information.first { $0.label == "Damaged" }?.value, reason)

        var options = files.options([cut])
        options.singleViewAtStart = cut
        let alone = try ViewerHarness(options)
        _ = try alone.settle()
        XCTAssertEqual(alone.modes.mode, .detail)
        XCTAssertTrue(alone.overlay.tags.contains("damaged"), "\(alone.overlay.tags)")
    }
}
