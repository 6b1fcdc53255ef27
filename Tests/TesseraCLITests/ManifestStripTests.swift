import Foundation
import TesseraTestBasics
import TesseraTestSupport
import XCTest

/// `tessera URL` of an IIIF Presentation manifest, through the built binary: the strip of its canvases,
/// their thumbnails decoded, Enter opening a canvas's image service in the tiled view and Esc coming back;
/// a document that opens no strip ends the run with one line.
final class ManifestStripTests: XCTestCase {
    private var servers: [LoopbackHTTPServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        servers = []
    }

    /// Runs `tessera` headless with `arguments`, the cache and settings inside `folder`.
    private func tessera(_ arguments: [String], in folder: TemporaryDirectory) throws -> ChildProcess {
        try ChildProcess.tessera(arguments + ["--headless"],
                                 environment: ["XDG_CACHE_HOME": folder.path("cache"), "XDG_CONFIG_HOME": folder.path("config")])
    }

    func testAManifestOpensAsAStripAndEnterOpensACanvasInTheTiledView() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let services = try PresentationFixtures.serveTrees(["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg"],
                                                           version: 3, on: server, in: folder.path("trees"))
        let manifest = PresentationFixtures.manifest3(id: server.url("/book/manifest.json"), label: ["en": ["Book"]],
                                                      canvases: zip(["Folio 1r", "Folio 1v", "Folio 2r"], services).map {
            PresentationFixtures.Canvas(label: ["en": [$0]], service: $1)
        })
        server.setRoute("/book/manifest.json") { _ in .init(body: manifest) }
        // The third canvas is selected and opened alone, then the strip is shown again.
        let steps = "wait 0.2\nwait-idle\nkey right\nkey right\nwait-idle\nkey enter\nwait 0.3\nwait-idle\nkey escape\nwait-idle\nquit\n"
        let script = try folder.write(Data(steps.utf8), to: "script.txt")
        let report = folder.path("report.json")

