import Foundation
import Synchronization
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraRemote
@testable import TesseraTiling
@testable import TesseraUI

/// A remote Deep Zoom pyramid whose server fails or stalls chosen tiles, shown headless on the test's clock:
/// a failed tile is an error square where nothing coarser is held while the rest of the image shows, it is
/// tried again by itself (or on `r`) and fades in when it comes, and a stalled fetch that leaves the screen
/// is ended so that what is on screen loads.
final class TiledRemoteFailureTests: XCTestCase {
    private typealias Response = LoopbackHTTPServer.Response
    private var servers: [LoopbackHTTPServer] = []
    private var fetchers: [HTTPFetcher] = []
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-remote-failures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for fetcher in fetchers { fetcher.invalidate() }
        for server in servers { server.stop() }
        fetchers = []
        servers = []
        try? FileManager.default.removeItem(at: folder)
    }

    /// How the server answers a tile's path: as the file, with a 500, or not at all.
    private enum Answer: Sendable { case file, serverError, stall, late }

    /// The answers the test changes while the server runs, by path (the file where none is set).
    private final class Answers: Sendable {
        let byPath: Mutex<[String: Answer]>
        init(_ byPath: [String: Answer] = [:]) { self.byPath = Mutex(byPath) }
        func withLock<R>(_ body: (inout [String: Answer]) -> R) -> R { byPath.withLock { body(&$0) } }
    }

    /// The gradient's pyramid (PNG tiles of 128) served under `/p`, each path answered as `answers` says
    /// when it says (the file otherwise).
    private func servedPyramid(width: Int, height: Int,
                               answers: Answers) throws -> (server: LoopbackHTTPServer, url: String) {
        let image = TiledFixtures.gradient(width: width, height: height)
        _ = try TiledFixtures.writeDeepZoom(image, tileSize: 128, overlap: 0, in: folder)
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let root = folder.path
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root))
        for case let relative as String in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue,
                  let body = FileManager.default.contents(atPath: root + "/" + relative) else { continue }
            let path = "/p/" + relative
            server.setRoute(path) { _ in
                switch answers.withLock({ $0[path] }) ?? .file {
                case .file: Response(headers: [("Content-Type", "image/png")], body: body)
                case .serverError: Response(status: 500)
                case .stall: Response(stalls: true)
                case .late: Response(headers: [("Content-Type", "image/png")], body: body, delay: .milliseconds(150))
                }
            }
        }
        return (server, server.url("/p/test.dzi"))
    }

    private static func tilePath(_ tile: TileID) -> String { "/p/test_files/\(tile.level)/\(tile.column)_\(tile.row).png" }

    /// `tile` and every tile above it up to the one-pixel level: failing them all leaves its place with no
    /// coarser picture.
    private static func chain(of tile: TileID, in geometry: DeepZoomGeometry) -> [TileID] {
        var tiles = [tile]
        while let parent = geometry.parent(of: tiles[tiles.count - 1]) { tiles.append(parent) }
        return tiles
    }

    private func harness(_ url: String, width: Int, height: Int, retry: TileRetryPolicy, fade: FadeTiming = .default,
                         openAt: (pictureScale: Double, x: Double, y: Double)? = nil) -> TiledViewHarness? {
        var limits = HTTPFetcher.Limits()
        // Longer than any wait here: a fetch that ends did so because it was cancelled, not given up on.
        limits.idleTimeout = .seconds(60)
        let fetcher = HTTPFetcher(limits: limits)
        fetchers.append(fetcher)
        var options = TiledViewHarness.options(fade: fade)
        options.fetcher = fetcher
        options.tileRetry = retry
        options.openAt = openAt
        return try? TiledViewHarness(path: url, width: width, height: height, options: options)
    }

    /// Pixels of `frame` in `tile`'s place (at 100 % with the image's corner at the window's), a few in
    /// from its edges, that are the error square's muted fill.
    private static func errorSquareShare(_ frame: PixelBuffer, _ tile: TileID, side: Int = 128) -> Double {
        var muted = 0, all = 0
        for y in (tile.row * side + 4)..<(tile.row * side + side - 4) {
            for x in (tile.column * side + 4)..<(tile.column * side + side - 4) {
                all += 1
                if frame.pixel(x: x, y: y).isClose(to: Theme.missingTile, tolerance: 2) { muted += 1 }
            }
        }
        return Double(muted) / Double(all)
    }

    /// Whether `frame` shows the gradient at image point (x, y) (at 100 %, the image's corner at the window's).
    private static func showsGradient(_ frame: PixelBuffer, x: Int, y: Int, width: Int, height: Int) -> Bool {
        let want = TiledFixtures.gradientColour(x: Double(x), y: Double(y), width: width, height: height)
        let got = frame.pixel(x: x, y: y)
        return abs(Double(got.r) - want.r) <= 3 && abs(Double(got.g) - want.g) <= 3 && abs(Double(got.b) - want.b) <= 3
    }

    // MARK: -

    /// The server fails one tile and everything coarser over its place: that place is an error square and
    /// the other tiles are drawn; once the server answers, the tile comes on its own retry and fades in.
    func testAFailedTileIsAnErrorSquareUntilItsRetrySucceedsAndFadesIn() throws {
        let (width, height) = (512, 384)
        let geometry = DeepZoomGeometry(width: width, height: height, tileSize: 128)
        let broken = TileID(level: geometry.maxLevel, column: 1, row: 1)
        let answers = Answers()
        answers.withLock { answers in
            for tile in Self.chain(of: broken, in: geometry) { answers[Self.tilePath(tile)] = .serverError }
        }
        let (server, url) = try servedPyramid(width: width, height: height, answers: answers)
        let harness = try XCTUnwrap(harness(url, width: width, height: height,
                                            retry: TileRetryPolicy(firstDelay: .seconds(1), longestDelay: .seconds(1), automaticRetries: 100)))
        let others = geometry.tiles(in: geometry.maxLevel, intersecting: geometry.levelRegion(
            covering: PixelRegion(x: 0, y: 0, width: width, height: height), in: geometry.maxLevel)).filter { $0 != broken }
        try harness.run(until: {
            Set(harness.view.heldTiles).isSuperset(of: others) && harness.view.failedTileCount > 0
                && server.requestCount(Self.tilePath(broken)) > 0
        })
        var frame = try harness.frame(advance: .zero)
        XCTAssertEqual(harness.view.deviceScale ?? 0, 1, accuracy: 1e-9, "fitted at 100 %")
        XCTAssertGreaterThan(Self.errorSquareShare(frame, broken), 0.8, "the failed tile's place is an error square")
        XCTAssertTrue(harness.view.isComplete, "an error square is not a hole")
        for tile in others {
            let (x, y) = (tile.column * 128 + 40, tile.row * 128 + 40)
            XCTAssertTrue(Self.showsGradient(frame, x: x, y: y, width: width, height: height), "\(tile) is drawn: \(frame.pixel(x: x, y: y))")
            XCTAssertLessThan(Self.errorSquareShare(frame, tile), 0.01, "\(tile) is no error square")
        }
        let failedTries = server.requestCount(Self.tilePath(broken))

        // The server recovers for the tile (not for the coarser ones, so nothing stands in its place meanwhile).
        answers.withLock { $0[Self.tilePath(broken)] = nil }
        try harness.run(until: { harness.view.heldTiles.contains(broken) })
        XCTAssertGreaterThan(server.requestCount(Self.tilePath(broken)), failedTries, "tried again by itself")
        // The frame it arrived in drew it at the start of its fade.
        frame = try harness.frame(advance: .zero)
        let (x, y) = (broken.column * 128 + 48, broken.row * 128 + 48)
        XCTAssertFalse(Self.showsGradient(frame, x: x, y: y, width: width, height: height), "not at once: \(frame.pixel(x: x, y: y))")
        XCTAssertLessThan(Self.errorSquareShare(frame, broken), 0.01, "the error square is gone")
        frame = try harness.frame(advance: .milliseconds(300))
        XCTAssertTrue(Self.showsGradient(frame, x: x, y: y, width: width, height: height), "faded in: \(frame.pixel(x: x, y: y))")
    }

    /// Without automatic retries a failed tile stays failed, whatever the time, until `r`.
    func testTheRetryKeyTriesFailedTilesAgainAtOnce() throws {
        let (width, height) = (512, 384)
        let geometry = DeepZoomGeometry(width: width, height: height, tileSize: 128)
        let broken = TileID(level: geometry.maxLevel, column: 2, row: 1)
        let answers = Answers()
        answers.withLock { answers in
            for tile in Self.chain(of: broken, in: geometry) { answers[Self.tilePath(tile)] = .serverError }
        }
        let (server, url) = try servedPyramid(width: width, height: height, answers: answers)
        let harness = try XCTUnwrap(harness(url, width: width, height: height, retry: .never, fade: .none))
        try harness.runUntilSharp()
        XCTAssertGreaterThan(Self.errorSquareShare(try harness.frame(advance: .zero), broken), 0.8)
        let tries = server.requestCount(Self.tilePath(broken))
        XCTAssertGreaterThan(tries, 0)

        answers.withLock { $0 = [:] }
        for _ in 0..<5 { try harness.frame(advance: .seconds(10)) }
        XCTAssertEqual(server.requestCount(Self.tilePath(broken)), tries, "no retry by itself")
        harness.press("r")
        let frame = try harness.run(until: { harness.view.heldTiles.contains(broken) && harness.view.isIdle(now: harness.clock.now()) })
        XCTAssertEqual(server.requestCount(Self.tilePath(broken)), tries + 1)
        XCTAssertEqual(harness.view.failedTileCount, 0, "every failed tile was tried again, and came")
        let (x, y) = (broken.column * 128 + 40, broken.row * 128 + 40)
        XCTAssertTrue(Self.showsGradient(frame, x: x, y: y, width: width, height: height), "\(frame.pixel(x: x, y: y))")
    }

    /// Tiles whose server never answers are on screen, then the view moves away: their fetches end (the
    /// server sees the connections closed), which frees the workers for the tiles now on screen, and
    /// nothing counts as failed. Without the cancellation the workers would wait a minute for the stalled
    /// server, past the harness's 10 s.
    func testStalledFetchesThatLeaveTheScreenAreEndedAndFreeTheirWorkers() throws {
        let (width, height) = (1024, 384)
        let geometry = DeepZoomGeometry(width: width, height: height, tileSize: 128)
        let level = geometry.maxLevel
        let stalled = (0..<4).flatMap { column in (0..<3).map { TileID(level: level, column: column, row: $0) } }
        let answers = Answers(Dictionary(uniqueKeysWithValues: stalled.map { (Self.tilePath($0), .stall) }))
        let (server, url) = try servedPyramid(width: width, height: height, answers: answers)
        let harness = try XCTUnwrap(harness(url, width: 256, height: 256, retry: TileRetryPolicy(), fade: .none,
                                            openAt: (pictureScale: 1, x: 0, y: 0.5)))
        func stalledRequests() -> Int { stalled.reduce(0) { $0 + server.requestCount(Self.tilePath($1)) } }
        try harness.run(until: { stalledRequests() >= harness.executor.workerCount })
        XCTAssertFalse(harness.view.isSharp, "the tiles on screen are stalled")

        harness.view.follow(TiledImageView.Framing(centre: Point(x: 0.875, y: 0.5), shownWidth: Double(width), isFitted: false),
                            now: harness.clock.now())
        try harness.runUntilSharp()
        XCTAssertEqual(harness.view.failedTileCount, 0, "a cancelled fetch is no failure")
        let hungUp = { stalled.reduce(0) { $0 + server.hangUpCount(Self.tilePath($1)) } }
        let deadline = Date().addingTimeInterval(10)
        while hungUp() == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        XCTAssertGreaterThan(hungUp(), 0, "the stalled transfers were ended")
        XCTAssertLessThanOrEqual(stalledRequests(), stalled.count, "no stalled tile was asked for twice")
    }

    /// Past the opening, the view's tiles are fetched six at once (the per-host limit), more than its two
    /// workers, which only decode: a slow server's latency is waited out side by side.
    func testTilesAreFetchedSixAtOnceWhileTwoWorkersDecodeThem() throws {
        let (width, height) = (1024, 768)
        let geometry = DeepZoomGeometry(width: width, height: height, tileSize: 128)
        let finest = geometry.tiles(in: geometry.maxLevel, intersecting: geometry.levelRegion(
            covering: PixelRegion(x: 0, y: 0, width: width, height: height), in: geometry.maxLevel))
        let answers = Answers(Dictionary(uniqueKeysWithValues: finest.map { (Self.tilePath($0), .late) }))
        let (server, url) = try servedPyramid(width: width, height: height, answers: answers)
        let harness = try XCTUnwrap(harness(url, width: 512, height: 384, retry: TileRetryPolicy(), fade: .none,
                                            openAt: (pictureScale: 1, x: 0.5, y: 0.5)))
        XCTAssertEqual(harness.executor.workerCount, 2)
        try harness.run(until: { harness.view.geometry != nil })
        server.resetMaxConcurrentRequests()
        try harness.runUntilSharp()
        XCTAssertGreaterThan(finest.filter { server.requestCount(Self.tilePath($0)) > 0 }.count, 6, "the screen took many tiles")
        XCTAssertGreaterThan(server.maxConcurrentRequests, harness.executor.workerCount, "fetches overlap beyond the workers")
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 6, "within the per-host limit")
        XCTAssertEqual(harness.view.failedTileCount, 0)
    }
}
