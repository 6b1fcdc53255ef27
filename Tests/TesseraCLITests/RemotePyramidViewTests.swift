import Foundation
import TesseraCore
import TesseraImaging
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
        try servedPyramidAndGeometry(layout, in: folder).server
    }

    private func servedPyramidAndGeometry(_ layout: TileLayoutKind, in folder: TemporaryDirectory, tileSize: Int = 256,
                                          image: String = SampleImages.url("img1-baseline.jpg").path,
                                          delay: Duration = .zero) throws -> (server: LoopbackHTTPServer, geometry: DeepZoomGeometry) {
        var options = TileCutterOptions()
        options.layout = layout
        options.tileSize = tileSize
        let cut = try TileCutter(options: options).cut(imageAt: image, into: folder.path("out"), name: "img")
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let root = folder.path("out")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: root))
        for case let relative as String in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue,
                  let body = FileManager.default.contents(atPath: root + "/" + relative) else { continue }
            server.setRoute("/p/" + relative) { _ in .init(body: body, delay: delay) }
        }
        return (server, cut.geometry)
    }

    /// Opened at 100 % in the middle, so the view's workers fetch full-resolution tiles beyond the base level.
    private func view(_ url: String, in folder: TemporaryDirectory, extra: [String] = []) throws -> [String: Any] {
        let report = folder.path("run-\(UUID().uuidString).json")
        let run = try ChildProcess.tessera(["view", url, "--headless", "--no-config", "--open-at", "100@0.5,0.5",
                                            "--report", report] + extra)
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

    /// Every request waits 0.4 s. A 2560x1440 image fitted in 1280x720 shows six 512-pixel tiles at half
    /// its size, which with the coarser levels' would take two rounds of six fetches: the first frame
    /// shows the coarser levels after one, and the view's tiles come after it.
    func testASlowServersPyramidShowsItsWholeImageBeforeTheViewsTiles() throws {
        let folder = try TemporaryDirectory()
        var bytes = [UInt8](repeating: 255, count: 2560 * 1440 * 4)
        for y in 0..<1440 {
            for x in 0..<2560 {
                bytes[(y * 2560 + x) * 4] = UInt8(x % 256)
                bytes[(y * 2560 + x) * 4 + 1] = UInt8(y % 256)
            }
        }
        let image = folder.path("wide.png")
        try PNGEncoder.write(PixelBuffer(width: 2560, height: 1440, bytes: bytes), to: image)
        let server = try servedPyramidAndGeometry(.iiif3, in: folder, tileSize: 512, image: image,
                                                  delay: .milliseconds(400)).server
        let report = folder.path("run.json")
        let script = try folder.write(Data("wait-idle\nquit\n".utf8), to: "script.txt")
        let run = try ChildProcess.tessera(["view", server.url("/p/img/info.json"), "--headless", "--no-config",
                                            "--window", "1280x720", "--script", script, "--report", report])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let first = try XCTUnwrap(json["first_frame_ms"] as? Double, "\(json)")
        let sharp = try XCTUnwrap(json["sharp_ms"] as? Double, "\(json)")
        XCTAssertLessThan(first + 200, sharp, "the whole image was drawn a round of fetches before the view's tiles: \(json)")
        XCTAssertEqual(json["tiles_failed"] as? Int ?? 0, 0, "\(json)")
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

    /// The server fails the tile in the middle and every tile above it (so nothing coarser stands in for
    /// it): the screenshot shows its error square among the drawn tiles, the report counts the failure,
    /// and the headless run ends, its retries notwithstanding.
    func testAFailingTileIsAnErrorSquareAndTheRestIsDrawn() throws {
        let folder = try TemporaryDirectory()
        let (server, geometry) = try servedPyramidAndGeometry(.dzi, in: folder)
        var tile: TileID? = TileID(level: geometry.maxLevel, column: geometry.width / 2 / 256, row: geometry.height / 2 / 256)
        while let current = tile {
            server.setRoute("/p/img_files/\(current.level)/\(current.column)_\(current.row).jpeg") { _ in .init(status: 500) }
            tile = geometry.parent(of: current)
        }
        let shot = folder.path("shot.png")
        let json = try view(server.url("/p/img.dzi"), in: folder, extra: ["--screenshot", shot, "--fade", "0"])
        XCTAssertGreaterThan(json["tiles_failed"] as? Int ?? 0, 0, "\(json)")
        XCTAssertGreaterThan(json["tiles_decoded"] as? Int ?? 0, 0, "\(json)")
        let pixels = try ImageLoader(decoders: ImageDecoders.standard(), colour: nil).load(path: shot, fitting: nil)
        // The error square's muted fill (Theme.missingTile) and the window's background (Theme.background).
        let muted = RGBA(r: 30, g: 30, b: 34), background = RGBA(r: 24, g: 24, b: 27)
        var square = 0, picture = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width {
                let p = pixels.pixel(x: x, y: y)
                if p.isClose(to: muted, tolerance: 2) { square += 1 } else if !p.isClose(to: background, tolerance: 2) { picture += 1 }
            }
        }
        XCTAssertGreaterThan(square, 30_000, "a 256-pixel error square at 100 %")
        XCTAssertGreaterThan(picture, 100_000, "the other tiles are drawn")
    }

    func testAMissingServiceSaysWhy() throws {
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let run = try ChildProcess.tessera(["view", server.url("/none/info.json"), "--headless", "--no-config",
                                            "--frames", "5"])
        XCTAssertTrue(run.stderr.contains("the server answered 404"), run.stderr)
    }
}
