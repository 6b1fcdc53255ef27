import Foundation
import Synchronization
import TesseraTestSupport
import XCTest

/// The strip following its folder while it runs, and images given as URLs, through the real binary.
final class FollowAndDownloadTests: XCTestCase {
    private var folder: URL!
    private var servers: [LoopbackHTTPServer] = []

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-follow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for server in servers { server.stop() }
        try? FileManager.default.removeItem(at: folder)
    }

    private func sample(_ name: String) throws -> Data { try Data(contentsOf: SampleImages.url(name)) }

    private var binary: URL { BuiltBinary.url(named: "tessera") }

    /// Starts the binary headless; `whenStarted` runs once its stderr says `marker` (or at once without one).
    /// Returns the exit status, stderr and the report.
    private func run(_ arguments: [String], stdin: String? = nil, script: String,
                     marker: String? = nil, whenStarted: () throws -> Void = {}) throws
        -> (status: Int32, stderr: String, report: [String: Any]) {
        let scriptFile = folder.appendingPathComponent("script-\(UUID().uuidString).txt")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        let reportFile = folder.appendingPathComponent("report-\(UUID().uuidString).json")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + ["--headless", "--no-thumbnail-cache", "--script", scriptFile.path,
                                         "--report", reportFile.path] + (marker == nil ? [] : ["--verbose"])
        var environment = ProcessInfo.processInfo.environment
        environment["SDL_VIDEODRIVER"] = "dummy"
        environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
        // Settings from this test's folder only, never the user's config.toml.
        environment["XDG_CONFIG_HOME"] = folder.appendingPathComponent("config").path
        process.environment = environment
        let errPipe = Pipe(), inPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = inPipe
        let stderr = Mutex(Data())
        errPipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            stderr.withLock { $0.append(chunk) }
        }
        try process.run()
        if let stdin { inPipe.fileHandleForWriting.write(Data(stdin.utf8)) }
        try inPipe.fileHandleForWriting.close()
        if let marker {
            let deadline = Date().addingTimeInterval(20)
            while !stderr.withLock({ String(decoding: $0, as: UTF8.self) }).contains(marker) && Date() < deadline
                    && process.isRunning {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        try whenStarted()
        process.waitUntilExit()
        errPipe.fileHandleForReading.readabilityHandler = nil
        let errText = stderr.withLock { String(decoding: $0, as: UTF8.self) }
        let report = (try? JSONSerialization.jsonObject(with: Data(contentsOf: reportFile))) as? [String: Any] ?? [:]
        return (process.terminationStatus, errText, report)
    }

    // MARK: Watching

    func testTheStripFollowsItsFolderWhileItRuns() throws {
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try sample("img1-baseline.jpg").write(to: photos.appendingPathComponent("a1.jpg"))
        try sample("img2-portrait.jpg").write(to: photos.appendingPathComponent("a3.jpg"))
        try sample("img4-checker.png").write(to: photos.appendingPathComponent("a5.png"))
        let gray = try sample("img12-gray.jpg"), alpha = try sample("img5-alpha.png")

        let result = try run([photos.path], script: "wait 0.3\nwait-idle\nwait 2\nwait-idle\nquit\n",
                             marker: "for changes") {
            try alpha.write(to: photos.appendingPathComponent("a2.png"))        // new: between a1 and a3
            try FileManager.default.removeItem(at: photos.appendingPathComponent("a3.jpg"))  // deleted
            // An editor's save: a temporary file renamed over the original.
            try gray.write(to: photos.appendingPathComponent(".a1.jpg.swp"))
            _ = rename(photos.appendingPathComponent(".a1.jpg.swp").path, photos.appendingPathComponent("a1.jpg").path)
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.report["items"] as? Int, 3, "a2 came, a3 went: \(result.report)")
        XCTAssertEqual(result.report["file_changes"] as? Int, 3, "new, deleted, changed: \(result.stderr)")
        XCTAssertEqual(result.report["decodes"] as? Int, 5, "three at start, then the new file and the changed one")
        XCTAssertEqual((result.report["errors"] as? [Any])?.count, 0)
    }

    func testWatchingCanBeTurnedOff() throws {
        try sample("img1-baseline.jpg").write(to: folder.appendingPathComponent("a1.jpg"))
        // The new file comes a second after start, well after the listing even on a loaded machine, and
        // the run lasts long enough after it for a watcher to have seen it.
        let result = try run([folder.path, "--no-watch"], script: "wait 1.5\nwait-idle\nwait 1\nquit\n") {
            Thread.sleep(forTimeInterval: 1)
            try self.sample("img12-gray.jpg").write(to: self.folder.appendingPathComponent("a2.jpg"))
        }
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.report["items"] as? Int, 1)
        XCTAssertEqual(result.report["file_changes"] as? Int, 0)
    }

    // MARK: Remote images

    private func startServer() throws -> LoopbackHTTPServer {
        let server = try LoopbackHTTPServer()
        servers.append(server)
        return server
    }

    func testURLsDownloadAndEachFailureShowsItsReason() throws {
        let server = try startServer()
        let png = try sample("img13-tiny.png"), webp = try sample("img8-lossy.webp")
        server.setRoute("/ok.png") { request in
            if request.header("If-None-Match") == "\"v1\"" { return .init(status: 304, headers: [("ETag", "\"v1\"")]) }
            return .init(headers: [("Content-Type", "image/png"), ("ETag", "\"v1\"")], body: png)
        }
        server.setRoute("/ok.webp") { _ in .init(body: webp) }
        server.setRoute("/page.jpg") { _ in .init(headers: [("Content-Type", "text/html")], body: Data("<!doctype html><p>login".utf8)) }
        server.setRoute("/loop1") { _ in .redirect(to: "/loop2") }
        server.setRoute("/loop2") { _ in .redirect(to: "/loop1") }
        server.setRoute("/slow.png") { _ in .init(stalls: true) }
        let refused = "http://127.0.0.1:\(LoopbackHTTPServer.closedPort())/x.png"
        // Some from the command line, the rest from a list on standard input.
        let list = "# a list\n\(server.url("/ok.webp"))\n\n\(server.url("/missing.png"))\n\(server.url("/page.jpg"))\n"
            + "\(server.url("/loop1"))\n\(refused)\n"
        let script = "wait 0.2\nwait-idle\nkey end\nwait-scroll\nwait-idle\nquit\n"
        let arguments = [server.url("/ok.png"), server.url("/slow.png"), "-i", "-", "--download-timeout", "0.5"]
        let result = try run(arguments, stdin: list, script: script)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.report["items"] as? Int, 7)
        let downloads = try XCTUnwrap(result.report["downloads"] as? [String: Any])
        XCTAssertEqual(downloads["completed"] as? Int, 2, "\(downloads)")
        XCTAssertEqual(downloads["failed"] as? Int, 5, "\(downloads)")
        XCTAssertEqual(result.report["decodes"] as? Int, 2)
        let errors = (result.report["errors"] as? [[String: String]] ?? []).reduce(into: [String: String]()) {
            $0[$1["item"] ?? ""] = $1["reason"]
        }
        XCTAssertEqual(errors[server.url("/missing.png")], "Not found (404)")
        XCTAssertEqual(errors[server.url("/page.jpg")], "Not an image (HTML page)")
        XCTAssertEqual(errors[server.url("/loop1")], "Too many redirects")
        XCTAssertEqual(errors[server.url("/slow.png")], "Timed out")
        XCTAssertEqual(errors[refused], "Connection refused")
        XCTAssertEqual(server.requestCount("/ok.png"), 1, "one download per item")

        // The next run revalidates the cached copy instead of downloading it again.
        let again = try run([server.url("/ok.png")], script: "wait 0.2\nwait-idle\nquit\n")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual((again.report["downloads"] as? [String: Any])?["not_modified"] as? Int, 1)
        XCTAssertEqual(server.requests("/ok.png").last?.header("If-None-Match"), "\"v1\"")
        XCTAssertEqual(again.report["decodes"] as? Int, 1)
    }

    func testEnterOrAClickOnAnErrorCellRetries() throws {
        let server = try startServer()
        let png = try sample("img13-tiny.png")
        // Each image fails the first time (the server was down) and works the second.
        for path in ["/first.png", "/second.png"] {
            let asked = Mutex(0)
            server.setRoute(path) { _ in
                asked.withLock { $0 += 1; return $0 } == 1 ? .init(status: 503) : .init(body: png)
            }
        }
        // One row of 400x300 cells, whatever the window: the click lands on the second.
        let script = "wait 0.2\nwait-idle\nkey enter\nwait 0.2\nwait-idle\nclick 632 360\nwait 0.2\nwait-idle\nquit\n"
        let result = try run([server.url("/first.png"), server.url("/second.png"), "--rows", "1", "--cell", "400x300"],
                             script: script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(server.requestCount("/first.png"), 2, "Enter on the selected error cell retried it")
        XCTAssertEqual(server.requestCount("/second.png"), 2, "a click on the error cell retried it")
        XCTAssertEqual((result.report["errors"] as? [Any])?.count, 0, "\(result.report["errors"] ?? "")")
        XCTAssertEqual(result.report["decodes"] as? Int, 2)
    }

    func testADownloadedImageOpensAloneWithEnter() throws {
        let server = try startServer()
        let jpeg = try sample("img1-baseline.jpg")
        server.setRoute("/photo.jpg") { _ in .init(body: jpeg) }
        let shot = folder.appendingPathComponent("alone.png")
        let result = try run([server.url("/photo.jpg"), "--screenshot", shot.path],
                             script: "wait 0.2\nwait-idle\nkey enter\nwait 0.3\nwait-idle\nquit\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertNotNil(result.report["first_frame_ms"], "the single-image view opened: \(result.report)")
        XCTAssertEqual(result.report["tiles_failed"] as? Int, 0)
        XCTAssertEqual(server.requestCount("/photo.jpg"), 1, "it opens from the downloaded copy")
    }

    func testNoDownloadStartsDuringAScriptedDragAndTheVisibleOnesLoadWhenItEnds() throws {
        let server = try startServer()
        let png = try sample("img13-tiny.png")
        for index in 0..<40 { server.setRoute("/img\(index).png") { _ in .init(body: png) } }
        let urls = (0..<40).map { server.url("/img\($0).png") }

        // The finger goes down in the first frame and the run ends while the fling still decelerates.
        let dragOnly = try run(urls, script: "drag 1100 360 100 360 0.2\nquit\n")
        XCTAssertEqual(dragOnly.status, 0, dragOnly.stderr)
        XCTAssertEqual((dragOnly.report["downloads"] as? [String: Any])?["started"] as? Int, 0)
        XCTAssertEqual(server.totalRequestCount, 0)

        // Let it come to rest: the items on screen then download; the first ones, passed over, never do.
        let settled = try run(urls, script: "drag 1100 360 100 360 0.2\nwait-scroll\nwait-idle\nquit\n")
        XCTAssertEqual(settled.status, 0, settled.stderr)
        let downloads = try XCTUnwrap(settled.report["downloads"] as? [String: Any])
        XCTAssertGreaterThanOrEqual(downloads["completed"] as? Int ?? 0, 3)
        XCTAssertEqual(server.requestCount("/img0.png"), 0, "passed over while moving: \(server.requestLog)")
        XCTAssertEqual(server.requestCount("/img1.png"), 0)
    }
}
