import Foundation
import Synchronization
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling
@testable import TesseraUI

/// A plain image too large to show whole, while the tile cutter works on it: its tiles show as they are
/// written, the overview counts as sharp where it has the window's pixels, and the view asks for no tile
/// the cutter has not written. The cutter is held at its steps (`TiledViewOptions.cutStep`) by the test.
final class TiledCutViewTests: XCTestCase {
    private var folder: URL!
    private let gate = CutGate()

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cut-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        gate.openFully()
        try? FileManager.default.removeItem(at: folder)
    }

    /// No fade, a pixel limit that makes the fixtures count as giant, the cutter held by the gate.
    private func options() -> TiledViewOptions {
        var options = TiledViewHarness.options()
        options.pixelLimit = 100_000
        let gate = self.gate
        options.cutStep = { gate.step() }
        return options
    }

    /// How far a JPEG tile at the cutter's quality strays from the gradient.
    private let jpegLevels = 12.0

    func testFullResolutionTilesShowWhileTheCutGoesOn() throws {
        let image = TiledFixtures.gradient(width: 1024, height: 768)
        let path = folder.appendingPathComponent("large.png").path
        try PNGWriter.write(image, to: path)
        let harness = try TiledViewHarness(path: path, width: 512, height: 256, options: options())
        let view = harness.view
        try harness.run(until: { view.geometry != nil })
        XCTAssertTrue(view.isCutting)
        harness.send(.mouseMotion(x: 0, y: 0, isLeftDown: false))
        harness.press("1")
        try harness.frame()
        let origin = try XCTUnwrap(view.imageOriginInPixels)
        XCTAssertEqual(origin.x, 0, accuracy: 1e-9, "100 % at the top-left corner")
        XCTAssertEqual(origin.y, 0, accuracy: 1e-9)

        // The cutter asks once before it starts and once before each 16 rows: 17 steps read the first row
        // of 256-pixel tiles, three more go a little into the second, which stays unfinished.
        gate.allow(20)
        let top = try XCTUnwrap(view.geometry).maxLevel
        let onScreen = [TileID(level: top, column: 0, row: 0), TileID(level: top, column: 1, row: 0)]
        let frame = try harness.run(until: { onScreen.allSatisfy(view.heldTiles.contains) && view.isSharp })
        XCTAssertTrue(view.isCutting, "shown before the cut ends")
        // Above the progress bar; the cutter writes JPEG tiles, a few levels off.
        let result = TiledFixtures.mismatches(DeepZoomFixtures.crop(frame, PixelRegion(x: 0, y: 0, width: 512, height: 200)),
                                              view: view, image: image.size, floor: jpegLevels)
        XCTAssertGreaterThan(result.checked, 5000)
        XCTAssertEqual(result.count, 0, "full-resolution tiles: \(result.worst)")
        let report = harness.recorder.report()
        XCTAssertEqual(report.tilesFailed, 0, "nothing asked for that was not written")
        XCTAssertFalse(view.heldTiles.contains { $0.level == top && $0.row > 0 }, "the second row of tiles is not cut yet")

        gate.openFully()
        try harness.run(until: { !view.isCutting && view.isSharp && view.isIdle(now: harness.clock.now()) })
        XCTAssertEqual(harness.recorder.report().tilesFailed, 0)
        let finished = TiledFixtures.mismatches(try harness.frame(advance: .zero), view: view, image: image.size,
                                                floor: jpegLevels)
        XCTAssertEqual(finished.count, 0, "the finished pyramid: \(finished.worst)")
    }

    func testTheCutRunsBelowTheViewsPriority() throws {
        let image = TiledFixtures.gradient(width: 1024, height: 768)
        let path = folder.appendingPathComponent("large.png").path
        try PNGWriter.write(image, to: path)
        let cutThreadNice = Mutex<Int32?>(nil)
        var options = options()
        let gate = self.gate
        options.cutStep = {
            cutThreadNice.withLock { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
            gate.step()
        }
        let harness = try TiledViewHarness(path: path, width: 512, height: 256, options: options)
        try harness.run(until: { cutThreadNice.withLock { $0 } != nil })
        let viewNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        // Below the view's own decodes too, which run ten nice levels down.
        XCTAssertEqual(cutThreadNice.withLock { $0 }, min(19, viewNice + WorkerPriority.idle.niceIncrement),
                       "a cut never takes the CPU from the view's own work")
        gate.openFully()
        try harness.run(until: { !harness.view.isCutting })
    }

    func testAPyramidOfTheCacheIsReadWithoutHelpersAndAnOpenedOneWithThem() throws {
        let image = TiledFixtures.gradient(width: 1024, height: 768)
        let path = folder.appendingPathComponent("large.png").path
        try PNGWriter.write(image, to: path)
        var options = options()
        gate.openFully()
        let first = try TiledViewHarness(path: path, width: 512, height: 256, options: options)
        try first.run(until: { first.view.geometry != nil && !first.view.isCutting })

        let helpers = DecodeHelperPool(configuration: .init(executable: BuiltBinary.url(named: "tessera").path,
                                                            helperCount: 1, memoryLimit: 256 << 20))
        defer { helpers.shutdown() }
        options.decoding = SandboxedDecoding.service(in: helpers)
        let cached = try TiledViewHarness(path: path, width: 512, height: 256, options: options)
        cached.press("1")
        try cached.runUntilSharp()
        XCTAssertFalse(cached.view.isCutting, "the cached pyramid, not a new cut")
        XCTAssertEqual(cached.recorder.report().tilesFailed ?? 0, 0)
        let cachedSource = try XCTUnwrap(cached.view.tileSource as? DeepZoomTileSource)
        XCTAssertFalse(cachedSource.reader.loader.decoding.isolatesLibraries, "tiles this program cut are read in process")

        // Found by the file's metadata before anything reads it: no helper is waited for, even one that
        // cannot start.
        var withoutHelpers = options
        withoutHelpers.decoding = SandboxedDecoding(pool: DecodeHelperPool(configuration: .init(
            executable: "/nonexistent/tessera", helperCount: 1, memoryLimit: 0)))
        let unaided = try TiledViewHarness(path: path, width: 512, height: 256, options: withoutHelpers)
        unaided.press("1")
        try unaided.runUntilSharp()
        XCTAssertEqual(unaided.recorder.report().tilesFailed ?? 0, 0)

        let descriptor = try XCTUnwrap(FileManager.default.enumerator(atPath: options.pyramidCache.root)?
            .compactMap { $0 as? String }.first { $0.hasSuffix(".dzi") })
        let opened = try TiledViewHarness(path: options.pyramidCache.root + "/" + descriptor, width: 512, height: 256,
                                          options: options)
        opened.press("1")
        try opened.runUntilSharp()
        XCTAssertEqual(opened.recorder.report().tilesFailed ?? 0, 0)
        let openedSource = try XCTUnwrap(opened.view.tileSource as? DeepZoomTileSource)
        XCTAssertTrue((openedSource.reader.loader.decoding as? SandboxedDecoding)?.pool === helpers, "a .dzi the user opens is read in helpers")
    }

    func testAtFitAnOverviewWithTheWindowsPixelsIsSharpBeforeAnyTile() throws {
        // 1600x1067: its eighth-scale overview is 200x134, the window's size.
        let path = folder.appendingPathComponent("photo.jpg").path
        try FileManager.default.copyItem(atPath: SampleImages.url("img1-baseline.jpg").path, toPath: path)
        let harness = try TiledViewHarness(path: path, width: 200, height: 134, options: options())
        let view = harness.view
        try harness.run(until: { view.isSharp })
        XCTAssertTrue(view.isCutting, "the cutter has not written a tile")
        let report = harness.recorder.report()
        XCTAssertNotNil(report.sharpMs)
        XCTAssertEqual(report.tilesRequested ?? 0, 0, "nothing to ask for: the overview is as sharp")

        // Zoomed in past the overview's pixels, the view waits for tiles the cutter has not written.
        harness.press("+")
        for _ in 0..<10 { try harness.frame() }
        XCTAssertFalse(view.isSharp)
        XCTAssertEqual(harness.recorder.report().tilesRequested ?? 0, 0)

        // Back at fit once the cut has ended: the overview still stands for the fit level, whose tiles
        // are neither asked for on screen nor preloaded around it.
        gate.openFully()
        harness.press("0")
        try harness.run(until: { !view.isCutting && view.isSharp && view.isIdle(now: harness.clock.now()) })
        let geometry = try XCTUnwrap(view.geometry)
        let fitLevel = geometry.level(forScale: try XCTUnwrap(view.deviceScale))
        XCTAssertEqual(fitLevel, geometry.maxLevel - 3)
        XCTAssertFalse(view.heldTiles.contains { $0.level == fitLevel }, "\(view.heldTiles)")
    }
}

/// Holds the tile cutter at its steps until the test lets it take some, or all.
private final class CutGate: Sendable {
    private let permits = DispatchSemaphore(value: 0)
    private let open = Atomic<Bool>(false)

    func step() {
        if !open.load(ordering: .acquiring) { permits.wait() }
    }

    func allow(_ steps: Int) {
        for _ in 0..<steps { permits.signal() }
    }

    func openFully() {
        open.store(true, ordering: .releasing)
        allow(1)
    }
}
