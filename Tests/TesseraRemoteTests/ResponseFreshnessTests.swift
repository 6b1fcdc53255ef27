import Foundation
import Synchronization
import TesseraTestBasics
import TesseraTestSupport
import XCTest
@testable import TesseraRemote

/// `Cache-Control: max-age`: a kept copy the server calls fresh serves without a request; once stale, or
/// without max-age, it is revalidated.
final class ResponseFreshnessTests: XCTestCase {
    private typealias Response = LoopbackHTTPServer.Response
    private let received = Date(timeIntervalSince1970: 1_000_000)

    func testMaxAgeLessTheAgeAlreadySpentIsTheFreshness() {
        XCTAssertEqual(ResponseFreshness.freshUntil(cacheControl: "public, max-age=3600", age: nil, receivedAt: received),
                       received.addingTimeInterval(3600))
        XCTAssertEqual(ResponseFreshness.freshUntil(cacheControl: "max-age=\"600\"", age: "100", receivedAt: received),
                       received.addingTimeInterval(500))
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: "max-age=60", age: "60", receivedAt: received), "stale on arrival")
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: "max-age=3600, no-cache", age: nil, receivedAt: received))
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: "no-store", age: nil, receivedAt: received))
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: "public", age: nil, receivedAt: received))
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: "max-age=soon", age: nil, receivedAt: received))
        XCTAssertNil(ResponseFreshness.freshUntil(cacheControl: nil, age: nil, receivedAt: received))
    }

    func testAFreshCopyServesWithoutARequestAndAStaleOneIsRevalidated() throws {
        let dir = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let tile = Data((0..<3000).map { UInt8($0 % 251) })
        let path = "/t/0,0,256,256/256,256/0/default.jpg"
        server.setRoute(path) { request in
            request.header("If-None-Match") == "\"v1\"" ? Response(status: 304, headers: [("Cache-Control", "max-age=60")])
                : Response(headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60"), ("Content-Type", "image/jpeg")], body: tile)
        }
        let clock = WallClock(Date(timeIntervalSince1970: 2_000_000))
        let fetcher = HTTPFetcher(cacheFolder: dir.path("cache"), now: { clock.now })
        defer { fetcher.invalidate() }
        let url = server.url(path)

        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile)
        clock.advance(59)
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile, "fresh: served from the copy")
        XCTAssertEqual(server.requestCount(path), 1, "without asking the server")

        clock.advance(2)
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile, "stale: the 304 is answered from the copy")
        XCTAssertEqual(server.requests(path).map { $0.header("If-None-Match") }, [nil, "\"v1\""], "revalidated once stale")

        clock.advance(30)
        XCTAssertEqual(try fetcher.get(url, byteLimit: 1 << 20), tile)
        XCTAssertEqual(server.requestCount(path), 2, "the 304's max-age made the copy fresh again")
    }

    func testACopyWithoutMaxAgeIsRevalidatedEveryTime() throws {
        let dir = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        defer { server.stop() }
        let path = "/tile.png"
        server.setRoute(path) { request in
            request.header("If-None-Match") == "\"v1\"" ? Response(status: 304)
                : Response(headers: [("ETag", "\"v1\""), ("Content-Type", "image/png")], body: Data("tile".utf8))
        }
        let fetcher = HTTPFetcher(cacheFolder: dir.path("cache"))
        defer { fetcher.invalidate() }
        for _ in 0..<3 { XCTAssertEqual(try fetcher.get(server.url(path), byteLimit: 1 << 20), Data("tile".utf8)) }
        XCTAssertEqual(server.requestCount(path), 3)
    }
}

/// A wall clock the test moves.
private final class WallClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
