import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraTiling
@testable import TesseraUI

/// The tiled view headless, read back pixel by pixel.
final class TiledImageViewTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-tiled-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testRoundTripAtSeveralZoomsMatchesTheSourceScaledTheSameWay() throws {
        let image = TiledFixtures.gradient(width: 1200, height: 800)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 64, overlap: 1, in: folder)
        let harness = try TiledViewHarness(path: path, width: 240, height: 180)
        let view = harness.view

        // Fit: 0.2 device pixels per image pixel, drawn from the level at 1/4 (300x200, shrunk by 0.8).
        var frame = try harness.runUntilSharp()
        XCTAssertEqual(view.zoom ?? 0, 0.2, accuracy: 1e-9)
        let geometry = try XCTUnwrap(view.geometry)
        XCTAssertEqual(geometry.level(forScale: 0.2), geometry.maxLevel - 2)
        var result = TiledFixtures.mismatches(frame, view: view, image: image.size)
        XCTAssertGreaterThan(result.checked, 500)
        XCTAssertEqual(result.count, 0, "fit: \(result.worst)")

        // Zoom in once (x1.41): the level at 1/2.
        harness.press("+")
        frame = try harness.runUntilSharp()
        XCTAssertEqual(geometry.level(forScale: view.deviceScale ?? 0), geometry.maxLevel - 1)
        result = TiledFixtures.mismatches(frame, view: view, image: image.size)
        XCTAssertEqual(result.count, 0, "x1.41: \(result.worst)")

        // 100 %: full-resolution tiles, one image pixel per device pixel.
        harness.send(.mouseMotion(x: 60, y: 50, isLeftDown: false))
        harness.press("1")
        frame = try harness.runUntilSharp()
        XCTAssertEqual(view.deviceScale ?? 0, 1, accuracy: 1e-9)
        result = TiledFixtures.mismatches(frame, view: view, image: image.size)
        XCTAssertEqual(result.count, 0, "100 %: \(result.worst)")

        // 4x past native: magnified with the nearest filter.
        harness.send(.wheel(dx: 0, dy: 20, x: 120, y: 90))
        frame = try harness.runUntilSharp()
        XCTAssertEqual(view.deviceScale ?? 0, 4, accuracy: 1e-9)
        result = TiledFixtures.mismatches(frame, view: view, image: image.size, floor: 1, nearest: true)
        XCTAssertEqual(result.count, 0, "400 %: \(result.worst)")
    }

    /// An SVG zoomed to 400 % is drawn at that size, tile by tile: an edge half way across one of its own
    /// pixels goes from black to white within one device pixel, where its picture at its own size
    /// magnified would show a grey pixel four device pixels wide (or a blurred ramp).
    func testAnSVGZoomedTo400PercentHasCrispEdges() throws {
        let path = folder.appendingPathComponent("edge.svg").path
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="120" height="90"><rect width="120" height="90" fill="white"/>            <rect width="50.5" height="90" fill="black"/></svg>
            """.utf8).write(to: URL(fileURLWithPath: path))
        let harness = try TiledViewHarness(path: path, width: 320, height: 240)
        let view = harness.view
        try harness.runUntilSharp()
        XCTAssertEqual(view.geometry, DeepZoomGeometry(width: 480, height: 360), "drawn up to 4x its own size")

        // The edge is at 50.5 x 8/3 = 134.7 when fitted; zoom about it to the limit.
        harness.send(.mouseMotion(x: 135, y: 120, isLeftDown: false))
        harness.send(.wheel(dx: 0, dy: 20, x: 135, y: 120))
        let frame = try harness.runUntilSharp()
        XCTAssertEqual(view.pictureScale ?? 0, 4, accuracy: 1e-9, "400 %")
        XCTAssertEqual(view.deviceScale ?? 0, 1, accuracy: 1e-9, "the largest level, one to one")
        XCTAssertEqual(view.title, "edge.svg 400%")
        let origin = try XCTUnwrap(view.imageOriginInPixels)
        let edge = Int((origin.x + 50.5 * 4).rounded(.down))
        XCTAssertTrue((40..<280).contains(edge), "the edge is on screen at \(edge)")
        let row = 120
        XCTAssertLessThan(Int(frame.pixel(x: edge - 1, y: row).r), 10, "black left of the edge")
        XCTAssertGreaterThan(Int(frame.pixel(x: edge + 1, y: row).r), 245, "white right of it")
        let grey = ((edge - 8)...(edge + 8)).filter { (11...244).contains(Int(frame.pixel(x: $0, y: row).r)) }
        XCTAssertLessThanOrEqual(grey.count, 1, "one pixel wide, not a ramp: \(grey)")
    }

    func testPlainImageIsShownDirectly() throws {
        let image = TiledFixtures.gradient(width: 300, height: 200)
        let path = folder.appendingPathComponent("plain.png").path
        try PNGWriter.write(image, to: path)
        let harness = try TiledViewHarness(path: path, width: 300, height: 200)
        let frame = try harness.runUntilSharp()
        let geometry = try XCTUnwrap(harness.view.geometry)
        XCTAssertEqual(geometry.tileCount(geometry.maxLevel), 1, "one texture, not tiles")
        let result = TiledFixtures.mismatches(frame, view: harness.view, image: image.size)
        XCTAssertEqual(result.count, 0, result.worst)
    }

    /// The window background is painted only around a fully tiled image, so each frame must still paint
    /// it everywhere the image no longer is: the software renderer keeps the last frame's pixels.
    func testZoomingOutLeavesNothingOfTheLargerImageBehind() throws {
        let image = TiledFixtures.gradient(width: 300, height: 200)
        let path = folder.appendingPathComponent("plain.png").path
        try PNGWriter.write(image, to: path)
        let harness = try TiledViewHarness(path: path, width: 400, height: 300)
        try harness.runUntilSharp()
        harness.press("+")
        harness.press("+")
        let zoomed = try harness.runUntilSharp()
        XCTAssertEqual(TiledFixtures.mismatches(zoomed, view: harness.view, image: image.size).count, 0)
        let corner = try XCTUnwrap(harness.view.imageOriginInPixels)
        XCTAssertLessThan(corner.x, 0, "zoomed in past the window's edges")
        XCTAssertLessThan(corner.y, 0)

        harness.press("-")
        harness.press("-")
        let frame = try harness.runUntilSharp()
        let zoom = try XCTUnwrap(harness.view.zoom), origin = try XCTUnwrap(harness.view.imageOriginInPixels)
        let shown = (x0: origin.x, y0: origin.y, x1: origin.x + zoom * 300, y1: origin.y + zoom * 200)
        XCTAssertGreaterThan(shown.y0, 10, "back at fit: bands above and below the image")
        var stale = 0, checked = 0
        for y in stride(from: 0, to: frame.height, by: 2) {
            for x in stride(from: 0, to: frame.width, by: 2) {
                let outside = Double(x) + 1 < shown.x0 || Double(x) > shown.x1 || Double(y) + 1 < shown.y0 || Double(y) > shown.y1
                guard outside else { continue }
                checked += 1
                if frame.pixel(x: x, y: y) != Theme.background { stale += 1 }
            }
        }
        XCTAssertGreaterThan(checked, 1000)
        XCTAssertEqual(stale, 0, "pixels around the image that are not the background")
        XCTAssertEqual(TiledFixtures.mismatches(frame, view: harness.view, image: image.size).count, 0)
    }

    func testLyingPyramidShowsWhatExistsAndMarksTheRest() throws {
        let image = TiledFixtures.gradient(width: 512, height: 384)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 128, overlap: 0, in: folder)
        let full = folder.appendingPathComponent("test_files/9")
        try FileManager.default.removeItem(at: full.appendingPathComponent("1_1.png"))
        try Data("garbage".utf8).write(to: full.appendingPathComponent("2_1.png"))
        let harness = try TiledViewHarness(path: path, width: 512, height: 384)
        harness.press("1")
        let frame = try harness.runUntilSharp()
        XCTAssertTrue(harness.view.isComplete, "a marked square is not a hole")
        XCTAssertEqual(harness.recorder.report().tilesFailed, 2)
        for (column, expectMark) in [(1, true), (2, true), (0, false), (3, false)] {
            var dark = 0, red = 0
            for y in (128 + 4)..<(256 - 4) {
                for x in (column * 128 + 4)..<(column * 128 + 124) {
                    let p = frame.pixel(x: x, y: y)
                    if p.isClose(to: Theme.missingTile, tolerance: 2) { dark += 1 }
                    if p.isClose(to: Theme.missingTileMark, tolerance: 2) { red += 1 }
                }
            }
            if expectMark {
                XCTAssertGreaterThan(dark, 10_000, "column \(column): dark square")
                XCTAssertGreaterThan(red, 200, "column \(column): red X")
            } else {
                XCTAssertEqual(dark + red, 0, "column \(column) drawn from its tile")
            }
        }
    }

    func testMalformedDescriptorStillShowsTheTiles() throws {
        let image = TiledFixtures.gradient(width: 300, height: 200)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 64, overlap: 1, in: folder)
        try "<Image TileSize=\"64\"".write(toFile: path, atomically: true, encoding: .utf8)
        let harness = try TiledViewHarness(path: path, width: 300, height: 200)
        let frame = try harness.runUntilSharp()
        XCTAssertEqual(harness.view.geometry, DeepZoomGeometry(width: 300, height: 200, tileSize: 64, overlap: 1))
        XCTAssertEqual(TiledFixtures.mismatches(frame, view: harness.view, image: image.size).count, 0)
    }

    func testUnreadableImageShowsTheReason() throws {
        let path = folder.appendingPathComponent("broken.jpg").path
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: path))
        let harness = try TiledViewHarness(path: path, width: 200, height: 100)
        try harness.run(until: { harness.view.errorText != nil })
        XCTAssertEqual(harness.view.errorText, "broken.jpg: Not an image")
        XCTAssertTrue(harness.view.isIdle(now: harness.clock.now()))
        let missing = try TiledViewHarness(path: folder.appendingPathComponent("none.jpg").path, width: 200, height: 100)
        try missing.run(until: { missing.view.errorText != nil })
        XCTAssertEqual(missing.view.errorText, "none.jpg: File not found")
    }

    /// A tile arriving on screen fades in over the coarser tile under it, linearly over 0.25 s; the tiles
    /// held when it opened appear at once.
    func testArrivingTileFadesInOverTheCoarserLevel() throws {
        let red = RGBA(r: 255, g: 0, b: 0), blue = RGBA(r: 0, g: 0, b: 255)
        let image = TiledFixtures.gradient(width: 512, height: 512)
        // Level 9 (full size, four tiles: the base level, read on open) red; level 8 blue.
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 256, overlap: 0, in: folder) { level, size in
            level == 9 ? PixelBuffer(width: size.width, height: size.height, filledWith: red)
                : level == 8 ? PixelBuffer(width: size.width, height: size.height, filledWith: blue) : nil
        }
        let harness = try TiledViewHarness(path: path, width: 256, height: 256,
                                           options: TiledViewHarness.options(fade: .default))
        let view = harness.view
        // Open, without letting the clock run: the base level (red) shows at once, no fade.
        var frame = try harness.run(until: { view.geometry != nil })
        while !view.heldTiles.contains(where: { $0.level == 9 }) { frame = try harness.frame(advance: .zero) }
        XCTAssertTrue(frame.pixel(x: 128, y: 128).isClose(to: red, tolerance: 1), "\(frame.pixel(x: 128, y: 128))")
        // Wait (in real time, the view's clock stopped) for the level-8 tile to arrive; it starts at alpha 0.
        let deadline = Date().addingTimeInterval(10)
        while !view.heldTiles.contains(TileID(level: 8, column: 0, row: 0)) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            frame = try harness.frame(advance: .zero)
        }
        XCTAssertTrue(frame.pixel(x: 128, y: 128).isClose(to: red, tolerance: 1), "alpha 0 at arrival")
        frame = try harness.frame(advance: .milliseconds(125))
        XCTAssertTrue(frame.pixel(x: 128, y: 128).isClose(to: RGBA(r: 128, g: 0, b: 128), tolerance: 3),
                      "half way at 0.125 s: \(frame.pixel(x: 128, y: 128))")
        XCTAssertFalse(view.isIdle(now: harness.clock.now()))
        XCTAssertFalse(view.isStill(now: harness.clock.now()), "a fade needs its frames")
        frame = try harness.frame(advance: .milliseconds(125))
        XCTAssertTrue(frame.pixel(x: 128, y: 128).isClose(to: blue, tolerance: 1), "opaque at 0.25 s")
        XCTAssertTrue(view.isStill(now: harness.clock.now()))
        XCTAssertEqual(harness.recorder.tiledViews.map(\.fadeSamplesMs), [[250]])
    }

    /// While the image opens, nothing on screen changes until the opening's wake, so the frame loop draws
    /// no frame meanwhile; it wakes by itself only when the view is to name the file it opens.
    func testAnOpeningIsStillUntilItsCaptionIsDue() throws {
        let image = TiledFixtures.gradient(width: 512, height: 512)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 256, overlap: 0, in: folder)
        let executor = WorkExecutor.manual()
        let harness = try TiledViewHarness(path: path, width: 256, height: 256, executor: executor)
        let view = harness.view
        let opened = harness.clock.now()
        try harness.frame(advance: .zero)
        XCTAssertFalse(view.isIdle(now: harness.clock.now()), "work is under way")
        XCTAssertTrue(view.isStill(now: harness.clock.now()))
        XCTAssertEqual(view.nextWake(now: harness.clock.now()), opened + TiledImageView.openingCaptionDelay)
        harness.clock.advance(by: .milliseconds(300))
        XCTAssertNil(view.nextWake(now: harness.clock.now()), "the caption is up: nothing more to wake for")
        try harness.run(until: {
            executor.runPending()
            return view.isSharp && view.isIdle(now: harness.clock.now())
        })
        XCTAssertTrue(view.isStill(now: harness.clock.now()))
    }

    func testTextureCacheKeepsCoarseLevelsWhilePanningFar() throws {
        let image = TiledFixtures.gradient(width: 2048, height: 256)
        let path = try TiledFixtures.writeDeepZoom(image, tileSize: 64, overlap: 0, in: folder)
        var options = TiledViewHarness.options()
        options.cacheLimitBytes = 40 * 64 * 64 * 4  // forty tiles
        // Levels up to 256x32 pinned; the base level is 128x16 (two tiles).
        options.policy = TilePyramidPolicy(pinnedLevelPixels: 256 * 32, baseLevelPixels: 128 * 16, baseLevelTiles: 4)
        let harness = try TiledViewHarness(path: path, width: 256, height: 256, options: options)
        let view = harness.view
        try harness.runUntilSharp()
        let geometry = try XCTUnwrap(view.geometry)
        XCTAssertEqual(view.geometry.map { $0.level(forScale: view.deviceScale ?? 0) }, 8, "fit shows the 256x32 level")
        harness.press("1")
        for _ in 0..<10 {
            harness.send(.wheel(dx: 5, dy: 0, x: 128, y: 128))  // 200 points to the right
            try harness.runUntilSharp()
        }
        XCTAssertTrue(view.isAtRightEdge)
        XCTAssertGreaterThan(view.evictedTiles, 0, "panning far must evict")
        for level in [7, 8] {
            for column in 0..<geometry.columns(level) {
                XCTAssertTrue(view.heldTiles.contains(TileID(level: level, column: column, row: 0)), "level \(level) kept")
            }
        }
        let fullLevel = view.heldTiles.filter { $0.level == geometry.maxLevel }.count
        XCTAssertLessThanOrEqual(fullLevel, 40, "the bound holds")
    }
}
