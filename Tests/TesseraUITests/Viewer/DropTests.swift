import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraSDL
@testable import TesseraUI

/// A folder or a file dropped on the window joins the strip, its first image selected; a drop with no
/// image in it says so.
final class DropTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    func testADroppedFolderJoinsTheStripAndItsFirstImageIsSelected() throws {
        let first = try files.png("a.png", RGBA(r: 200, g: 0, b: 0))
        let folder = files.path("more")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try PNGWriter.write(PixelBuffer(width: 40, height: 30, filledWith: RGBA(r: 0, g: 200, b: 0)), to: folder + "/x.png")
        try PNGWriter.write(PixelBuffer(width: 40, height: 30, filledWith: RGBA(r: 0, g: 0, b: 200)), to: folder + "/y.png")
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        let viewer = try ViewerHarness(files.options([first]))
        try viewer.settle()
        viewer.viewer.handle(.dropped(path: folder), now: viewer.now)
        try viewer.run(until: { viewer.model.items.count == 3 })
        XCTAssertEqual(viewer.selectedPath, folder + "/x.png")
        XCTAssertEqual(viewer.commands.status.current(now: viewer.now)?.text, "added 2 images from more")

        viewer.viewer.handle(.dropped(path: folder + "/notes.txt"), now: viewer.now)
        try viewer.run(until: { viewer.commands.status.current(now: viewer.now)?.isError == true })
        XCTAssertEqual(viewer.model.items.count, 3)
        XCTAssertEqual(viewer.commands.status.current(now: viewer.now)?.text, "notes.txt: no images there")
    }
}
