import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraTiling
@testable import TesseraUI

/// The tiled view's script commands, the standalone viewer, and Enter / Esc from the strip.
final class TiledIntegrationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tiled-int-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func context(_ seconds: Double) -> ScriptContext {
        ScriptContext(now: .milliseconds(Int(seconds * 1000)), viewportWidth: 800, viewportHeight: 600, isScrolling: false,
                      isIdle: true, isAtStart: true, isAtEnd: false)
    }

    func testZoomAndPanCommands() throws {
        let script = try InputScript.parse("zoom in\nzoom OUT\nzoom fit\nzoom 100\npan 300 -40 0.1\n")
        XCTAssertEqual(script.commands, [.key(KeyCombo(typed: "+")!), .key(KeyCombo(typed: "-")!), .key(KeyCombo(typed: "0")!),
                                         .key(KeyCombo(typed: "1")!), .pan(dx: 300, dy: -40, seconds: 0.1)])
        XCTAssertThrowsError(try InputScript.parse("zoom sideways"))

        // A pan drags from the centre by the opposite amount and holds still before letting go.
        let player = ScriptPlayer(InputScript(commands: [.pan(dx: 300, dy: -40, seconds: 0.1)]))
        var events: [InputEvent] = []
        var t = 0.0
        while !player.isFinished && t < 2 {
            events += player.events(context(t))
            t += 1.0 / 60
        }
        XCTAssertEqual(events.first, .mouseDown(.left, x: 400, y: 300, clicks: 1))
        XCTAssertEqual(events.last, .mouseUp(.left, x: 100, y: 340))
        let atEnd = events.filter { $0 == .mouseMotion(x: 100, y: 340, isLeftDown: true) }.count
        XCTAssertGreaterThanOrEqual(atEnd, 6, "held still at the end for longer than the velocity window")
    }

    func testStandaloneViewerReportsTileFigures() throws {
        let image = TiledFixtures.gradient(width: 600, height: 400)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 64, overlap: 0, in: folder)
        var options = ViewerOptions(items: [])
        options.headless = true
        options.windowWidth = 320
        options.windowHeight = 240
        options.script = try InputScript.parse("wait-idle\nzoom in\nwait 0.05\nwait-idle\npan 100 0\nwait-idle\n")
        let reportPath = folder.appendingPathComponent("report.json").path
        options.report = ReportOptions(path: reportPath)
        options.singleView.pyramidCache = TilePyramidCache(root: folder.appendingPathComponent("cache").path)
        let report = try XCTUnwrap(try TiledViewer(path: path, options: options).run())
        XCTAssertGreaterThan(report.tilesDecoded ?? 0, 4)
        XCTAssertGreaterThanOrEqual(report.tilesRequested ?? 0, report.tilesDecoded ?? 0)
        XCTAssertNotNil(report.firstFrameMs)
        XCTAssertNotNil(report.sharpMs)
        XCTAssertEqual(report.holeFrames, 0)
        XCTAssertEqual(report.mainThreadDecodes, 0)
        let json = try String(contentsOfFile: reportPath, encoding: .utf8)
        for key in ["tiles_requested", "tiles_decoded", "tiles_cancelled", "first_frame_ms", "sharp_ms", "fade_ms_observed"] {
            XCTAssertTrue(json.contains("\"\(key)\""), key)
        }
    }

    func testCarouselReportLeavesTileFieldsOut() throws {
        let path = folder.appendingPathComponent("a.png").path
        try PNGWriter.write(PixelBuffer(width: 64, height: 48, filledWith: RGBA(r: 10, g: 200, b: 30)), to: path)
        var options = ViewerOptions(items: [CarouselItem(path: path)])
        options.headless = true
        options.useThumbnailCache = false
        let reportPath = folder.appendingPathComponent("strip.json").path
        options.report = ReportOptions(path: reportPath)
        try Viewer(options: options).run()
        let json = try String(contentsOfFile: reportPath, encoding: .utf8)
        XCTAssertFalse(json.contains("tiles_requested"))
        XCTAssertFalse(json.contains("first_frame_ms"))
    }

    /// Enter on an image opens it zoomable, at the strip's place; Esc goes back to the same place.
    func testEnterOpensTheZoomableViewAndEscapeReturns() throws {
        let green = RGBA(r: 20, g: 200, b: 40), blue = RGBA(r: 30, g: 40, b: 220)
        let paths = try [green, blue].enumerated().map { index, colour -> String in
            let path = folder.appendingPathComponent("img\(index).png").path
            try PNGWriter.write(PixelBuffer(width: 800, height: 600, filledWith: colour), to: path)
            return path
        }
        func run(_ script: String) throws -> (PixelBuffer, RunReport) {
            var options = ViewerOptions(items: paths.map { CarouselItem(path: $0) })
            options.headless = true
            options.useThumbnailCache = false
            options.script = try InputScript.parse(script)
            options.screenshotPath = folder.appendingPathComponent("frame.png").path
            options.report = ReportOptions()
            let report = try XCTUnwrap(try Viewer(options: options).run())
            let data = try Data(contentsOf: URL(fileURLWithPath: options.screenshotPath!))
            return (try PNGDecoder().decode(data, format: .png, targetSize: nil), report)
        }
        // In the strip, the window's corner is background.
        let (strip, _) = try run("wait-idle\n")
        XCTAssertFalse(strip.pixel(x: 640, y: 20).isClose(to: blue))
        // Right, Enter: the second image fills the window height (800x600 fitted in 1280x720); i twice
        // turns the overlay's name bar off, to see the bottom rows.
        let (opened, report) = try run("wait-idle\nkey right\nwait 0.3\nkey enter\nwait 0.05\nwait-idle\nkey i\nkey i\n")
        XCTAssertTrue(opened.pixel(x: 640, y: 20).isClose(to: blue), "\(opened.pixel(x: 640, y: 20))")
        XCTAssertTrue(opened.pixel(x: 640, y: 700).isClose(to: blue))
        XCTAssertNotNil(report.firstFrameMs)
        // Esc: back in the strip, the second image still selected.
        let (back, _) = try run("wait-idle\nkey right\nwait 0.3\nkey enter\nwait 0.05\nwait-idle\nkey escape\nwait 0.05\nwait-idle\n")
        XCTAssertFalse(back.pixel(x: 640, y: 20).isClose(to: blue))
        XCTAssertEqual(back.pixel(x: 0, y: 0), strip.pixel(x: 0, y: 0))
    }
}
