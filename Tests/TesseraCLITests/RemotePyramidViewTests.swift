import Foundation
import TesseraCore
import TesseraTestBasics
import TesseraTestSupport
import TesseraTiling
import XCTest

/// `tessera view URL` for an IIIF service's `info.json` and a `.dzi` over HTTP: the tiled view opens them
/// and fetches its tiles from a loopback server.
final class RemotePyramidViewTests: XCTestCase {
    private var servers: [LoopbackHTTPServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
    }

    /// A sample photo cut with `layout`, every file of it served under `/p`.
    private func servedPyramid(_ layout: TileLayoutKind, in folder: TemporaryDirectory) throws -> LoopbackHTTPServer {
        var options = TileCutterOptions()
        options.layout = layout
        options.tileSize = 256
        _ = try TileCutter(options: options).cut(imageAt: SampleImages.url("img1-baseline.jpg").path,
                                                 into: folder.path("out"), name: "img")
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let root = folder.path("out")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root))
        for case let relative as String in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue,
                  let body = FileManager.default.contents(atPath: root + "/" + relative) else { continue }
            server.setRoute("/p/" + relative) { _ in .init(body: body) }
        }
        return server
    }

    /// Opened at 100 % in the middle, so the view's workers fetch full-resolution tiles beyond the base level.
    private func view(_ url: String, in folder: TemporaryDirectory) throws -> [String: Any] {
        let report = folder.path("run-\(UUID().uuidString).json")
        let run = try ChildProcess.tessera(["view", url, "--headless", "--no-config", "--open-at", "100@0.5,0.5",
                                            "--report", report])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
    }

    func testAnIIIFServiceOpensOverHTTP() throws {
        let folder = try TemporaryDirectory()
        let server = try servedPyramid(.iiif3, in: folder)
        let json = try view(server.url("/p/img/info.json"), in: folder)
        XCTAssertNotNil(json["sharp_ms"] as? Double, "\(json)")
        XCTAssertGreaterThan(json["tiles_decoded"] as? Int ?? 0, 0, "\(json)")
        XCTAssertEqual(json["tiles_failed"] as? Int ?? 0, 0, "\(json)")
        XCTAssertEqual(server.requestCount("/p/img/info.json"), 1)
        XCTAssertGreaterThan(server.requestLog.filter { $0.contains("/256,256/0/default.jpg") }.count, 0,
                             "full-resolution tiles were fetched")
    }

    func testADeepZoomPyramidOpensOverHTTP() throws {
        let folder = try TemporaryDirectory()
        let server = try servedPyramid(.dzi, in: folder)
        let json = try view(server.url("/p/img.dzi"), in: folder)
        XCTAssertNotNil(json["sharp_ms"] as? Double, "\(json)")
        XCTAssertGreaterThan(json["tiles_decoded"] as? Int ?? 0, 0, "\(json)")
        XCTAssertEqual(json["tiles_failed"] as? Int ?? 0, 0, "\(json)")
        XCTAssertEqual(server.requestCount("/p/img.dzi"), 1)
    }

    func testAMissingServiceSaysWhy() throws {
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let run = try ChildProcess.tessera(["view", server.url("/none/info.json"), "--headless", "--no-config",
                                            "--frames", "5"])
        XCTAssertTrue(run.stderr.contains("the server answered 404"), run.stderr)
    }
}
