import Foundation
import Synchronization
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import TesseraTestSupport
import TesseraTiling
import XCTest
@testable import TesseraRemote

/// IIIF services and Deep Zoom pyramids over HTTP: trees cut by `TileCutter` into a temporary folder and
/// served file by file from a loopback server, read through `HTTPFetcher` as the view reads them, and
/// compared with the same trees read from disk.
final class RemoteTileSourceTests: LoopbackFetchingTestCase {
    private typealias Response = LoopbackHTTPServer.Response
    private let decoders = ImageDecoders.standard()

    /// A sample photo cut with `layout` into `dir`.
    private func cut(_ layout: TileLayoutKind, in dir: TemporaryDirectory, iiifID: String? = nil) throws -> TileCutResult {
        var options = TileCutterOptions()
        options.layout = layout
        options.tileSize = 256
        if let iiifID { options.iiifID = iiifID }
        return try TileCutter(options: options).cut(imageAt: SampleImages.url("img1-baseline.jpg").path,
                                                    into: dir.path("out"), name: "img")
    }

    private func failure(of body: () throws -> Void) -> TileSourceError.Reason? {
        do {
            try body()
            return nil
        } catch let error as TileSourceError {
            return error.reason
        } catch {
            XCTFail("not a TileSourceError: \(error)")
            return nil
        }
    }

    // MARK: - Reading

