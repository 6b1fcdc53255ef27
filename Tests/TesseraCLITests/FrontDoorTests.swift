import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// Opening one photo, as a file manager does (`tessera FILE`): it is shown in the single view, opened while
/// the window is made, sharp in the first frame that shows it; `--report` says where start-up went.
final class FrontDoorTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-front-door-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func run(_ arguments: [String], script text: String = "wait-idle\nquit\n") throws -> [String: Any] {
        let report = folder.appendingPathComponent("run-\(UUID().uuidString).json"), script = folder.appendingPathComponent("script")
        try Data(text.utf8).write(to: script)
        let run = try ChildProcess.tessera(arguments + ["--headless", "--no-thumbnail-cache", "--script", script.path,
                                                        "--report", report.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
    }

    /// The viewer's binary names none of the codec libraries only decode helpers need, directly or through
    /// another library, so none of them is loaded (and none of their constructors run) before its window:
    /// their functions are stubs that load them on first call.
    func testTheViewerStartsWithoutLoadingTheHelpersCodecLibraries() throws {
        let ldd = try ChildProcess.run("/usr/bin/ldd", [BuiltBinary.url(named: "tessera").path])
        XCTAssertEqual(ldd.status, 0, ldd.stderr)
        XCTAssertTrue(ldd.stdout.contains("libSDL2"), ldd.stdout)
        XCTAssertFalse(CodecLibraries.all.isEmpty)
        for library in CodecLibraries.all {
            XCTAssertFalse(ldd.stdout.contains(library), "\(library) is loaded at start (tools/lazy-libraries.py says how to keep it out)")
        }
    }

    /// On a real X server (not SDL's dummy driver), the window is made for the GL renderer from the start
    /// and painted in the views' background before the renderer exists; the photo still comes out whole
    /// in it, in its own colours.
    func testOnAnXServerThePhotoIsDrawnInTheWindowMadeForItsRenderer() throws {
        let server = try XvfbServer()
        defer { server.stop() }
        let photo = folder.appendingPathComponent("orange.png"), shot = folder.appendingPathComponent("shot.png")
        let report = folder.appendingPathComponent("x11.json"), script = folder.appendingPathComponent("x11-script")
        try PNGEncoder.write(PixelBuffer(width: 640, height: 480, filledWith: RGBA(r: 240, g: 120, b: 20)), to: photo.path)
        try Data("wait-idle\nquit\n".utf8).write(to: script)
        let run = try ChildProcess.run(BuiltBinary.url(named: "tessera").path,
                                       [photo.path, "--no-config", "--no-thumbnail-cache", "--window", "320x240", "--script",
                                        script.path, "--report", report.path, "--screenshot", shot.path],
                                       environment: ["DISPLAY": server.name, "SDL_VIDEODRIVER": "x11", "WAYLAND_DISPLAY": nil])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["video_driver"] as? String, "x11", "\(json)")
        XCTAssertEqual(json["mode"] as? String, "single", "\(json)")
        let startup = try XCTUnwrap(json["startup_ms"] as? [String: Double], "\(json)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(startup["window"]), try XCTUnwrap(startup["renderer"]))
        let pixels = try PNGDecoder().decode(Data(contentsOf: shot), format: .png, targetSize: nil)
        let middle = pixels.pixel(x: pixels.width / 2, y: pixels.height / 2)
        XCTAssertEqual(Int(middle.r), 240, accuracy: 3, "\(middle)")
        XCTAssertEqual(Int(middle.g), 120, accuracy: 3, "\(middle)")
        XCTAssertEqual(Int(middle.b), 20, accuracy: 3, "\(middle)")
    }

    /// A baseline JPEG read tile by tile (four tiles at fit) and a progressive one read whole: each is sharp
    /// in the first frame that shows it, never a coarse level first.
    func testOneFileOpensInTheSingleViewSharpInItsFirstFrame() throws {
        for name in ["img22-uhd.jpg", "img19-progressive.jpg"] {
            let photo = folder.appendingPathComponent(name)
            try FileManager.default.copyItem(at: SampleImages.url(name), to: photo)
            let json = try run([photo.path])
            XCTAssertEqual(json["mode"] as? String, "single", "\(name): \(json)")
            let complete = try XCTUnwrap(json["first_frame_ms"] as? Double, "\(name): \(json)")
            let sharp = try XCTUnwrap(json["sharp_ms"] as? Double, "\(name): \(json)")
            XCTAssertEqual(complete, sharp, "\(name): the first frame showing the photo is sharp")
        }
    }

    /// The strip behind a photo opened alone is decoded once the photo is shown, and made ready when Esc
    /// first shows it: its cell shows the picture at once, in a texture made ahead of the frame, as a strip
    /// shown first does.
    func testEscapeFromAPhotoOpenedAloneShowsItsStripReady() throws {
        let photo = folder.appendingPathComponent("img1-baseline.jpg")
        try FileManager.default.copyItem(at: SampleImages.url("img1-baseline.jpg"), to: photo)
        let json = try run([photo.path], script: "wait-idle\nwait 1\nkey escape\nwait 0.05\nwait-idle\nquit\n")
        XCTAssertEqual(json["mode"] as? String, "strip", "\(json)")
        XCTAssertGreaterThan(json["visible_cell_frames"] as? Int ?? 0, 0, "\(json)")
        XCTAssertEqual(json["placeholder_cell_frames"] as? Int, 0, "\(json)")
        XCTAssertEqual(json["fading_frames"] as? Int, 0, "\(json)")
        XCTAssertEqual(json["cell_textures_made_in_frames"] as? Int, 0, "\(json)")
        XCTAssertEqual((json["errors"] as? [Any])?.count, 0, "\(json)")
    }

    /// A file that cannot be shown, opened alone, says why in the probe's words, not in a slide reader's.
    func testAnEmptyFileOrTextOpenedAloneSaysWhatIsWrongWithIt() throws {
        let empty = folder.appendingPathComponent("empty.jpg"), text = folder.appendingPathComponent("notes.png")
        try Data().write(to: empty)
        try Data("just some words\n".utf8).write(to: text)
        for (file, reason) in [(empty, "Empty file"), (text, "Not an image")] {
            let script = folder.appendingPathComponent("script")
            try Data("wait-idle\nquit\n".utf8).write(to: script)
            let run = try ChildProcess.tessera([file.path, "--headless", "--no-thumbnail-cache", "--script", script.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("\(file.lastPathComponent): \(reason)"), run.stderr)
            XCTAssertFalse(run.stderr.contains("forbidden"), run.stderr)
        }
    }

    func testTheReportGivesTheStartupPhasesInOrder() throws {
        let photo = folder.appendingPathComponent("img1-baseline.jpg")
        try FileManager.default.copyItem(at: SampleImages.url("img1-baseline.jpg"), to: photo)
        let json = try run([photo.path])
        let startup = try XCTUnwrap(json["startup_ms"] as? [String: Double], "\(json)")
        let phases = ["main", "sdl", "window", "renderer", "first_frame", "settled"]
        let times = try phases.map { try XCTUnwrap(startup[$0], "\($0) missing: \(startup)") }
        XCTAssertEqual(times, times.sorted(), "phases out of order: \(startup)")
        XCTAssertGreaterThan(times[0], 0, "the process started before main")
    }

    func testAFolderOrTwoFilesOpenInTheStrip() throws {
        for name in ["img1-baseline.jpg", "img25-small.jpg"] {
            try FileManager.default.copyItem(at: SampleImages.url(name), to: folder.appendingPathComponent(name))
        }
        XCTAssertEqual(try run([folder.path])["mode"] as? String, "strip")
        XCTAssertEqual(try run([folder.appendingPathComponent("img1-baseline.jpg").path,
                                folder.appendingPathComponent("img25-small.jpg").path])["mode"] as? String, "strip")
    }
}
