import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// Delete, the turns and Ctrl-z through the viewer, on real files: a trash inside the test's folder.
final class FileActionTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private let red = RGBA(r: 210, g: 30, b: 30), blue = RGBA(r: 30, g: 40, b: 210)

    private func attributes(_ path: String) throws -> (bytes: Data, modified: Date) {
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        return (try Data(contentsOf: URL(fileURLWithPath: path)), try XCTUnwrap(modified))
    }

    func testDeleteTrashesTheSelectedImageAndCtrlZBringsItBackAsItWas() throws {
        let paths = try ["a", "b", "c"].map { try files.png("\($0).png", RGBA(r: 100, g: 100, b: 100)) }
        let before = try attributes(paths[1])
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("Right")
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertFalse(FileManager.default.fileExists(atPath: paths[1]))
        XCTAssertTrue(FileManager.default.fileExists(atPath: files.path("data/Trash/files/b.png")))
        XCTAssertEqual(viewer.model.items.map(\.path), [paths[0], paths[2]], "the strip drops it without a watcher")
        XCTAssertEqual(viewer.selectedPath, paths[2], "the next image is selected")
        XCTAssertFalse(viewer.model.visibleCells.contains { $0.index.map { viewer.model.items[$0].path } == paths[1] })
        XCTAssertEqual(viewer.overlay.status?.text, "moved b.png to the trash")

        viewer.press("ctrl+z")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), paths, "back in its place")
        let after = try attributes(paths[1])
        XCTAssertEqual(after.bytes, before.bytes, "byte for byte")
        XCTAssertEqual(after.modified, before.modified)
        XCTAssertEqual(viewer.overlay.status?.text, "restored b.png from the trash")
        viewer.press("ctrl+z")
        XCTAssertEqual(viewer.overlay.status?.text, "nothing to undo")
    }

    func testAHeldOrDoubledDeleteTrashesOnce() throws {
        let paths = try ["a", "b", "c"].map { try files.png("\($0).png", RGBA(r: 100, g: 100, b: 100)) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("Delete")
        viewer.press("Delete")
        viewer.viewer.handle(.keyDown(try KeyCombo(parsing: "Delete"), isRepeat: true), now: viewer.now)
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), [paths[1], paths[2]], "one image went")
        XCTAssertEqual(viewer.overlay.status?.text, "moved a.png to the trash", "and nothing failed")
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), [paths[2]], "a new press takes the next")
    }

    func testDeleteTakesTheMarkedImagesAndAFileThatCannotGoStaysWithItsReason() throws {
        let paths = try ["a", "b", "c", "d"].map { try files.png("\($0).png", RGBA(r: 100, g: 100, b: 100)) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("G")
        viewer.press("m")
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), [paths[1], paths[2]])
        XCTAssertEqual(viewer.overlay.status?.text, "moved 2 images to the trash")
        viewer.press("ctrl+z")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), paths)
        XCTAssertEqual(viewer.model.marks.marked(in: viewer.model.items).map(\.path), [paths[0], paths[3]],
                       "restored images are marked as they were")

        // A file gone behind the viewer's back cannot go to the trash: it stays, and the overlay says why.
        viewer.press("u")
        viewer.press("g")
        try FileManager.default.removeItem(atPath: paths[0])
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.count, 4)
        let status = try XCTUnwrap(viewer.overlay.status)
        XCTAssertTrue(status.isError)
        XCTAssertEqual(status.text, "a.png: no such file", "named by its name, so the reason fits in the window")
    }

    func testALongestNameIsTrashedAndAnUndoThatCannotRestoreKeepsItsEntryAndSaysWhy() throws {
        let name = String(repeating: "n", count: 251) + ".png"
        let path = try files.png(name, RGBA(r: 100, g: 100, b: 100))
        let shown = String(repeating: "n", count: 20) + "…" + String(repeating: "n", count: 15) + ".png"
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let viewer = try ViewerHarness(files.options([path, try files.png("z.png", blue)]))
        try viewer.settle()
        viewer.press("Delete")
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "moved \(shown) to the trash", "a 255-byte name can be trashed")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))

        // Another file takes its name meanwhile: the undo says why it cannot, and stays to be tried again.
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: path))
        viewer.press("ctrl+z")
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "\(shown): not restored: another file now has its name; undo again to retry")
        XCTAssertEqual(viewer.overlay.status?.isError, true)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data("in the way".utf8), "the file in the way is kept")

        try FileManager.default.removeItem(atPath: path)
        viewer.press("ctrl+z")
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "restored \(shown) from the trash")
        XCTAssertEqual(viewer.model.items.map(\.path), [path, files.path("z.png")])
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), original, "back under its whole name")
    }

    func testAFailureWiderThanTheWindowWrapsSoItsReasonIsShown() throws {
        let path = try files.png("photo.png", RGBA(r: 100, g: 100, b: 100))
        var options = files.options([path])
        options.windowWidth = 360
        let viewer = try ViewerHarness(options)
        try XCTSkipUnless(viewer.viewer.parts.host.text.hasFont, "no TrueType font to draw the message with")
        try viewer.settle()
        viewer.press("Delete")
        try viewer.settle()
        try Data("in the way".utf8).write(to: URL(fileURLWithPath: path))
        viewer.press("ctrl+z")
        let frame = try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "photo.png: not restored: another file now has its name; undo again to retry")
        // The rows holding the message's (error-coloured) text: more than one line of 15-point text.
        let rows = (0..<frame.height).filter { y in
            (0..<frame.width).contains { x in
                let p = frame.pixel(x: x, y: y)
                return p.r > 200 && p.g > 130 && p.g < 210 && p.b > 100 && p.b < 180
            }
        }
        let span = (rows.max() ?? 0) - (rows.min() ?? 0)
        XCTAssertGreaterThan(span, 2 * 15 * Int(viewer.model.pixelScale), "the message takes three lines rather than running off")
    }

    /// The colour at a point of the picture in cell `index`, relative to the cell's centre.
    private func cellColour(_ frame: PixelBuffer, _ viewer: ViewerHarness, _ index: Int, dx: Int, dy: Int) throws -> RGBA {
        let cell = try XCTUnwrap(viewer.cellRect(index))
        return frame.pixel(x: cell.x + cell.width / 2 + dx, y: cell.y + cell.height / 2 + dy)
    }

    func testAJPEGTurnsInItsOrientationTagAndItsCellShowsItTurned() throws {
        let jpeg = try files.halvesJPEG("photo.jpg", top: red, bottom: blue)
        let pixelsBefore = try ImageLoader(decoders: ImageDecoders.viewer, applyOrientation: false).load(path: jpeg, fitting: nil)
        let viewer = try ViewerHarness(files.options([jpeg]))
        var frame = try viewer.settle()
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: 0, dy: -40).isClose(to: red, tolerance: 30), "upright: red on top")

        viewer.press(">")
        try viewer.run(until: { ExifReader.orientation(in: (try? Data(contentsOf: URL(fileURLWithPath: jpeg))) ?? Data(), format: .jpeg) == .rotated90 })
        frame = try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "photo.jpg rotated 90° clockwise")
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: 40, dy: 0).isClose(to: red, tolerance: 30), "the top went right")
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: -40, dy: 0).isClose(to: blue, tolerance: 30))
        XCTAssertEqual(try ImageLoader(decoders: ImageDecoders.viewer, applyOrientation: false).load(path: jpeg, fitting: nil).bytes, pixelsBefore.bytes,
                       "the stored pixels are untouched")
        XCTAssertFalse(viewer.overlay.tags.contains("turned, not saved"))

        viewer.press("ctrl+z")
        try viewer.run(until: { ExifReader.orientation(in: (try? Data(contentsOf: URL(fileURLWithPath: jpeg))) ?? Data(), format: .jpeg) == .up })
        frame = try viewer.settle()
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: 0, dy: -40).isClose(to: red, tolerance: 30), "upright again")
    }

    func testAPNGTurnsForTheSessionInTheStripAndTheSingleViewAndTheFileStaysAsItWas() throws {
        let png = try files.halvesPNG("picture.png", top: red, bottom: blue)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        let viewer = try ViewerHarness(files.options([png]))
        try viewer.settle()
        viewer.press("<")
        try viewer.run(until: { viewer.model.items[0].sessionOrientation != 1 })
        var frame = try viewer.settle()
        XCTAssertEqual(viewer.overlay.status?.text, "picture.png rotated 90° counter-clockwise, not saved (PNG)")
        XCTAssertTrue(viewer.overlay.tags.contains("turned, not saved"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: png)), bytes, "the file is not touched")
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: -40, dy: 0).isClose(to: red), "the top went left")
        XCTAssertTrue(try cellColour(frame, viewer, 0, dx: 40, dy: 0).isClose(to: blue))

        // The single view shows it turned too: 160 x 240 fitted to the window's height.
        viewer.press("Enter")
        frame = try viewer.settle()
        XCTAssertTrue(frame.pixel(x: 640 - 100, y: 360).isClose(to: red), "\(frame.pixel(x: 540, y: 360))")
        XCTAssertTrue(frame.pixel(x: 640 + 100, y: 360).isClose(to: blue))
        // A flip on top: turned and flipped, then undone step by step.
        viewer.press("|")
        try viewer.run(until: { viewer.model.items[0].sessionOrientation == ImageOrientation.rotated270.turned(.flipHorizontal).rawValue })
        frame = try viewer.settle()
        XCTAssertTrue(frame.pixel(x: 640 + 100, y: 360).isClose(to: red), "flipped: the top is on the right")
        viewer.press("ctrl+z")
        try viewer.run(until: { viewer.model.items[0].sessionOrientation == ImageOrientation.rotated270.rawValue })
        viewer.press("ctrl+z")
        try viewer.run(until: { viewer.model.items[0].sessionOrientation == 1 })
        frame = try viewer.settle()
        XCTAssertTrue(frame.pixel(x: 640, y: 360 - 150).isClose(to: red), "upright again")
    }
}