        let run = try tessera([server.url("/book/manifest.json"), "--rows", "1", "--no-config", "--no-thumbnail-cache",
                               "--script", script, "--report", report], in: folder)

        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertEqual(json["items"] as? Int, 3, "\(json)")
        XCTAssertEqual(json["decodes"] as? Int, 3, "each canvas's thumbnail decoded: \(json)")
        XCTAssertEqual((json["errors"] as? [Any])?.count, 0, "\(json["errors"] ?? "")")
        XCTAssertEqual((json["downloads"] as? [String: Any])?["completed"] as? Int, 3, "\(json)")
        XCTAssertEqual(json["selected_name"] as? String, "Folio 2r", "the canvas's label names its item")
        XCTAssertEqual(json["selected_item"] as? String, services[2].id + "/0,0,1280,960/160,120/0/default.jpg",
                       "a static tree's one-tile level is the cell's picture")
        // Enter opened the third canvas's service in the tiled view, which became sharp without a failed tile.
        XCTAssertNotNil(json["sharp_ms"] as? Double, "\(json)")
        XCTAssertEqual(json["tiles_failed"] as? Int, 0, "\(json)")
        XCTAssertEqual(server.requestCount("/svc3/img/info.json"), 2, "read for its thumbnail, then by the tiled view")
        XCTAssertEqual(server.requestCount("/svc1/img/info.json") + server.requestCount("/svc2/img/info.json"), 2,
                       "the other canvases' services were read once, for their thumbnails")
        // The tile at the bottom right corner of a 1280 x 960 image: the view has the canvas's size.
        XCTAssertTrue(server.requestLog.contains { $0.hasPrefix("/svc3/img/1024,768,256,192/") }, "\(server.requestLog)")
        XCTAssertFalse(server.requestLog.contains { $0.hasPrefix("/svc1/img/1536,") }, "no other canvas opened")
        XCTAssertEqual(json["mode"] as? String, "strip", "Esc came back to the strip")
    }

    func testTheWindowOpensWhileTheManifestIsRead() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let services = try PresentationFixtures.serveTrees(["img1-baseline.jpg", "img2-portrait.jpg"],
                                                           version: 3, on: server, in: folder.path("trees"))
        let manifest = PresentationFixtures.manifest3(id: server.url("/slow/manifest.json"), label: ["en": ["Slow"]],
                                                      canvases: zip(["a", "b"], services).map {
            PresentationFixtures.Canvas(label: ["en": [$0]], service: $1)
        })
        // The manifest is answered 3 s after it is asked for, so at least 3 s after the run began: a first
        // frame within 3 s of the start is drawn before the manifest arrives.
        let delay = Duration.seconds(3)
        server.setRoute("/slow/manifest.json") { _ in .init(body: manifest, delay: delay) }
        let script = try folder.write(Data("wait 0.2\nwait-idle\nquit\n".utf8), to: "script.txt")
        let report = folder.path("report.json")

        let run = try tessera([server.url("/slow/manifest.json"), "--no-config", "--no-thumbnail-cache", "--script", script,
                               "--report", report], in: folder)

        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let startup = try XCTUnwrap(json["startup_ms"] as? [String: Double], "\(json)")
        XCTAssertLessThan(try XCTUnwrap(startup["first_frame"]), Double(delay.components.seconds) * 1000,
                          "the window was drawn before the manifest came: \(startup)")
        XCTAssertEqual(json["items"] as? Int, 2, "\(json)")
        XCTAssertEqual(json["decodes"] as? Int, 2, "\(json)")
        XCTAssertEqual((json["errors"] as? [Any])?.count, 0, "\(json["errors"] ?? "")")
    }

    func testClosingTheWindowWhileTheManifestIsReadEndsTheRun() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        server.setRoute("/stalled/manifest.json") { _ in .init(stalls: true) }
        let process = Process()
        process.executableURL = BuiltBinary.url(named: "tessera")
        process.arguments = [server.url("/stalled/manifest.json"), "--headless", "--no-config"]
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "dummy"
        environment["XDG_CACHE_HOME"] = folder.path("cache")
        environment["XDG_CONFIG_HOME"] = folder.path("config")
        process.environment = environment
        process.standardError = FileHandle.nullDevice
        try process.run()
        // SDL catches SIGTERM from its start on (earlier, the signal would kill the process outright); the
        // window is made right after, and the manifest's request is under way from before.
        let ready = Date().addingTimeInterval(10)
        while !(Self.catchesSIGTERM(process.processIdentifier) && server.requestCount("/stalled/manifest.json") > 0),
              process.isRunning, Date() < ready {
            usleep(20_000)
        }
        usleep(200_000)

        // SIGTERM is what SDL turns into the window's close.
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning, Date() < deadline { usleep(20_000) }

        XCTAssertFalse(process.isRunning, "the run went on reading the manifest")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)
    }

    /// Whether process `pid` has a handler for SIGTERM: the `SigCgt` mask of /proc/PID/status.
    private static func catchesSIGTERM(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
              let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return mask & (1 << (UInt64(SIGTERM) - 1)) != 0
    }

    func testACollectionOpensAsTheStripOfItsManifestsCanvases() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let services = try PresentationFixtures.serveTrees(["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg"],
                                                           version: 2, on: server, in: folder.path("trees"))
        let manifest = PresentationFixtures.manifest2(id: server.url("/m2.json"), label: "Book 2",
                                                      canvases: zip(["p. 1", "p. 2", "p. 3"], services).map {
            PresentationFixtures.Canvas(label: $0, service: $1)
        })
        server.setRoute("/m2.json") { _ in .init(body: manifest) }
        let collection = PresentationFixtures.collection3(id: server.url("/shelf/collection.json"), label: "Shelf",
                                                          members: [(server.url("/m2.json"), false), (server.url("/gone.json"), false)])
        server.setRoute("/shelf/collection.json") { _ in .init(body: collection) }
        let script = try folder.write(Data("wait 0.2\nwait-idle\nkey end\nwait-scroll\nwait-idle\nquit\n".utf8), to: "script.txt")
        let report = folder.path("report.json")

        let run = try tessera([server.url("/shelf/collection.json"), "--no-config", "--no-thumbnail-cache", "--script", script,
                               "--report", report], in: folder)

        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("tessera: \(server.url("/shelf/collection.json")): 1 manifest of the collection not read ("),
                      run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertEqual(json["items"] as? Int, 3, "\(json)")
        XCTAssertEqual(json["decodes"] as? Int, 3, "\(json)")
        XCTAssertEqual((json["errors"] as? [Any])?.count, 0, "\(json["errors"] ?? "")")
        XCTAssertEqual(json["selected_name"] as? String, "Book 2: p. 3")
    }

    func testAnImageInAFolderNamedAsManifestsAreIsShownAsAnImage() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        let photo = try Data(contentsOf: SampleImages.url("img25-small.jpg"))
        server.setRoute("/collections/objects/12345") { _ in .init(headers: [("Content-Type", "image/jpeg")], body: photo) }
        let report = folder.path("report.json")

        let run = try tessera([server.url("/collections/objects/12345"), "--no-config", "--no-thumbnail-cache",
                               "--script", try folder.write(Data("wait 0.2\nwait-idle\nquit\n".utf8), to: "script.txt"),
                               "--report", report], in: folder)

        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertEqual(json["items"] as? Int, 1, "\(json)")
        XCTAssertEqual(json["decodes"] as? Int, 1, "\(json)")
        XCTAssertEqual((json["errors"] as? [Any])?.count, 0, "\(json["errors"] ?? "")")

        let viewed = try tessera(["view", server.url("/collections/objects/12345"), "--no-config", "--frames", "3"], in: folder)
        XCTAssertEqual(viewed.status, 0, viewed.stderr)
    }

    func testADocumentThatOpensNoStripSaysWhyInOneLine() throws {
        let folder = try TemporaryDirectory()
        let server = try LoopbackHTTPServer()
        servers.append(server)
        server.setRoute("/bad/manifest.json") { _ in .init(body: Data("{oops".utf8)) }

        let missing = try tessera([server.url("/gone/manifest.json"), "--no-config", "--frames", "3"], in: folder)
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr, "tessera: \(server.url("/gone/manifest.json")): the server answered 404 Not Found\n")

        let malformed = try tessera([server.url("/bad/manifest.json"), "--no-config", "--frames", "3"], in: folder)
        XCTAssertEqual(malformed.status, 1)
        XCTAssertEqual(malformed.stderr, "tessera: \(server.url("/bad/manifest.json")): not JSON, so not an IIIF manifest\n")

        let viewed = try tessera(["view", server.url("/bad/manifest.json"), "--no-config", "--frames", "3"], in: folder)
        XCTAssertEqual(viewed.status, 1)
        XCTAssertTrue(viewed.stderr.contains("opens as a strip of its canvases: tessera "), viewed.stderr)
    }
}
