import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraSDL
@testable import TesseraUI

/// Marks on the cells and in the overlay, the sort order, the information overlay and the clipboard.
final class MarkSortInfoTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    private let grey = RGBA(r: 110, g: 110, b: 110)

    func testMarksShowOnTheirCellsAndNAndPGoBetweenThemWithoutWrapping() throws {
        let paths = try (0..<5).map { try files.png("img\($0).png", grey) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("m")
        viewer.press("Right")
        viewer.press("Right")
        viewer.press("m")
        let frame = try viewer.settle()
        XCTAssertEqual(viewer.model.marks.marked(in: viewer.model.items).map(\.path), [paths[0], paths[2]])
        // The badge: the mark colour in each marked cell's top-right corner, not in the others.
        func badge(_ index: Int) throws -> Double {
            let cell = try XCTUnwrap(viewer.cellRect(index))
            return frame.share(of: RGBA(r: 255, g: 196, b: 40), in: PixelRect(x: cell.x + cell.width - 26, y: cell.y + 12,
                                                                                width: 12, height: 12))
        }
        XCTAssertEqual(try badge(0), 1, accuracy: 0.01)
        XCTAssertEqual(try badge(1), 0, accuracy: 0.01)
        XCTAssertEqual(try badge(2), 1, accuracy: 0.01)
        XCTAssertEqual(viewer.overlay.tags, ["marked (2)"])

        viewer.press("P")
        XCTAssertEqual(viewer.model.selectedIndex, 0)
        viewer.press("P")
        XCTAssertEqual(viewer.model.selectedIndex, 0, "no marked image before the first")
        XCTAssertEqual(viewer.overlay.status?.text, "no marked image before this one")
        viewer.press("N")
        XCTAssertEqual(viewer.model.selectedIndex, 2)
        viewer.press("N")
        XCTAssertEqual(viewer.model.selectedIndex, 2, "N does not wrap around")

        // In the single view too, with the mark in its overlay.
        viewer.press("Enter")
        try viewer.frame()
        XCTAssertTrue(viewer.overlay.tags.contains("marked (2)"))
        viewer.press("P")
        try viewer.frame()
        XCTAssertEqual(viewer.modes.detail?.path, paths[0])
        viewer.press("m")
        XCTAssertEqual(viewer.overlay.tags.first, "1 marked")
        viewer.press("Esc")

        viewer.press("M")
        XCTAssertEqual(viewer.model.marks.marked(in: viewer.model.items).map(\.path), [paths[0], paths[1], paths[3], paths[4]])
        viewer.press("u")
        XCTAssertTrue(viewer.model.marks.marked(in: viewer.model.items).isEmpty)
    }

    func testSortingCyclesKeepsTheSelectionAndTheMarksFollowTheirFiles() throws {
        // Names against sizes: img0 is the largest, img5 the smallest.
        let paths = try (0..<6).map { try files.png("img\($0).png", grey, width: 400 - $0 * 40, height: 300 - $0 * 30) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("Right")
        viewer.press("m")
        try viewer.settle()
        var seen = [viewer.model.sortOrder]
        for _ in 1..<StripOrder.allCases.count {
            viewer.press("o")
            try viewer.settle()
            seen.append(viewer.model.sortOrder)
            XCTAssertEqual(viewer.selectedPath, paths[1], "the selected image stays selected")
            XCTAssertNotNil(viewer.cellRect(viewer.model.selectedIndex), "and on screen")
            XCTAssertEqual(viewer.model.marks.marked(in: viewer.model.items).map(\.path), [paths[1]])
            XCTAssertEqual(viewer.overlay.status?.text, "sorted by \(viewer.model.sortOrder.label)")
            if viewer.model.sortOrder == .size {
                XCTAssertEqual(viewer.model.items.map(\.path), paths.reversed(), "smallest file first")
                XCTAssertEqual(viewer.model.selectedIndex, 4)
            }
        }
        XCTAssertEqual(Set(seen), Set(StripOrder.allCases))
        XCTAssertEqual(viewer.model.sortOrder, StripOrder.allCases.last)
        viewer.press("o")
        XCTAssertEqual(viewer.model.items.map(\.path), paths, "back to names")
    }

    /// A listed folder: nothing is stat'ed until an order needs it, then the files are read on a worker
    /// while the strip stays in name order and says it is sorting; the selected image stays selected.
    func testAnOrderThatNeedsTheFilesReadsThemInTheBackground() throws {
        let paths = try (0..<6).map { try files.png("img\($0).png", grey, width: 400 - $0 * 40, height: 300 - $0 * 30) }
        var options = files.options([])
        options.listing = ItemListing(paths: [files.folder.path], recursive: false)
        let viewer = try ViewerHarness(options)
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), paths)
        viewer.press("Right")
        viewer.press("o")
        XCTAssertEqual(viewer.model.sortOrder, .mtime)
        XCTAssertEqual(viewer.overlay.status?.text, "sorting by modification time…", "the times are not read yet")
        XCTAssertEqual(viewer.model.items.map(\.path), paths, "name order meanwhile")
        try viewer.run(until: { viewer.overlay.status?.text == "sorted by modification time" })
        XCTAssertEqual(viewer.selectedPath, paths[1])
        viewer.press("o")
        viewer.press("o")
        XCTAssertEqual(viewer.model.sortOrder, .size)
        try viewer.settle()
        XCTAssertEqual(viewer.model.items.map(\.path), paths.reversed(), "smallest file first, read once for mtime")
        XCTAssertEqual(viewer.selectedPath, paths[1])
        XCTAssertNotNil(viewer.cellRect(viewer.model.selectedIndex), "and on screen")
    }

    func testICyclesTheOverlayAndTheInformationIsReadOnAWorker() throws {
        let jpeg = try files.halvesJPEG("photo.jpg", top: RGBA(r: 200, g: 30, b: 30), bottom: RGBA(r: 30, g: 30, b: 200))
        let viewer = try ViewerHarness(files.options([jpeg, try files.png("b.png", grey)]))
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.level, .name)
        XCTAssertEqual(viewer.overlay.name, "photo.jpg")
        XCTAssertEqual(viewer.overlay.position, "1 / 2")
        viewer.press("i")
        XCTAssertEqual(viewer.overlay.level, .information)
        try viewer.run(until: { viewer.overlay.information.contains { $0.label == "Dimensions" } })
        let lines = Dictionary(viewer.overlay.information.map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(lines["File"], "photo.jpg")
        XCTAssertEqual(lines["Dimensions"], "240 × 160")
        XCTAssertEqual(lines["Format"], "JPEG")
        // Drawn: a dark panel at the top left with text on it (when a font is installed).
        let frame = try viewer.frame()
        if viewer.viewer.parts.host.text.hasFont {
            let panel = PixelRect(x: 20, y: 20, width: 200, height: 60)
            XCTAssertGreaterThan(frame.share(of: RGBA(r: 235, g: 235, b: 240), in: panel), 0.01, "text in the panel")
        }
        // In the single view as well.
        viewer.press("Enter")
        try viewer.settle()
        XCTAssertEqual(viewer.overlay.level, .information)
        XCTAssertTrue(viewer.overlay.information.contains { $0.label == "Dimensions" })
        viewer.press("i")
        XCTAssertEqual(viewer.overlay.level, .off)
        viewer.press("i")
        XCTAssertEqual(viewer.overlay.level, .name)
    }

    /// The information overlay as `--screenshot` writes it, for a person to look at too
    /// (`TESSERA_TEST_KEEP_FRAMES=/tmp make test`; README's docs/info-overlay.png is such a frame).
    func testTheInformationOverlayInAScreenshot() throws {
        let jpeg = try files.halvesJPEG("photo.jpg", top: RGBA(r: 200, g: 30, b: 30), bottom: RGBA(r: 30, g: 30, b: 200))
        var options = files.options([jpeg, try files.png("b.png", grey)])
        options.headless = true
        options.screenshotPath = files.path("frame.png")
        options.script = try InputScript.parse("wait-idle\nkey i\nwait-idle\n")
        try Viewer(options: options).run()
        if let keep = ProcessInfo.processInfo.environment["TESSERA_TEST_KEEP_FRAMES"] {
            try? FileManager.default.copyItem(atPath: files.path("frame.png"), toPath: "\(keep)/information-overlay.png")
        }
        let frame = try PNGDecoder().decode(Data(contentsOf: URL(fileURLWithPath: files.path("frame.png"))),
                                            format: .png, targetSize: nil)
        // The panel darkens the window's background at the top left; its six lines of text are light.
        let darkened = RGBA(r: 8, g: 8, b: 9)
        XCTAssertGreaterThan(frame.share(of: darkened, in: PixelRect(x: 14, y: 14, width: 120, height: 100), tolerance: 4), 0.5)
        XCTAssertEqual(frame.share(of: darkened, in: PixelRect(x: 700, y: 14, width: 100, height: 100), tolerance: 4), 0,
                       "only there")
        guard Font.defaultPath() != nil else { return }
        for row in 0..<5 {
            let line = PixelRect(x: 20, y: 24 + row * 21, width: 300, height: 16)
            XCTAssertGreaterThan(frame.share(of: RGBA(r: 235, g: 235, b: 240), in: line), 0.005, "line \(row + 1) has text")
        }
    }

    func testYCopiesThePathAndCapitalYAFileURI() throws {
        let path = try files.png("a b.png", grey)
        let viewer = try ViewerHarness(files.options([path]))
        try viewer.settle()
        viewer.press("y")
        XCTAssertEqual(Clipboard.text, path)
        viewer.press("Y")
        XCTAssertEqual(Clipboard.text, URL(fileURLWithPath: path).absoluteString)
        XCTAssertTrue(Clipboard.text?.hasPrefix("file:///") == true)
        XCTAssertTrue(Clipboard.text?.hasSuffix("a%20b.png") == true)
    }

    func testAScriptPressesEveryKeyByItsName() throws {
        let script = try InputScript.parse("key ctrl+x\nkey delete\nkey M\nkey less\nkey bar\nkey >\nkey _\nkey backspace\nkey ctrl+z\n")
        XCTAssertEqual(script.commands.map { if case .key(let combo) = $0 { combo.argument } else { "" } },
                       ["C-x", "Delete", "M", "less", "bar", "greater", "underscore", "BackSpace", "C-z"])
        XCTAssertThrowsError(try InputScript.parse("key ctrl+nothing\n"))
    }
}
