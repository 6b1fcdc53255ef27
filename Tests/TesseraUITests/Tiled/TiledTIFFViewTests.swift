import Foundation
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling
@testable import TesseraUI

/// Tiled and pyramidal TIFFs in the tiled view: read where they lie, level by level, nothing cut.
final class TiledTIFFViewTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tiff-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// No fade, and a pixel limit that makes the small fixtures count as giant.
    private func options() -> TiledViewOptions {
        var options = TiledViewHarness.options()
        options.pixelLimit = 100_000
        return options
    }

    func testAPyramidalTIFFShowsTheRightPixelsAtFitAndAt100PercentWithoutCutting() throws {
        let image = TiledFixtures.gradient(width: 1200, height: 800)
        for layout in [TIFFFixtures.Layout(tileSize: 128, compression: .deflate),
                       TIFFFixtures.Layout(bigTIFF: true, tileSize: 256, compression: .lzw, levelsAsSubIFDs: true)] {
            let path = folder.appendingPathComponent("pyramid-\(layout.levelsAsSubIFDs).tif").path
            try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 64), to: path, layout: layout)
            let options = options()
            let harness = try TiledViewHarness(path: path, width: 240, height: 180, options: options)
            let view = harness.view

            var frame = try harness.runUntilSharp()
            XCTAssertEqual(view.zoom ?? 0, 0.2, accuracy: 1e-9)
            XCTAssertEqual(view.geometry?.width, 1200)
            var result = TiledFixtures.mismatches(frame, view: view, image: image.size)
            XCTAssertGreaterThan(result.checked, 500)
            XCTAssertEqual(result.count, 0, "fit, subIFDs \(layout.levelsAsSubIFDs): \(result.worst)")

            harness.send(.mouseMotion(x: 60, y: 50, isLeftDown: false))
            harness.press("1")
            frame = try harness.runUntilSharp()
            XCTAssertEqual(view.deviceScale ?? 0, 1, accuracy: 1e-9)
            result = TiledFixtures.mismatches(frame, view: view, image: image.size)
            XCTAssertEqual(result.count, 0, "100 %, subIFDs \(layout.levelsAsSubIFDs): \(result.worst)")

            XCTAssertEqual(harness.recorder.report().tilesFailed, 0)
            XCTAssertFalse(FileManager.default.fileExists(atPath: options.pyramidCache.root), "nothing cut to disk")
        }
    }

    /// A TIFF OpenSlide knows as a slide (an Aperio description) is read through OpenSlide; a generic one
    /// through libtiff.
    func testAWholeSlideOpensThroughOpenSlide() throws {
        let image = TiledFixtures.gradient(width: 1200, height: 800)
        let levels = TIFFFixtures.pyramid(of: image, downTo: 256)
        let slide = folder.appendingPathComponent("slide.svs").path
        try TIFFFixtures.write(levels, to: slide, layout: .init(tileSize: 256, compression: .deflate,
                                                                description: "Aperio Image Library v11.2.1|AppMag = 20"))
        let generic = folder.appendingPathComponent("generic.tif").path
        try TIFFFixtures.write(levels, to: generic, layout: .init(tileSize: 256, compression: .deflate))
        for (path, isSlide) in [(slide, true), (generic, false)] {
            let harness = try TiledViewHarness(path: path, width: 240, height: 180, options: options())
            var frame = try harness.runUntilSharp()
            XCTAssertEqual(harness.view.tileSource is OpenSlideTileSource, isSlide, path)
            XCTAssertEqual(harness.view.tileSource is TiledTIFFSource, !isSlide, path)
            let fit = TiledFixtures.mismatches(frame, view: harness.view, image: image.size)
            XCTAssertEqual(fit.count, 0, "fit: \(path): \(fit.worst)")
            harness.send(.mouseMotion(x: 120, y: 90, isLeftDown: false))
            harness.press("1")
            frame = try harness.runUntilSharp()
            let result = TiledFixtures.mismatches(frame, view: harness.view, image: image.size)
            XCTAssertEqual(result.count, 0, "100 %: \(path): \(result.worst)")
        }
    }

    func testACorruptTileIsMarkedAndTheRestShown() throws {
        let image = TiledFixtures.gradient(width: 1024, height: 512)
        let path = folder.appendingPathComponent("corrupt.tif").path
        // Tiles of 256: the main image's tile 1 is the first row's second.
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 128), to: path,
                               layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let harness = try TiledViewHarness(path: path, width: 1024, height: 512, options: options())
        harness.press("1")
        let frame = try harness.runUntilSharp()
        XCTAssertEqual(harness.view.deviceScale ?? 0, 1, accuracy: 1e-9)
        XCTAssertTrue(harness.view.isComplete, "a marked square is not a hole")
        XCTAssertEqual(harness.recorder.report().tilesFailed, 1)
        let origin = try XCTUnwrap(harness.view.imageOriginInPixels)
        XCTAssertEqual(origin.x, 0, accuracy: 1e-9)
        for (column, row, expectMark) in [(1, 0, true), (2, 0, false), (3, 0, false), (1, 1, false), (2, 1, false)] {
            var dark = 0, red = 0
            for y in (row * 256 + 4)..<(row * 256 + 252) {
                for x in (column * 256 + 4)..<(column * 256 + 252) {
                    let p = frame.pixel(x: x, y: y)
                    if p.isClose(to: Theme.missingTile, tolerance: 2) { dark += 1 }
                    if p.isClose(to: Theme.missingTileMark, tolerance: 2) { red += 1 }
                }
            }
            if expectMark {
                XCTAssertGreaterThan(dark, 40_000, "tile \(column),\(row): dark square")
                XCTAssertGreaterThan(red, 300, "tile \(column),\(row): red X")
            } else {
                XCTAssertEqual(dark + red, 0, "tile \(column),\(row) drawn from the file")
                let (x, y) = (column * 256 + 100, row * 256 + 100)
                let want = TiledFixtures.gradientColour(x: Double(x), y: Double(y), width: 1024, height: 512)
                let got = frame.pixel(x: x, y: y)
                XCTAssertLessThanOrEqual(abs(Double(got.r) - want.r) + abs(Double(got.g) - want.g) + abs(Double(got.b) - want.b),
                                         6, "tile \(column),\(row): \(got) against \(want)")
            }
        }
    }

    /// With decode helpers (the viewer's default), libtiff, OpenSlide and librsvg read the files in them,
    /// and the view shows the same pixels; a corrupt tile is still one marked square.
    func testThroughHelpersTheSameFilesShowTheSamePixels() throws {
        let helpers = DecodeHelperPool(configuration: .init(executable: BuiltBinary.url(named: "tessera").path,
                                                            helperCount: 2, memoryLimit: 256 << 20))
        defer { helpers.shutdown() }
        var options = options()
        options.decoding = SandboxedDecoding.service(in: helpers)
        let image = TiledFixtures.gradient(width: 1200, height: 800)
        let levels = TIFFFixtures.pyramid(of: image, downTo: 256)
        let slide = folder.appendingPathComponent("slide.svs").path
        try TIFFFixtures.write(levels, to: slide, layout: .init(tileSize: 256, compression: .deflate,
                                                                description: "Aperio Image Library v11.2.1|AppMag = 20"))
        let generic = folder.appendingPathComponent("generic.tif").path
        try TIFFFixtures.write(levels, to: generic, layout: .init(tileSize: 256, compression: .deflate))
        for (path, isSlide) in [(slide, true), (generic, false)] {
            let harness = try TiledViewHarness(path: path, width: 240, height: 180, options: options)
            harness.send(.mouseMotion(x: 120, y: 90, isLeftDown: false))
            harness.press("1")
            let frame = try harness.runUntilSharp()
            let source = harness.view.tileSource
            XCTAssertTrue(((isSlide ? (source as? OpenSlideTileSource)?.decoding : (source as? TiledTIFFSource)?.decoding) as? SandboxedDecoding)?.pool === helpers,
                          "\(path) is read in helpers")
            let result = TiledFixtures.mismatches(frame, view: harness.view, image: image.size)
            XCTAssertEqual(result.count, 0, "100 %: \(path): \(result.worst)")
            XCTAssertEqual(harness.recorder.report().tilesFailed, 0, path)
        }

        let corrupt = folder.appendingPathComponent("corrupt.tif").path
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TiledFixtures.gradient(width: 1024, height: 512), downTo: 128),
                               to: corrupt, layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let harness = try TiledViewHarness(path: corrupt, width: 1024, height: 512, options: options)
        harness.press("1")
        _ = try harness.runUntilSharp()
        XCTAssertTrue(harness.view.isComplete, "a marked square is not a hole")
        XCTAssertEqual(harness.recorder.report().tilesFailed, 1)

        let drawing = folder.appendingPathComponent("drawing.svg").path
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="120" height="90"><rect width="120" height="90" fill="rgb(200,30,30)"/></svg>
            """.utf8).write(to: URL(fileURLWithPath: drawing))
        let svg = try TiledViewHarness(path: drawing, width: 240, height: 180, options: options)
        let frame = try svg.runUntilSharp()
        XCTAssertTrue(((svg.view.tileSource as? SVGTileSource)?.decoding as? SandboxedDecoding)?.pool === helpers, "the SVG is drawn in helpers")
        XCTAssertEqual(svg.recorder.report().tilesFailed, 0)
        XCTAssertTrue(frame.pixel(x: 120, y: 90).isClose(to: RGBA(r: 200, g: 30, b: 30), tolerance: 2), "the drawing shows")
    }
}