    func testAVersionThreeTreeReadsAsOnDisk() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(.iiif3, in: dir)
        let server = try makeServer()
        server.serveFiles(in: result.tilesFolder, at: "/iiif/img")
        let remote = try RemoteIIIFTileSource(infoURL: server.url("/iiif/img/info.json"), fetcher: makeFetcher(),
                                              decoders: decoders, colour: nil)
        let local = try IIIFTileSource(infoAt: dir.path("out/img/info.json"), decoders: decoders, colour: nil)
        XCTAssertEqual(remote.geometry, result.geometry)
        XCTAssertEqual(remote.base, server.url("/iiif/img"), "the id names another host: the URL given is used")
        XCTAssertEqual(remote.name, "img")
        let tile = TileID(level: result.geometry.maxLevel, column: 1, row: 1)
        XCTAssertTrue(try remote.loadTile(tile).bytes == local.loadTile(tile).bytes, "\(tile)")
        let coarse = TileID(level: 2, column: 0, row: 0)
        XCTAssertEqual(try remote.loadTile(coarse).size, result.geometry.levelSize(2), "scaled from the tree's last tile")
    }

    /// Version 2, whose `@id` names the same server under another path: the tiles are asked for there.
    func testAVersionTwoTreeIsReadWhereItsIDSays() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let result = try cut(.iiif2, in: dir, iiifID: server.url("/served"))
        server.serveFiles(in: result.tilesFolder, at: "/served/img")
        let info = try XCTUnwrap(FileManager.default.contents(atPath: dir.path("out/img/info.json")))
        server.setRoute("/alias/info.json") { _ in Response(headers: [("Content-Type", "application/json")], body: info) }
        let remote = try RemoteIIIFTileSource(infoURL: server.url("/alias/info.json"), fetcher: makeFetcher(),
                                              decoders: decoders, colour: nil)
        let local = try IIIFTileSource(infoAt: dir.path("out/img/info.json"), decoders: decoders, colour: nil)
        XCTAssertEqual(remote.geometry, result.geometry)
        XCTAssertEqual(remote.base, server.url("/served/img"))
        let tile = TileID(level: result.geometry.maxLevel, column: 0, row: 1)
        XCTAssertTrue(try remote.loadTile(tile).bytes == local.loadTile(tile).bytes, "\(tile)")
        XCTAssertEqual(server.requestCount("/alias/info.json"), 1)
    }

    func testADeepZoomPyramidReadsAsOnDisk() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(.dzi, in: dir)
        let server = try makeServer()
        server.serveFiles(in: dir.path("out"), at: "/dz")
        let remote = try RemoteDeepZoomTileSource(descriptorURL: server.url("/dz/img.dzi"), fetcher: makeFetcher(),
                                                  decoders: decoders, colour: nil)
        let local = try DeepZoomTileSource(descriptorAt: try XCTUnwrap(result.descriptorPath), decoders: decoders, colour: nil)
        XCTAssertEqual(remote.geometry, result.geometry)
        XCTAssertEqual(remote.tilesBase, server.url("/dz/img_files"))
        XCTAssertEqual(remote.name, "img.dzi")
        for tile in [TileID(level: result.geometry.maxLevel, column: 1, row: 0), TileID(level: 3, column: 0, row: 0)] {
            XCTAssertTrue(try remote.loadTile(tile).bytes == local.loadTile(tile).bytes, "\(tile)")
        }
    }

    // MARK: - Refusing

    func testANotFoundInfoJSONSaysSo() throws {
        let server = try makeServer()
        let url = server.url("/nothing/info.json")
        let reason = failure { _ = try RemoteIIIFTileSource(infoURL: url, fetcher: makeFetcher(), decoders: decoders) }
        XCTAssertEqual(reason, .unreachable("the server answered 404 Not Found"))
        XCTAssertEqual(reason?.shortText, "the server answered 404 Not Found")
    }

    func testAWebPageIsNoInfoJSON() throws {
        let server = try makeServer()
        server.setRoute("/login/info.json") { _ in
            Response(headers: [("Content-Type", "text/html")], body: Data("<!doctype html><p>Sign in</p>".utf8))
        }
        let reason = failure {
            _ = try RemoteIIIFTileSource(infoURL: server.url("/login/info.json"), fetcher: makeFetcher(), decoders: decoders)
        }
        XCTAssertEqual(reason, .unreachable("the server answered with a web page (Content-Type text/html), not the file"))
    }

    func testAnEnormousInfoJSONIsRefused() throws {
        let server = try makeServer()
        let huge = Data(repeating: UInt8(ascii: " "), count: IIIFTileSource.infoByteLimit + 10)
        server.setRoute("/huge/info.json") { _ in Response(body: huge) }
        server.setRoute("/sneaky/info.json") { _ in Response(body: huge, length: .chunked) }
        for path in ["/huge/info.json", "/sneaky/info.json"] {
            let reason = failure {
                _ = try RemoteIIIFTileSource(infoURL: server.url(path), fetcher: makeFetcher(), decoders: decoders)
            }
            guard case .unreachable(let why)? = reason else { return XCTFail("\(path): \(String(describing: reason))") }
            XCTAssertTrue(why.contains("over the limit"), why)
        }
    }

    func testAStalledServerTimesOut() throws {
        let server = try makeServer()
        server.setRoute("/slow.dzi") { _ in Response(stalls: true) }
        let started = ContinuousClock.now
        let reason = failure {
            _ = try RemoteDeepZoomTileSource(descriptorURL: server.url("/slow.dzi"), fetcher: makeFetcher(idleTimeout: .milliseconds(500)),
                                             decoders: decoders)
        }
        guard case .unreachable(let why)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertEqual(why, "the server did not answer in time (nothing arrived for 0.5 s)")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
    }

    func testARedirectAwayFromHTTPIsNotFollowed() throws {
        let server = try makeServer()
        server.setRoute("/moved/info.json") { _ in .redirect(to: "ftp://example.com/passwd") }
        let reason = failure {
            _ = try RemoteIIIFTileSource(infoURL: server.url("/moved/info.json"), fetcher: makeFetcher(), decoders: decoders)
        }
        guard case .unreachable(let why)? = reason else { return XCTFail("\(String(describing: reason))") }
        XCTAssertTrue(why.contains("ftp://example.com/passwd") && why.contains("not an http(s) URL"), why)
    }

    func testARedirectWithinHTTPIsFollowed() throws {
        let server = try makeServer()
        let descriptor = DeepZoomDescriptor(width: 300, height: 200, tileSize: 256, overlap: 1, format: "jpeg")
        server.setRoute("/new.dzi") { _ in Response(body: Data(descriptor.xml.utf8)) }
        server.setRoute("/old.dzi") { _ in .redirect(to: "/new.dzi") }
        let remote = try RemoteDeepZoomTileSource(descriptorURL: server.url("/old.dzi"), fetcher: makeFetcher(), decoders: decoders)
        XCTAssertEqual(remote.geometry, descriptor.geometry)
    }

    func testAFailingTileFailsAloneWithItsReason() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(.dzi, in: dir)
        let server = try makeServer()
        server.serveFiles(in: dir.path("out"), at: "/dz")
        let broken = TileID(level: result.geometry.maxLevel, column: 0, row: 0)
        server.setRoute("/dz/img_files/\(broken.level)/0_0.jpeg") { _ in Response(status: 500) }
        server.setRoute("/dz/img_files/\(broken.level)/1_0.jpeg") { _ in Response(body: Data("not a JPEG".utf8)) }
        let remote = try RemoteDeepZoomTileSource(descriptorURL: server.url("/dz/img.dzi"), fetcher: makeFetcher(), decoders: decoders)
        XCTAssertEqual(failure { _ = try remote.loadTile(broken) }, .unreadableTile("the server answered 500 Internal Server Error"))
        guard case .unreadableTile? = failure(of: { _ = try remote.loadTile(TileID(level: broken.level, column: 1, row: 0)) }) else {
            return XCTFail("a body that is no image is an unreadable tile")
        }
        XCTAssertNoThrow(try remote.loadTile(TileID(level: broken.level, column: 0, row: 1)), "the other tiles still load")
    }

    /// A level 2 server whose `info.json` lists no tiles would draw any region; it is refused, with why.
    /// A level 0 service must list its tiles (they are files); a level 1 or 2 server that lists none is
    /// asked for the requests of 512-pixel tiles, which it draws as asked (here, a tree of such tiles).
    func testAServiceListingNoTilesIsAskedForTilesOf512WhenItDrawsAnyRegion() throws {
        let server = try makeServer()
        let staticInfo = #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "x", "profile": "level0", "width": 5000, "height": 4000}"#
        server.setRoute("/static/img/info.json") { _ in Response(body: Data(staticInfo.utf8)) }
        let reason = failure {
            _ = try RemoteIIIFTileSource(infoURL: server.url("/static/img/info.json"), fetcher: makeFetcher(), decoders: decoders)
        }
        XCTAssertEqual(reason?.shortText, "Unreadable IIIF info.json: it names no tiles; a static tree has them")

        let dir = try TemporaryDirectory()
        var options = TileCutterOptions()
        options.layout = .iiif3
        options.tileSize = 512
        let result = try TileCutter(options: options).cut(imageAt: SampleImages.url("img1-baseline.jpg").path,
                                                          into: dir.path("out"), name: "img")
        server.serveFiles(in: result.tilesFolder, at: "/server/img")
        let drawing = #"{"@context": "http://iiif.io/api/image/3/context.json", "id": "x", "profile": "level2", "width": \#(result.geometry.width), "height": \#(result.geometry.height)}"#
        server.setRoute("/server/img/info.json") { _ in Response(body: Data(drawing.utf8)) }
        let remote = try RemoteIIIFTileSource(infoURL: server.url("/server/img/info.json"), fetcher: makeFetcher(),
                                              decoders: decoders, colour: nil)
        XCTAssertEqual(remote.geometry, result.geometry)
        let local = try IIIFTileSource(infoAt: dir.path("out/img/info.json"), decoders: decoders, colour: nil)
        let tile = TileID(level: result.geometry.maxLevel, column: 0, row: 0)
        XCTAssertTrue(try remote.loadTile(tile).bytes == local.loadTile(tile).bytes)
    }

    /// A tile nobody wants any more: its fetch ends when its cancellation is set, long before the server
    /// would be given up on, without counting as the server's failure, and its connection is closed.
    func testACancelledFetchEndsItsTransferAndSaysItWasCancelled() throws {
        let server = try makeServer()
        server.setRoute("/stalled.png") { _ in Response(stalls: true) }
        let fetcher = makeFetcher(idleTimeout: .seconds(60))
        let cancellation = DecodeCancellation()
        let outcome = Mutex<TileFetchError?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            do {
                _ = try fetcher.get(server.url("/stalled.png"), byteLimit: 1 << 20, cancellation: cancellation)
            } catch {
                outcome.withLock { $0 = error as? TileFetchError }
            }
            finished.signal()
        }.start()
        XCTAssertTrue(waitUntil { server.requestCount("/stalled.png") == 1 }, "the request reached the server")
        cancellation.cancel()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the fetch ended on its cancellation")
        let error = try XCTUnwrap(outcome.withLock { $0 })
        XCTAssertTrue(error.isCancelled, "\(error)")
        XCTAssertNil(error.status)
        XCTAssertTrue(waitUntil { server.hangUpCount("/stalled.png") == 1 }, "the server saw the connection closed")

        let again = DecodeCancellation()
        again.cancel()
        XCTAssertThrowsError(try fetcher.get(server.url("/stalled.png"), byteLimit: 1 << 20, cancellation: again)) { error in
            XCTAssertTrue((error as? TileFetchError)?.isCancelled == true, "\(error)")
        }
        XCTAssertEqual(server.requestCount("/stalled.png"), 1, "a fetch cancelled before it starts sends nothing")
    }

    /// Polls `condition` for up to 10 s.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    /// Twelve workers fetching from one host at once: no more than six connections are open to it.
    func testAHostGetsAtMostSixConnections() throws {
        let server = try makeServer()
        server.setRoute("/slow") { _ in Response(body: Data("x".utf8), delay: .milliseconds(300)) }
        let fetcher = makeFetcher()
        let url = server.url("/slow")
        let failures = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        // Threads of their own: a pool of the machine's core count would never have twelve at once.
        for _ in 0..<12 {
            Thread {
                if (try? fetcher.get(url, byteLimit: 10)) == nil { failures.withLock { $0 += 1 } }
                finished.signal()
            }.start()
        }
        for _ in 0..<12 { finished.wait() }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertGreaterThan(server.maxConcurrentRequests, 1, "the fetches overlapped")
        XCTAssertEqual(server.requestCount("/slow"), 12)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 6)
    }

    func testOnlyHTTPIsFetched() {
        let fetcher = makeFetcher()
        XCTAssertThrowsError(try fetcher.get("file:///etc/passwd", byteLimit: 100)) { error in
            XCTAssertEqual((error as? TileFetchError)?.reason, "not an http(s) URL")
        }
    }

    // MARK: - The kept copies

    /// What a fetcher with a cache folder fetched is kept with its validators: the next fetch asks whether
    /// it changed and a 304 is answered from the copy; with the server gone, the copy serves.
    func testAKeptCopyIsRevalidatedAndServesOffline() throws {
        let dir = try TemporaryDirectory()
        let server = try makeServer()
        let tile = Data((0..<5000).map { UInt8($0 % 251) })
        server.setRoute("/t/0,0,512,512/512,512/0/default.jpg") { request in
            request.header("If-None-Match") == "\"v1\"" ? Response(status: 304)
                : Response(headers: [("ETag", "\"v1\""), ("Content-Type", "image/jpeg")], body: tile)
        }
        let fetcher = keep(HTTPFetcher(cacheFolder: dir.path("cache")))
        let url = server.url("/t/0,0,512,512/512,512/0/default.jpg")
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile)
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile, "the 304 is answered from the copy")
        let asked = server.requests("/t/0,0,512,512/512,512/0/default.jpg")
        XCTAssertEqual(asked.count, 2)
        XCTAssertNil(asked[0].header("If-None-Match"))
        XCTAssertEqual(asked[1].header("If-None-Match"), "\"v1\"", "the second fetch asks whether it changed")
        server.stop()
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile, "offline, the copy serves")
        XCTAssertThrowsError(try makeFetcher().get(url, byteLimit: 1 << 20), "a fetcher without the copy fails")
    }
}
