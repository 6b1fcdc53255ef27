import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTestSupport
import XCTest
@testable import TesseraRemote

/// The store against a real HTTP server on the loopback interface: the network, the disk cache and the
/// table together. Longer than most test files because every test shares the same loopback servers, stores
/// and cache folder, which `tearDown` stops and removes.
final class RemoteImageStoreTests: XCTestCase {
    private var cacheFolder = ""
    private var servers: [LoopbackHTTPServer] = []
    private var stores: [RemoteImageStore] = []

    override func setUpWithError() throws {
        cacheFolder = NSTemporaryDirectory() + "tessera-remote-tests-" + UUID().uuidString
    }

    override func tearDown() {
        for store in stores { store.shutdown() }
        for server in servers { server.stop() }
        stores = []
        servers = []
        try? FileManager.default.removeItem(atPath: cacheFolder)
    }

    // MARK: - Downloading

    func testImageDownloadsIntoAReadyFileWithItsMetadata() throws {
        let body = pngBody("first")
        let server = try makeServer(["/a.png": { _ in
            Response(headers: [("ETag", "\"v1\""), ("Content-Type", "image/png")], body: body)
        }])
        let changes = Atomic<Int>(0)
        let store = makeStore(onChange: { changes.add(1, ordering: .relaxed) })

        XCTAssertEqual(store.state(of: server.url("/a.png")), .notStarted)
        store.fetch(server.url("/a.png"), priority: 0)
        XCTAssertEqual(store.state(of: server.url("/a.png")), .inFlight)
        let (path, version) = try readyFile(store, server.url("/a.png"))

        XCTAssertEqual(FileManager.default.contents(atPath: path), body)
        XCTAssertEqual(FileVersion.ofFile(atPath: path), version)
        XCTAssertEqual(path, cacheFolder + "/" + CacheFileName.md5Hex(server.url("/a.png")))
        let metadata = try JSONDecoder().decode(CachedResponseMetadata.self,
                                                from: XCTUnwrap(FileManager.default.contents(atPath: path + ".json")))
        XCTAssertEqual(metadata, CachedResponseMetadata(url: server.url("/a.png"), etag: "\"v1\"",
                                                        lastModified: nil, contentType: "image/png"))
        let counters = store.counterValues
        XCTAssertEqual(counters.started, 1)
        XCTAssertEqual(counters.completed, 1)
        XCTAssertEqual(counters.bytesDownloaded, Int64(body.count))
        XCTAssertEqual(store.runningCount, 0)
        XCTAssertGreaterThanOrEqual(changes.load(ordering: .relaxed), 1)
        // Our own cache is the only one: no conditional headers without a cached copy.
        XCTAssertNil(server.requests("/a.png").first?.header("If-None-Match"))
        XCTAssertEqual(attributes(of: path)[.posixPermissions] as? Int, 0o600)
        assertNoPartialFiles()
    }

