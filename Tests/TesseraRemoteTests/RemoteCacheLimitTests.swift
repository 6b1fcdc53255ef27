#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraTestSupport
import XCTest
@testable import TesseraRemote

/// Downloads under the disk cache limit: a new copy asks for a sweep, which takes earlier runs' copies
/// (least recently used first) and never one this run has fetched.
final class RemoteCacheLimitTests: XCTestCase {
    private var root = ""
    private var server: LoopbackHTTPServer?
    private var store: RemoteImageStore?

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "tessera-remote-limit-" + UUID().uuidString + "/tessera"
    }

    override func tearDown() {
        store?.shutdown()
        server?.stop()
        try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent)
    }

    /// A copy left by an earlier run, last used `age` seconds ago.
    private func earlierCopy(of url: String, bytes: Int, age: Int) throws -> String {
        try FileManager.default.createDirectory(atPath: root + "/remote", withIntermediateDirectories: true)
        let path = root + "/remote/" + CacheFileName.md5Hex(url)
        try (pngBody("earlier") + Data(count: bytes)).write(to: URL(fileURLWithPath: path))
        let used = Int(Date().timeIntervalSince1970) - age
        XCTAssertEqual(utimensat(AT_FDCWD, path, [timespec(tv_sec: used, tv_nsec: 0), timespec(tv_sec: used, tv_nsec: 0)], 0), 0)
        return path
    }

    private func ready(_ store: RemoteImageStore, _ url: String) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if case .ready(let path, _) = store.state(of: url) { return path }
            usleep(10_000)
        }
        XCTFail("\(url): \(store.state(of: url))")
        throw CancellationError()
    }

    func testANewDownloadMakesRoomByRemovingEarlierRunsCopiesNotThisRunsOnes() throws {
        let body = pngBody("new") + Data(count: 100_000)
        let server = try LoopbackHTTPServer(routes: ["/a.png": { _ in LoopbackHTTPServer.Response(body: body) },
                                                     "/b.png": { _ in LoopbackHTTPServer.Response(body: body) }])
        self.server = server
        let oldest = try earlierCopy(of: "https://example.org/oldest.png", bytes: 100_000, age: 3 * 86_400)
        let older = try earlierCopy(of: "https://example.org/older.png", bytes: 100_000, age: 2 * 86_400)
        // Room for about two copies of 100 KB.
        let janitor = DiskCacheJanitor(root: root, limitBytes: 250_000)
        var configuration = RemoteImageStore.Configuration(timeout: .seconds(3), cacheFolder: janitor.remoteFolder)
        configuration.diskCache = janitor
        let store = RemoteImageStore(configuration: configuration, onChange: {})
        self.store = store

        store.fetch(server.url("/a.png"), priority: 0)
        let first = try ready(store, server.url("/a.png"))
        XCTAssertTrue(janitor.waitForSweeps(timeout: .seconds(30)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldest), "the least recently used goes first")
        XCTAssertTrue(FileManager.default.fileExists(atPath: older))

        store.fetch(server.url("/b.png"), priority: 0)
        let second = try ready(store, server.url("/b.png"))
        XCTAssertTrue(janitor.waitForSweeps(timeout: .seconds(30)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: older))
        XCTAssertTrue(FileManager.default.fileExists(atPath: first), "fetched in this run: the strip may show it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: second))
    }
}
