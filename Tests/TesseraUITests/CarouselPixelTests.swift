import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// Runs the real viewer headless (SDL's dummy driver, software renderer) over generated files and reads
/// the last frame back from its screenshot.
final class CarouselPixelTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-pixels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func solidPNG(_ name: String, _ colour: RGBA, width: Int = 200, height: Int = 150) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try PNGWriter.write(PixelBuffer(width: width, height: height, filledWith: colour), to: path)
        return path
    }

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Runs the viewer until everything on screen has loaded and faded in; returns the last frame.
    private func runViewer(_ paths: [String], name: String = #function, configure: (inout ViewerOptions) -> Void = { _ in }) throws
        -> (frame: PixelBuffer, report: RunReport, options: ViewerOptions) {
        var options = ViewerOptions(items: paths.map { CarouselItem(path: $0) })
        options.headless = true
        options.screenshotPath = folder.appendingPathComponent("frame.png").path
        options.report = ReportOptions()
        configure(&options)
        let viewer = try Viewer(options: options)
        let report = try XCTUnwrap(try viewer.run())
        if let keep = ProcessInfo.processInfo.environment["TESSERA_TEST_KEEP_FRAMES"] {
            // For a person to look at: TESSERA_TEST_KEEP_FRAMES=/tmp make test
            try? FileManager.default.copyItem(atPath: options.screenshotPath!, toPath: "\(keep)/\(name.prefix { $0 != "(" }).png")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: options.screenshotPath!))
        let frame = try PNGDecoder().decode(data, format: .png, targetSize: nil)
        return (frame, report, options)
    }

    private func centre(of index: Int, options: ViewerOptions, scale: Double = 1) -> (x: Int, y: Int) {
        let carousel = options.carousel
        let viewport = Size(width: Double(options.windowWidth), height: Double(options.windowHeight))
        let grid = carousel.fit.grid(viewportSize: viewport, spacing: carousel.spacing, inset: carousel.inset,
                                     bottomBar: carousel.bottomBar)
        let layout = StripLayout(itemCount: options.items.count, rows: grid.rows, cellSize: grid.cellSize,
                                 spacing: carousel.spacing, inset: carousel.inset, bottomBar: carousel.bottomBar,
                                 viewportSize: viewport)
        let frame = layout.frame(of: index)
        return (Int(frame.midX * scale), Int(frame.midY * scale))
    }

    private func isErrorRed(_ p: RGBA) -> Bool { p.r > 180 && p.g < 150 && p.b < 110 }

    private func errorPixels(in frame: PixelBuffer, around c: (x: Int, y: Int), halfWidth: Int, halfHeight: Int) -> Int {
        var count = 0
        for y in max(0, c.y - halfHeight)..<min(frame.height, c.y + halfHeight) {
            for x in max(0, c.x - halfWidth)..<min(frame.width, c.x + halfWidth) where isErrorRed(frame.pixel(x: x, y: y)) {
                count += 1
            }
        }
        return count
    }

    func testKnownColoursLandInTheirCellsAndABadFileShowsAnErrorCell() throws {
        let purple = RGBA(r: 150, g: 40, b: 200), green = RGBA(r: 30, g: 200, b: 60), blue = RGBA(r: 40, g: 60, b: 230)
        let paths = [try solidPNG("a1.png", purple), try file("a2.jpg", Array("not an image at all".utf8)),
                     try solidPNG("a3.png", green), try solidPNG("a4.png", blue)]
        let (frame, report, options) = try runViewer(paths)
        XCTAssertTrue(frame.pixel(x: centre(of: 0, options: options).x, y: centre(of: 0, options: options).y).isClose(to: purple))
        XCTAssertTrue(frame.pixel(x: centre(of: 2, options: options).x, y: centre(of: 2, options: options).y).isClose(to: green))
        let bad = centre(of: 1, options: options)
        XCTAssertGreaterThan(errorPixels(in: frame, around: bad, halfWidth: 150, halfHeight: 120), 200, "error icon in cell 2")
        XCTAssertEqual(errorPixels(in: frame, around: centre(of: 0, options: options), halfWidth: 150, halfHeight: 120), 0)
        XCTAssertEqual(report.mainThreadDecodes, 0)
        XCTAssertGreaterThanOrEqual(report.decodes, 3)
        XCTAssertGreaterThan(report.uploadBytes, 0)
    }

    /// Opaque images go into textures without alpha and are drawn as plain copies; a half-transparent one
    /// still shows the backdrop through it.
    func testOpaqueAndTransparentImagesDrawTheirOwnColoursOverTheBackdrop() throws {
        let red = RGBA(r: 220, g: 30, b: 30, a: 128), teal = RGBA(r: 20, g: 160, b: 150)
        let paths = [try solidPNG("t1.png", red), try solidPNG("t2.png", teal), try solidPNG("t3.png", red)]
        let (frame, report, options) = try runViewer(paths)
        // Only cells showing a transparent picture make their texture in a frame; opaque ones were made
        // before the first.
        XCTAssertEqual(report.cellTexturesMadeInFrames, 2)
        // Straight alpha over the backdrop (52, 52, 58): 128/255 of red, the rest backdrop.
        func over(_ c: UInt8, _ backdrop: UInt8) -> UInt8 { UInt8((Int(c) * 128 + Int(backdrop) * 127) / 255) }
        let blended = RGBA(r: over(220, 52), g: over(30, 52), b: over(30, 58))
        for index in [0, 2] {
            let c = centre(of: index, options: options)
            XCTAssertTrue(frame.pixel(x: c.x, y: c.y).isClose(to: blended), "cell \(index): \(frame.pixel(x: c.x, y: c.y))")
        }
        let c = centre(of: 1, options: options)
        XCTAssertTrue(frame.pixel(x: c.x, y: c.y).isClose(to: teal, tolerance: 2), "\(frame.pixel(x: c.x, y: c.y))")
    }

    /// The command line's default, neither `--rows` nor `--cell` given: in a 1280x720 window the cells
    /// cover most of the height above the name bar, in rows of their own pictures.
    func testByDefaultTheCellsFillTheWindowsHeight() throws {
        let colours = [RGBA(r: 230, g: 40, b: 40), RGBA(r: 40, g: 210, b: 60), RGBA(r: 50, g: 80, b: 240)]
        let paths = try (0..<12).map { try solidPNG("f\($0).png", colours[$0 % 3], width: 800, height: 600) }
        let (frame, _, options) = try runViewer(paths) { options in
            options.carousel.rows = nil
            options.carousel.cellSize = nil
        }
        XCTAssertEqual(frame.height, 720)
        let above = frame.height - Int(options.carousel.bottomBar)
        for index in 0..<4 {
            let c = centre(of: index, options: options)
            XCTAssertTrue(frame.pixel(x: c.x, y: c.y).isClose(to: colours[index % 3]), "picture \(index) in its cell")
        }
        // Down the middle of the first column, only the margins and the gap between rows are window background.
        let x = centre(of: 0, options: options).x
        let covered = (0..<above).filter { !frame.pixel(x: x, y: $0).isClose(to: Theme.background) }.count
        XCTAssertGreaterThan(Double(covered), 0.85 * Double(above), "\(covered) of \(above) rows of pixels")
    }

    /// The strip paints the window background only between cells and a cell's background only around an
    /// opaque picture, and the software renderer keeps the last frame's pixels. After a drag, across the
    /// middle of the strip every picture and every cell margin must have its own width (or be cut by the
    /// window's edge), and above the strip only the window background may show: anything wider, or a
    /// sliver, would be something left behind from an earlier frame.
    func testAfterScrollingNothingOfAnEarlierFrameIsLeftBehind() throws {
        let colours = [RGBA(r: 230, g: 40, b: 40), RGBA(r: 40, g: 210, b: 60), RGBA(r: 50, g: 80, b: 240)]
        // Tall pictures in 400x300 cells: 100x300 each, with 150-pixel cell background either side.
        let paths = try (0..<12).map { try solidPNG("s\($0).png", colours[$0 % 3], width: 100, height: 300) }
        let (frame, report, _) = try runViewer(paths) { options in
            options.script = InputScript(commands: [.wait(seconds: 0.3), .drag(fromX: 1000, fromY: 360, toX: 660, toY: 360, seconds: 0.3),
                                                    .waitForScrollToStop, .waitForIdle])
        }
        XCTAssertGreaterThan(report.frames, 20)
        // Every cell the drag brought in found a texture made before the first frame.
        XCTAssertEqual(report.cellTexturesMadeInFrames, 0)
        // Runs of one colour across the middle of the strip.
        let y = frame.height / 2
        var runs: [(colour: RGBA, start: Int, length: Int)] = []
        for x in 0..<frame.width {
            let pixel = frame.pixel(x: x, y: y)
            if let last = runs.last, last.colour.isClose(to: pixel) { runs[runs.count - 1].length += 1 } else { runs.append((pixel, x, 1)) }
        }
        let inside = runs.filter { $0.start > 0 && $0.start + $0.length < frame.width }
        let pictures = inside.filter { run in colours.contains { run.colour.isClose(to: $0) } }
        XCTAssertGreaterThanOrEqual(pictures.count, 2, "pictures on screen")
        for run in pictures { XCTAssertEqual(run.length, 100, "picture at x=\(run.start)") }
        // Between two pictures: a cell's 150-pixel margin, the window background between cells, the next margin.
        for run in inside where run.colour.isClose(to: Theme.cellBackground) {
            XCTAssertEqual(run.length, 150, "cell background at x=\(run.start)")
        }
        // Above the strip only the window background.
        let above = (0..<frame.width).filter { !frame.pixel(x: $0, y: 100).isClose(to: Theme.background) }
        XCTAssertEqual(above, [], "pixels above the strip that are not the window background")
    }

    /// A folder of photos and transparent PNGs: cells switch kinds as they are reused, and a cell gives
    /// its texture of the other kind to the next cell that needs one instead of every switch making a new
    /// texture inside a frame.
    func testCellsThatSwitchBetweenOpaqueAndTransparentImagesReuseTheirTextures() throws {
        let opaque = RGBA(r: 40, g: 210, b: 60), clear = RGBA(r: 230, g: 40, b: 40, a: 128)
        let transparent: Set = [1, 2, 5, 9, 10, 13, 14, 17, 21, 22]
        let paths = try (0..<24).map { try solidPNG("k\($0).png", transparent.contains($0) ? clear : opaque) }
        // Two cells on at a time (7 wheel notches, 840 points), each screen loaded before the next.
        let step: [InputScript.Command] = [.wheel(dx: 0, dy: -7), .waitForIdle]
        let (_, report, _) = try runViewer(paths) { options in
            options.script = InputScript(commands: [.waitForIdle] + Array(repeating: step, count: 6).flatMap { $0 })
        }
        XCTAssertEqual(report.errors.count, 0)
        // At most one texture of the second kind per cell; without the exchange every switch made one.
        XCTAssertGreaterThan(report.cellTexturesMadeInFrames, 0)
        XCTAssertLessThanOrEqual(report.cellTexturesMadeInFrames, report.cellsCreated)
    }

    func testEveryKindOfBadFileGivesAnErrorCellAndBrowsingGoesOn() throws {
        let good = RGBA(r: 240, g: 200, b: 20)
        var truncatedPNG = try Data(contentsOf: URL(fileURLWithPath: try solidPNG("full.png", good, width: 300, height: 200)))
        truncatedPNG = truncatedPNG.prefix(truncatedPNG.count / 2)
        // A PNG header claiming 60000x60000: refused before any allocation.
        var huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        huge += [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        var random = SystemRandomNumberGenerator()
        let noise = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }
        let paths = [
            try file("b1-empty.jpg", []),
            try file("b2-truncated.png", Array(truncatedPNG)),
            try file("b3-random.jpg", noise),
            try file("b4-text-named.jpg", Array("hello, I am text\n".utf8)),
            try file("b5-huge.png", huge),
            try solidPNG("b6-one-pixel.png", good, width: 1, height: 1),
            try solidPNG("b7-good.png", good),
            try solidPNG("b8-wrong-extension.jpg", good),  // a PNG named .jpg still shows
        ]
        let (frame, _, options) = try runViewer(paths) { options in
            options.carousel.rows = 2
            options.carousel.cellSize = Size(width: 240, height: 200)
        }
        for bad in 0..<5 {
            XCTAssertGreaterThan(errorPixels(in: frame, around: centre(of: bad, options: options), halfWidth: 100, halfHeight: 90), 100,
                                 "\(paths[bad]) shows an error cell")
        }
        let onePixel = centre(of: 5, options: options)
        let around = (-1...1).flatMap { dy in (-1...1).map { dx in frame.pixel(x: onePixel.x + dx, y: onePixel.y + dy) } }
        XCTAssertTrue(around.contains { $0.isClose(to: good) }, "1x1 image shown")
        for shown in [6, 7] {
            let c = centre(of: shown, options: options)
            XCTAssertTrue(frame.pixel(x: c.x, y: c.y).isClose(to: good), "\(paths[shown]) shown")
        }
    }

    func testHiDPIRendersCellsAtTwiceThePixels() throws {
        let red = RGBA(r: 220, g: 30, b: 30)
        let paths = [try solidPNG("c1.png", red, width: 800, height: 600), try solidPNG("c2.png", red, width: 800, height: 600)]
        let (frame, _, options) = try runViewer(paths) { $0.pixelScale = 2 }
        XCTAssertEqual(frame.width, 2560)
        let c = centre(of: 0, options: options, scale: 2)
        // The image fills the whole 800x600-pixel cell: its edges are red too, not just the middle.
        XCTAssertTrue(frame.pixel(x: c.x - 390, y: c.y - 290).isClose(to: red))
        XCTAssertTrue(frame.pixel(x: c.x + 390, y: c.y + 290).isClose(to: red))
    }
}