    func testJPEGBodyIsAcceptedAndRedirectIsFollowed() throws {
        let body = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 100))
        let server = try makeServer([
            "/old.jpg": { _ in .redirect(to: "/new.jpg") },
            "/new.jpg": { _ in Response(body: body) },
        ])
        let store = makeStore()
        store.fetch(server.url("/old.jpg"), priority: 0)
        let (path, _) = try readyFile(store, server.url("/old.jpg"))
        XCTAssertEqual(FileManager.default.contents(atPath: path), body)
        XCTAssertEqual(server.requestCount("/new.jpg"), 1)
    }

    func testTwoFetchesOfOneURLMakeOneRequest() throws {
        let server = try makeServer(["/a.png": { _ in Response(body: pngBody("a"), delay: .milliseconds(150)) }])
        let store = makeStore()
        store.fetch(server.url("/a.png"), priority: 3)
        store.fetch(server.url("/a.png"), priority: 1)
        _ = try readyFile(store, server.url("/a.png"))
        // Ready: a further fetch does nothing either.
        store.fetch(server.url("/a.png"), priority: 0)
        XCTAssertEqual(server.requestCount("/a.png"), 1)
        XCTAssertEqual(store.counterValues.started, 1)
    }

    func testPerHostLimitHoldsAndEveryDownloadCompletes() throws {
        let paths = (1...6).map { "/slow\($0).png" }
        var routes: [String: LoopbackHTTPServer.Route] = [:]
        for path in paths {
            routes[path] = { _ in Response(body: pngBody(path), delay: .milliseconds(120)) }
        }
        let server = try makeServer(routes)
        let store = makeStore { $0.perHostLimit = 2 }
        for (index, path) in paths.enumerated() { store.fetch(server.url(path), priority: index) }
        XCTAssertEqual(store.runningCount, 2)
        XCTAssertEqual(store.queuedCount, 4)

        for path in paths { _ = try readyFile(store, server.url(path)) }
        XCTAssertEqual(server.maxConcurrentRequests, 2, "the server saw more (or fewer) than the limit at once")
        XCTAssertEqual(store.maxRunningPerHostObserved, 2)
        XCTAssertEqual(store.counterValues.completed, 6)
        XCTAssertEqual(store.queuedCount, 0)
    }

    func testQueuedDownloadsStartByPriorityAndTakeNewPriorities() throws {
        var routes: [String: LoopbackHTTPServer.Route] = ["/block.png": { _ in
            Response(body: pngBody("block"), delay: .milliseconds(200))
        }]
        for name in ["p1", "p3", "p5"] { routes["/\(name).png"] = { _ in Response(body: pngBody(name)) } }
        let server = try makeServer(routes)
        let store = makeStore { $0.perHostLimit = 1 }
        store.fetch(server.url("/block.png"), priority: 0)
        store.fetch(server.url("/p5.png"), priority: 5)
        store.fetch(server.url("/p1.png"), priority: 1)
        store.fetch(server.url("/p3.png"), priority: 3)
        store.fetch(server.url("/p5.png"), priority: 0)   // moved ahead while still queued

        for name in ["p1", "p3", "p5"] { _ = try readyFile(store, server.url("/\(name).png")) }
        XCTAssertEqual(server.requestLog, ["/block.png", "/p5.png", "/p1.png", "/p3.png"])
    }

    func testRetainQueuedDropsQueuedDownloadsOnly() throws {
        var routes: [String: LoopbackHTTPServer.Route] = ["/running.png": { _ in
            Response(body: pngBody("running"), delay: .milliseconds(200))
        }]
        for name in ["q1", "q2", "q3"] { routes["/\(name).png"] = { _ in Response(body: pngBody(name)) } }
        let server = try makeServer(routes)
        let store = makeStore { $0.perHostLimit = 1 }
        for (index, path) in ["/running.png", "/q1.png", "/q2.png", "/q3.png"].enumerated() {
            store.fetch(server.url(path), priority: index)
        }
        // The running one is not in the set and finishes anyway; of the queued, only q2 stays.
        store.retainQueued([server.url("/q2.png")])
        XCTAssertEqual(store.state(of: server.url("/q1.png")), .notStarted)
        XCTAssertEqual(store.state(of: server.url("/q3.png")), .notStarted)
        XCTAssertEqual(store.state(of: server.url("/running.png")), .inFlight)
        XCTAssertEqual(store.queuedCount, 1)
        XCTAssertEqual(store.counterValues.cancelledQueued, 2)

        _ = try readyFile(store, server.url("/running.png"))
        _ = try readyFile(store, server.url("/q2.png"))
        XCTAssertEqual(server.requestCount("/q1.png"), 0)
        XCTAssertEqual(server.requestCount("/q3.png"), 0)
    }

    // MARK: - Failures

    func testConnectionRefused() throws {
        let url = "http://127.0.0.1:\(LoopbackHTTPServer.closedPort())/a.png"
        let store = makeStore()
        store.fetch(url, priority: 0)
        let failure = try failed(store, url)
        XCTAssertEqual(failure.shortText, "Connection refused")
        XCTAssertTrue(failure.detail.contains(url), failure.detail)
        XCTAssertEqual(store.counterValues.failed, 1)
    }

    func testNotFoundAndServerError() throws {
        let server = try makeServer(["/broken.png": { _ in Response(status: 500, body: Data("oops".utf8)) }])
        let store = makeStore()
        store.fetch(server.url("/missing.png"), priority: 0)
        store.fetch(server.url("/broken.png"), priority: 0)
        XCTAssertEqual(try failed(store, server.url("/missing.png")).shortText, "Not found (404)")
        let serverError = try failed(store, server.url("/broken.png"))
        XCTAssertEqual(serverError.shortText, "HTTP 500")
        XCTAssertTrue(serverError.detail.contains("500"), serverError.detail)
        assertNoPartialFiles()
        XCTAssertFalse(FileManager.default.fileExists(atPath: cacheFolder + "/" + CacheFileName.md5Hex(server.url("/missing.png"))))
    }

    func testStalledServerTimesOut() throws {
        let server = try makeServer([
            "/silent.png": { _ in Response(stalls: true) },
            "/headers-only.png": { _ in Response(body: pngBody("never"), stalls: true, stallsAfterHeaders: true) },
        ])
        let store = makeStore { $0.timeout = .milliseconds(300) }
        let started = ContinuousClock.now
        store.fetch(server.url("/silent.png"), priority: 0)
        store.fetch(server.url("/headers-only.png"), priority: 0)
        XCTAssertEqual(try failed(store, server.url("/silent.png")).shortText, "Timed out")
        let midBody = try failed(store, server.url("/headers-only.png"))
        XCTAssertEqual(midBody.shortText, "Timed out")
        XCTAssertTrue(midBody.detail.contains("nothing arrived for 0.3 s"), midBody.detail)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        assertNoPartialFiles()
    }

    func testTricklingServerHitsTheOverallCap() throws {
        // Each byte comes sooner than the idle timeout, but the whole takes longer than 2 x 0.2 s.
        let server = try makeServer(["/trickle.png": { _ in
            Response(body: pngBody("trickle"), length: .honest, trickle: .milliseconds(100))
        }])
        let store = makeStore {
            $0.timeout = .milliseconds(200)
            $0.overallTimeoutFactor = 2
        }
        store.fetch(server.url("/trickle.png"), priority: 0)
        let failure = try failed(store, server.url("/trickle.png"))
        XCTAssertEqual(failure.shortText, "Timed out")
        XCTAssertTrue(failure.detail.contains("in all"), failure.detail)
    }

    func testRedirectLoopStopsAtTheLimit() throws {
        let server = try makeServer([
            "/a": { _ in .redirect(to: "/b") },
            "/b": { _ in .redirect(to: "/a") },
        ])
        let store = makeStore { $0.maxRedirects = 3 }
        store.fetch(server.url("/a"), priority: 0)
        let failure = try failed(store, server.url("/a"))
        XCTAssertEqual(failure.shortText, "Too many redirects")
        // The first request and the three redirects followed.
        XCTAssertEqual(server.requestCount("/a") + server.requestCount("/b"), 4)
    }

    func testWebPageOrTextInsteadOfAnImage() throws {
        let server = try makeServer([
            "/page": { _ in
                Response(headers: [("Content-Type", "text/html; charset=utf-8")],
                         body: Data("<!DOCTYPE html><html><body>Sign in</body></html>".utf8))
            },
            "/page-mislabelled.png": { _ in
                Response(headers: [("Content-Type", "image/png")], body: Data("\n  <html><head></head></html>".utf8))
            },
            "/text": { _ in Response(headers: [("Content-Type", "text/plain")], body: Data("just words".utf8)) },
        ])
        let store = makeStore()
        for path in ["/page", "/page-mislabelled.png", "/text"] { store.fetch(server.url(path), priority: 0) }
        XCTAssertEqual(try failed(store, server.url("/page")).shortText, "Not an image (HTML page)")
        XCTAssertEqual(try failed(store, server.url("/page-mislabelled.png")).shortText, "Not an image (HTML page)")
        XCTAssertEqual(try failed(store, server.url("/text")).shortText, "Not an image")
        assertNoPartialFiles()
        XCTAssertEqual(try cacheFolderContents(), [])
    }

    func testBodyOverTheLimitIsRefusedByItsContentLength() throws {
        let server = try makeServer([
            "/honest.png": { _ in Response(body: largePNGBody(), length: .honest) },
            // Declares too much and then sends nothing: refused from the headers alone, not timed out.
            "/declared.png": { _ in Response(body: pngBody("x"), length: .claimed(1 << 30), stallsAfterHeaders: true) },
        ])
        let store = makeStore {
            $0.maxBodyBytes = 64 << 10
            $0.timeout = .seconds(3)
        }
        let started = ContinuousClock.now
        store.fetch(server.url("/honest.png"), priority: 0)
        store.fetch(server.url("/declared.png"), priority: 0)
        let honest = try failed(store, server.url("/honest.png"))
        XCTAssertEqual(honest.shortText, "Too large (over 64 KB)")
        XCTAssertTrue(honest.detail.contains("declared"), honest.detail)
        XCTAssertEqual(try failed(store, server.url("/declared.png")).shortText, "Too large (over 64 KB)")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(2))
        XCTAssertLessThanOrEqual(store.counterValues.bytesDownloaded, 64 << 10)
        assertNoPartialFiles()
        XCTAssertEqual(try cacheFolderContents(), [])
    }

    func testBodyOverTheLimitIsCutOffWhenItsLengthIsUnknown() throws {
        let server = try makeServer([
            "/chunked.png": { _ in Response(body: largePNGBody(), length: .chunked) },
            "/until-close.png": { _ in Response(body: largePNGBody(), length: .omitted) },
        ])
        let store = makeStore { $0.maxBodyBytes = 64 << 10 }
        store.fetch(server.url("/chunked.png"), priority: 0)
        store.fetch(server.url("/until-close.png"), priority: 0)
        for path in ["/chunked.png", "/until-close.png"] {
            let failure = try failed(store, server.url(path))
            XCTAssertEqual(failure.shortText, "Too large (over 64 KB)")
            XCTAssertTrue(failure.detail.contains("more than 65536 bytes arrived"), failure.detail)
        }
        // Cut off near the limit, not after the whole 4 MB.
        XCTAssertLessThan(store.counterValues.bytesDownloaded, 2 * (64 << 10) + (512 << 10))
        assertNoPartialFiles()
        XCTAssertEqual(try cacheFolderContents(), [])
    }

    func testForgetFailureLetsTheNextFetchTryAgain() throws {
        let server = try makeServer([:])
        let store = makeStore()
        let url = server.url("/later.png")
        store.fetch(url, priority: 0)
        XCTAssertEqual(try failed(store, url).shortText, "Not found (404)")
        store.fetch(url, priority: 0)   // still failed: no new request
        XCTAssertEqual(server.requestCount("/later.png"), 1)

        let body = pngBody("now there")
        server.setRoute("/later.png") { _ in Response(body: body) }
        store.forgetFailure(url)
        XCTAssertEqual(store.state(of: url), .notStarted)
        store.fetch(url, priority: 0)
        let (path, _) = try readyFile(store, url)
        XCTAssertEqual(server.requestCount("/later.png"), 2)
        XCTAssertEqual(FileManager.default.contents(atPath: path), body)
    }

    func testBadURLFailsAtOnce() {
        let store = makeStore()
        for url in ["ftp://example.com/a.png", "http://", "not a url"] {
            store.fetch(url, priority: 0)
            guard case .failed(let failure) = store.state(of: url) else { return XCTFail("\(url) did not fail at once") }
            XCTAssertEqual(failure.shortText, "Bad URL")
        }
        XCTAssertEqual(store.counterValues.started, 0)
    }

    // MARK: - Revalidation and the cache

    func testUnchangedCopyIsRevalidatedWith304() throws {
        let body = pngBody("stable")
        let server = try makeServer(["/a.png": { request in
            if request.header("If-None-Match") == "\"v1\"" { return Response(status: 304, headers: [("ETag", "\"v1\"")]) }
            return Response(headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Apr 2025 10:00:00 GMT")], body: body)
        }])
        let url = server.url("/a.png")
        let first = makeStore()
        first.fetch(url, priority: 0)
        let (firstPath, firstVersion) = try readyFile(first, url)
        first.shutdown()

        let second = makeStore()
        second.fetch(url, priority: 0)
        let (path, version) = try readyFile(second, url)
        XCTAssertEqual(path, firstPath)
        XCTAssertEqual(version, firstVersion)
        XCTAssertEqual(FileManager.default.contents(atPath: path), body)
        XCTAssertEqual(server.requestCount("/a.png"), 2)
        let revalidation = try XCTUnwrap(server.requests("/a.png").last)
        XCTAssertEqual(revalidation.header("If-None-Match"), "\"v1\"")
        XCTAssertEqual(revalidation.header("If-Modified-Since"), "Tue, 01 Apr 2025 10:00:00 GMT")
        XCTAssertEqual(server.bodyBytesSent("/a.png"), body.count, "the 304 carried a body")
        XCTAssertEqual(second.counterValues.notModified, 1)
        XCTAssertEqual(second.counterValues.completed, 0)
        XCTAssertEqual(second.counterValues.bytesDownloaded, 0)
    }

    func testChangedCopyIsDownloadedAgainWithANewVersion() throws {
        let old = pngBody("old")
        let new = pngBody("new, and longer")
        let currentETag = Mutex("\"v1\"")
        let server = try makeServer(["/a.png": { request in
            let etag = currentETag.withLock { $0 }
            if request.header("If-None-Match") == etag { return Response(status: 304) }
            return Response(headers: [("ETag", etag)], body: etag == "\"v1\"" ? old : new)
        }])
        let url = server.url("/a.png")
        let first = makeStore()
        first.fetch(url, priority: 0)
        let (_, oldVersion) = try readyFile(first, url)
        first.shutdown()

        currentETag.withLock { $0 = "\"v2\"" }
        let second = makeStore()
        second.fetch(url, priority: 0)
        let (path, version) = try readyFile(second, url)
        XCTAssertNotEqual(version, oldVersion)
        XCTAssertEqual(FileManager.default.contents(atPath: path), new)
        XCTAssertEqual(server.requests("/a.png").last?.header("If-None-Match"), "\"v1\"")
        XCTAssertEqual(second.counterValues.completed, 1)
        let metadata = try JSONDecoder().decode(CachedResponseMetadata.self,
                                                from: XCTUnwrap(FileManager.default.contents(atPath: path + ".json")))
        XCTAssertEqual(metadata.etag, "\"v2\"")
    }

    func testCachedCopyIsUsedWhenTheServerIsGone() throws {
        let body = pngBody("offline")
        let server = try makeServer(["/a.png": { _ in Response(headers: [("ETag", "\"v1\"")], body: body) }])
        let url = server.url("/a.png")
        let first = makeStore()
        first.fetch(url, priority: 0)
        let (firstPath, firstVersion) = try readyFile(first, url)
        first.shutdown()
        server.stop()

        let second = makeStore()
        second.fetch(url, priority: 0)
        let (path, version) = try readyFile(second, url)
        XCTAssertEqual(path, firstPath)
        XCTAssertEqual(version, firstVersion)
        XCTAssertEqual(second.counterValues.servedFromCacheOffline, 1)
        XCTAssertEqual(second.counterValues.failed, 0)
    }

    func testFailedDownloadNeverReplacesAGoodCopy() throws {
        let good = pngBody("good")
        let serveGood = Atomic<Bool>(true)
        let server = try makeServer(["/a.png": { _ in
            serveGood.load(ordering: .relaxed) ? Response(body: good) : Response(body: largePNGBody(), length: .chunked)
        }])
        let url = server.url("/a.png")
        let first = makeStore { $0.maxBodyBytes = 64 << 10 }
        first.fetch(url, priority: 0)
        let (path, version) = try readyFile(first, url)
        first.shutdown()

        serveGood.store(false, ordering: .relaxed)
        let second = makeStore { $0.maxBodyBytes = 64 << 10 }
        second.fetch(url, priority: 0)
        XCTAssertEqual(try failed(second, url).shortText, "Too large (over 64 KB)")
        XCTAssertEqual(FileManager.default.contents(atPath: path), good)
        XCTAssertEqual(FileVersion.ofFile(atPath: path), version)
        assertNoPartialFiles()
    }

    func testPrivateFolderIsRemovedAtShutdownAndShutdownIsIdempotent() throws {
        let server = try makeServer([
            "/a.png": { _ in Response(body: pngBody("a")) },
            "/stuck.png": { _ in Response(body: largePNGBody(), stalls: true, stallsAfterHeaders: true) },
        ])
        let store = makeStore { $0.cacheFolder = nil }
        store.fetch(server.url("/a.png"), priority: 0)
        let (path, _) = try readyFile(store, server.url("/a.png"))
        XCTAssertTrue(path.hasPrefix(store.cacheFolder + "/"))
        store.fetch(server.url("/stuck.png"), priority: 0)
        try waitUntil { server.requestCount("/stuck.png") == 1 }

        store.shutdown()
        store.shutdown()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.cacheFolder))
        XCTAssertEqual(store.runningCount, 0)
        XCTAssertEqual(store.state(of: server.url("/stuck.png")), .notStarted)
        store.fetch(server.url("/b.png"), priority: 0)   // ignored after shutdown
        XCTAssertEqual(store.state(of: server.url("/b.png")), .notStarted)
    }

    func testAnUnwritableCacheFolderMeansAPrivateOneNotFailedDownloads() throws {
        let server = try makeServer(["/a.png": { _ in Response(body: pngBody("a")) }])
        // A folder under a regular file cannot be made, whoever runs the test (root included).
        let blocker = cacheFolder + "-blocker"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocker, contents: Data("file".utf8)))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        let store = makeStore { $0.cacheFolder = blocker + "/remote" }
        XCTAssertNotEqual(store.cacheFolder, blocker + "/remote")
        store.fetch(server.url("/a.png"), priority: 0)
        let (path, _) = try readyFile(store, server.url("/a.png"))
        XCTAssertEqual(FileManager.default.contents(atPath: path), pngBody("a"))
        store.shutdown()
        XCTAssertFalse(FileManager.default.fileExists(atPath: store.cacheFolder), "the stand-in folder goes at shutdown")
    }

    func testDefaultCacheFolderFollowsXDG() {
        XCTAssertEqual(RemoteImageStore.Configuration.defaultCacheFolder(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]),
                       "/x/cache/tessera/remote")
        XCTAssertEqual(RemoteImageStore.Configuration.defaultCacheFolder(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]),
                       "/home/u/.cache/tessera/remote")
        XCTAssertNil(RemoteImageStore.Configuration.defaultCacheFolder(environment: [:]))
    }

    // MARK: - Helpers

    private typealias Response = LoopbackHTTPServer.Response

    private func makeServer(_ routes: [String: LoopbackHTTPServer.Route]) throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer(routes: routes)
        servers.append(server)
        return server
    }

    private func makeStore(_ configure: (inout RemoteImageStore.Configuration) -> Void = { _ in },
                           onChange: @escaping @Sendable () -> Void = {}) -> RemoteImageStore {
        var configuration = RemoteImageStore.Configuration(timeout: .seconds(3), cacheFolder: cacheFolder)
        configure(&configuration)
        let store = RemoteImageStore(configuration: configuration, onChange: onChange)
        stores.append(store)
        return store
    }

    /// Polls until `condition` holds, failing after 5 s.
    private func waitUntil(file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else {
                XCTFail("timed out waiting", file: file, line: line)
                throw CancellationError()
            }
            usleep(5_000)
        }
    }

    private func settledState(_ store: RemoteImageStore, _ url: String, file: StaticString, line: UInt) throws -> RemoteState {
        try waitUntil(file: file, line: line) { store.state(of: url) != .inFlight }
        return store.state(of: url)
    }

    private func readyFile(_ store: RemoteImageStore, _ url: String,
                           file: StaticString = #filePath, line: UInt = #line) throws -> (String, FileVersion) {
        let state = try settledState(store, url, file: file, line: line)
        guard case .ready(let path, let version) = state else {
            XCTFail("\(url): \(state)", file: file, line: line)
            throw CancellationError()
        }
        return (path, version)
    }

    private func failed(_ store: RemoteImageStore, _ url: String,
                        file: StaticString = #filePath, line: UInt = #line) throws -> LoadFailure {
        let state = try settledState(store, url, file: file, line: line)
        guard case .failed(let failure) = state else {
            XCTFail("\(url): \(state)", file: file, line: line)
            throw CancellationError()
        }
        return failure
    }

    private func cacheFolderContents() throws -> [String] {
        guard FileManager.default.fileExists(atPath: cacheFolder) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: cacheFolder).sorted()
    }

    private func assertNoPartialFiles(file: StaticString = #filePath, line: UInt = #line) {
        let leftovers = ((try? cacheFolderContents()) ?? []).filter { $0.contains(".download-") || $0.contains(".tmp-") }
        XCTAssertEqual(leftovers, [], "partial files left in the cache folder", file: file, line: line)
    }

    private func attributes(of path: String) -> [FileAttributeKey: Any] {
        (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
    }
}

/// Bytes that sniff as PNG: the signature and an IHDR chunk (1x1 RGBA), then `tag` to tell bodies apart.
func pngBody(_ tag: String) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    bytes += [0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0] + [0x1F, 0x15, 0xC4, 0x89]
    return Data(bytes + Array(tag.utf8))
}

/// A PNG-looking body of 4 MB, far over the 64 KB limits the tests set.
func largePNGBody() -> Data {
    pngBody("large") + Data(count: 4 << 20)
}
