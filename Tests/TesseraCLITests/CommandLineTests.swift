import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import TesseraTestSupport
import XCTest

/// Runs the built `tessera` binary the way a user does and checks what they would see.
final class CommandLineTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private var binary: URL { BuiltBinary.url(named: "tessera") }

    /// A folder of four small photos from the repository's samples.
    private func sampleFolder() throws -> URL {
        let images = folder.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for name in ["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg", "img25-small.jpg"] {
            try FileManager.default.copyItem(at: SampleImages.url(name), to: images.appendingPathComponent(name))
        }
        return images
    }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        // Thumbnails go to this test's folder, never to the user's ~/.cache; settings come from this test's
        // folder only, never the user's config.toml.
        let run = try ChildProcess.tessera(arguments, environment: [
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path])
        return (run.status, run.stdout, run.stderr)
    }

    func testAMissingPathIsOneClearLineAndAFailure() throws {
        let result = try run(["/no/such/folder"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("/no/such/folder: no such file or folder"), result.stderr)
    }

    func testAFolderWithoutImagesIsOneClearLineAndAFailure() throws {
        try Data("notes".utf8).write(to: folder.appendingPathComponent("readme.txt"))
        let result = try run([folder.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("no images found"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }

    func testAnUnreadableOrEmptyImageListIsOneClearLineAndAFailure() throws {
        let missing = try run(["-i", "/no/such/list.txt", "--headless", "--frames", "1"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertEqual(missing.stderr.split(separator: "\n"), ["tessera: /no/such/list.txt: cannot read the list"])
        let list = folder.appendingPathComponent("list.txt")
        try "# nothing but a comment\n\n".write(to: list, atomically: true, encoding: .utf8)
        let empty = try run(["-i", list.path, "--headless", "--frames", "1"])
        XCTAssertNotEqual(empty.status, 0)
        XCTAssertEqual(empty.stderr.split(separator: "\n"), ["tessera: \(list.path): the list names no images"])
    }

    func testLimitsTooLargeToHoldAreRefusedWithAReasonNotACrash() throws {
        for (command, option, limit) in [([String](), "--pixel-limit-mp", "100000"), ([], "--cache-mb", "1048576"),
                                         (["view", "in.jpg"], "--pixel-limit-mp", "100000"),
                                         (["view", "in.jpg"], "--cache-mb", "1048576"),
                                         (["tile", "in.jpg", "--out", "/tmp/unused"], "--pixel-limit-mp", "100000")] {
            let result = try run(command + [option, "99999999999999999"])
            XCTAssertEqual(result.status, 64, "\(command) \(option): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("\(option) must be between 1 and \(limit)"), result.stderr)
        }
    }

    func testAnUnknownScriptIsRefused() throws {
        let result = try run(["--headless", "--script", "/no/such/script", "--frames", "1"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("not a built-in script"), result.stderr)
    }

    func testHelpListsEveryKeyOfTheTableGroupedByView() throws {
        let result = try run(["browse", "--help"])
        XCTAssertEqual(result.status, 0)
        for key in ["Left, h", "Right, l", "PageUp", "PageDown", "g, Home", "G, End", "Enter", "Esc", "fullscreen", "q ",
                    "ctrl+x", "Delete", "ctrl+z", "Both views:", "Strip:", "Single view:"] {
            XCTAssertTrue(result.stdout.contains(key), "help mentions \(key)")
        }
        // Every line of the one key table, in the order the table gives.
        var rest = Substring(result.stdout)
        for section in KeyBindings.defaults.helpSections {
            for line in [section.title + ":"] + section.lines.map({ "\($0.keys) " }) {
                guard let found = rest.range(of: line) else { return XCTFail("help lacks \(line)\n\(result.stdout)") }
                rest = rest[found.upperBound...]
            }
        }
        // The single view steps with PageUp/PageDown (and n, Space in both views); its arrows pan.
        let single = try XCTUnwrap(result.stdout.components(separatedBy: "Single view:").last)
        XCTAssertTrue(single.contains("PageDown      next image"), single)
        XCTAssertTrue(single.contains("Left, h       pan left"), single)
        XCTAssertFalse(result.stdout.contains("Left/Right or the wheel step"), result.stdout)
    }

    /// Every subcommand's defaults read as they are typed on the command line.
    func testOptionDefaultsPrintAsTheyAreTyped() throws {
        var helps: [String: String] = [:]
        for command in [["browse"], ["view"], ["tile"], ["bench", "thumbs"], ["bench", "scroll"]] {
            let result = try run(command + ["--help"])
            XCTAssertEqual(result.status, 0, result.stderr)
            // Defaults, with the help's line wrapping undone.
            let text = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            helps[command.joined(separator: " ")] = text
            for match in text.components(separatedBy: "(default: ").dropFirst() {
                let value = String(match.prefix { $0 != ")" })
                XCTAssertFalse(value.contains("(") || value.contains(":") || value.hasSuffix(".0"),
                               "\(command): default \(value)")
            }
        }
        XCTAssertTrue(helps["browse"]!.contains("Cell size in points. Default: 4:3 cells that fill the window's height"),
                      helps["browse"]!)
        XCTAssertTrue(helps["browse"]!.contains("Window size in points. (default: 1280x720)"), helps["browse"]!)
        XCTAssertTrue(helps["view"]!.contains("Window size in points. (default: 1280x720)"), helps["view"]!)
        XCTAssertTrue(helps["browse"]!.contains("without data. (default: 15)"), helps["browse"]!)
        XCTAssertTrue(helps["bench scroll"]!.contains("turns fading off. (default: 0.25)"), helps["bench scroll"]!)
    }

    func testAHeadlessRunOverTheSamplesWritesTheReportAndScreenshot() throws {
        let report = folder.appendingPathComponent("run.json"), shot = folder.appendingPathComponent("shot.png")
        let result = try run(["--headless", "--frames", "30", "--report", report.path, "--screenshot", shot.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        for field in ["frames", "frame_ms", "frames_over_16ms", "main_thread_decodes", "decodes", "cache", "cells_created",
                      "placeholder_cell_frames", "upload_bytes", "peak_rss_bytes"] {
            XCTAssertNotNil(json[field], "report has \(field)")
        }
        XCTAssertEqual(json["frames"] as? Int, 30)
        XCTAssertEqual(json["main_thread_decodes"] as? Int, 0)
        let cache = json["cache"] as! [String: Any]
        for field in ["hits", "misses", "evictions", "peak_cost_bytes", "cost_limit_bytes"] { XCTAssertNotNil(cache[field]) }
        let frameMs = json["frame_ms"] as! [String: Any]
        for field in ["p50", "p90", "p99", "max"] { XCTAssertNotNil(frameMs[field]) }
        let png = try Data(contentsOf: shot)
        XCTAssertEqual(Array(png.prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    /// `bench thumbs`: the median of the runs, as JSON or as text, through the viewer's decoders, with the
    /// thumbnail cache in a temporary folder.
    func testThumbsBenchReportsTheMedianRun() throws {
        let images = try sampleFolder()
        let result = try run(["bench", "thumbs", images.path, "--runs", "3", "--workers", "2", "--quality", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(json["size"] as? Int, 256)
        XCTAssertEqual(json["workers"] as? Int, 2)
        XCTAssertEqual(json["cache"] as? String, "none")
        let runs = try XCTUnwrap(json["runs"] as? [Double])
        XCTAssertEqual(runs.count, 3)
        let median = try XCTUnwrap(json["result"] as? [String: Any])
        XCTAssertEqual(median["files"] as? Int, 4)
        XCTAssertEqual(median["failures"] as? [String], [])
        XCTAssertEqual(median["wallSeconds"] as? Double, runs.sorted()[1])
        let quality = try XCTUnwrap(json["quality"] as? [[String: Any]])
        XCTAssertEqual(quality.first?["format"] as? String, "JPEG")

        let warm = try run(["bench", "thumbs", images.path, "--cache", "warm", "--size", "128"])
        XCTAssertEqual(warm.status, 0, warm.stderr)
        XCTAssertTrue(warm.stdout.hasPrefix("4 files to 128 px, "), warm.stdout)
        XCTAssertTrue(warm.stdout.contains("thumbnail cache: warm\n"), warm.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("cache/thumbnails").path),
                       "the user's cache is left alone")
        let refused = try run(["bench", "thumbs", images.path, "--cache", "save", "--size", "2000"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--cache save needs --size 1024 or less"), refused.stderr)
    }

    /// `--runs 2`: every figure of a row is one of the two runs' (the median by nearest rank), and both
    /// runs' p99 are listed; every other strategy's row says how adaptive's p99 compares with its own.
    func testScrollBenchWithSeveralRunsReportsTheMedianRun() throws {
        let images = try sampleFolder()
        let result = try run(["bench", "scroll", images.path, "--strategy", "cache,adaptive", "--input", "jump", "--runs", "2",
                              "--fade", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rows = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [[String: Any]]
        XCTAssertEqual(rows.map { $0["strategy"] as? String }, ["cache", "adaptive"])
        let comparison = try XCTUnwrap(rows[0]["adaptive_p99_minus_this"] as? [String: Any])
        let difference = try XCTUnwrap(comparison["difference"] as? Double)
        XCTAssertEqual(difference, (rows[1]["p99_all_runs"] as! Double) - (rows[0]["p99_all_runs"] as! Double), accuracy: 1e-9)
        XCTAssertLessThanOrEqual(comparison["low"] as! Double, comparison["high"] as! Double)
        XCTAssertTrue(["lower", "not distinguishable", "higher"].contains(comparison["verdict"] as? String), "\(comparison)")
        XCTAssertNil(rows[1]["adaptive_p99_minus_this"], "adaptive is not compared with itself")
        let runs = rows[0]["p99_runs"] as! [Double]
        XCTAssertEqual(runs.count, 2)
        XCTAssertTrue(runs.contains(rows[0]["p99"] as! Double), "\(rows[0])")
        // The p99 of both runs' frames together lies between the two runs' own.
        let pooled = rows[0]["p99_all_runs"] as! Double
        XCTAssertTrue(pooled >= runs.min()! && pooled <= runs.max()!, "\(pooled) against \(runs)")
        XCTAssertEqual(rows[0]["main_thread_decodes"] as? Int, 0)
        XCTAssertEqual(rows[0]["fading_frames"] as? Int, 0, "--fade 0 reached the viewer")

        let refused = try run(["bench", "scroll", images.path, "--runs", "0"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.stderr.contains("--runs must be between 1 and 99"), refused.stderr)
        let badFade = try run(["bench", "scroll", images.path, "--fade", "11"])
        XCTAssertNotEqual(badFade.status, 0)
        XCTAssertTrue(badFade.stderr.contains("--fade must be between 0 and 10 seconds"), badFade.stderr)
    }

    /// Images arriving on screen fade in over several frames, which the report counts; without a fade
    /// there are none.
    func testTheReportCountsFramesWithAnImageFadingIn() throws {
        let images = try sampleFolder()
        let script = folder.appendingPathComponent("idle.txt")
        try "wait-idle\n".write(to: script, atomically: true, encoding: .utf8)
        func fadingFrames(_ extra: [String]) throws -> Int {
            let report = folder.appendingPathComponent("run.json")
            let result = try run([images.path, "--headless", "--script", script.path, "--report", report.path,
                                  "--no-thumbnail-cache"] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
            return json["fading_frames"] as! Int
        }
        // 0.25 s at 60 frames a second is some fifteen frames.
        XCTAssertGreaterThanOrEqual(try fadingFrames([]), 10)
        XCTAssertEqual(try fadingFrames(["--fade", "0"]), 0)
    }

    /// `--frame-times` lists every frame: when it started, its time, the placeholders it drew, and how
    /// long our update, uploads and draw calls took of it. The columns add up to the run's totals.
    func testFrameTimesListEveryFrameAndWhereItsTimeWent() throws {
        let images = try sampleFolder()
        let script = folder.appendingPathComponent("idle.txt")
        try "wait-idle\nkey end\nwait-scroll\nwait-idle\n".write(to: script, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("run.json")
        let result = try run([images.path, "--headless", "--script", script.path, "--report", report.path,
                              "--no-thumbnail-cache", "--frame-times"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        let frames = try XCTUnwrap(json["frame_times"] as? [[Double]])
        XCTAssertEqual(frames.count, json["frames"] as? Int)
        XCTAssertTrue(frames.allSatisfy { $0.count == 6 }, "\(frames.prefix(3))")
        XCTAssertEqual(frames.map { $0[0] }, frames.map { $0[0] }.sorted(), "frames in the order they started")
        XCTAssertEqual(Int(frames.map { $0[2] }.reduce(0, +)), json["placeholder_cell_frames"] as? Int)
        XCTAssertGreaterThan(frames.first?[2] ?? 0, 0, "the first frame drew placeholders")
        XCTAssertEqual(frames.last?[2], 0, "the last frame drew pictures")
        for frame in frames {
            let phases = frame[3] + frame[4] + frame[5]
            XCTAssertTrue(frame[3...].allSatisfy { $0 >= 0 } && phases > 0, "\(frame)")
            XCTAssertLessThanOrEqual(phases, frame[1] + 1e-6, "the parts of a frame are inside it: \(frame)")
        }
        let withoutFlag = try run([images.path, "--headless", "--frames", "5", "--report", report.path, "--no-thumbnail-cache"])
        XCTAssertEqual(withoutFlag.status, 0, withoutFlag.stderr)
        let plain = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertNil(plain["frame_times"], "frame times only when asked for")
    }

    func testAScriptFileDrivesTheStrip() throws {
        let script = folder.appendingPathComponent("keys.txt")
        try "wait 0.1\nkey end\nwait-scroll\nwait-idle\n".write(to: script, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("run.json")
        let result = try run(["--headless", "--script", script.path, "--report", report.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertGreaterThan(json["frames"] as! Int, 5)
        XCTAssertGreaterThan(json["decodes"] as! Int, 4, "pressing End loaded the last screen too")
    }
}

/// `tessera tile --layout iiif3 --id URL` writes an IIIF tree whose info.json names the URL; `view` opens
/// the tree; overlap is refused for IIIF.
final class IIIFTileCommandTests: XCTestCase {
    func testTheIIIFLayoutWritesATreeTheViewOpens() throws {
        let folder = try TemporaryDirectory()
        let image = folder.path("scan.png")
        try PNGEncoder.write(PixelBuffer(width: 900, height: 600, filledWith: RGBA(r: 90, g: 140, b: 200)), to: image)
        let cut = try ChildProcess.tessera(["tile", image, "--out", folder.path("out"), "--layout", "iiif3",
                                            "--id", "https://example.org/iiif/", "--decode-in-process", "--quiet"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder.path("out/scan/info.json")))) as? [String: Any])
        XCTAssertEqual(info["id"] as? String, "https://example.org/iiif/scan")
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("out/scan/0,0,512,512/512,512/0/default.jpg")))

        let report = folder.path("run.json")
        let view = try ChildProcess.tessera(["view", folder.path("out/scan"), "--headless", "--no-config", "--report", report])
        XCTAssertEqual(view.status, 0, view.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertNotNil(json["sharp_ms"] as? Double, "\(json)")
        XCTAssertEqual(json["tiles_failed"] as? Int ?? 0, 0)

        let overlap = try ChildProcess.tessera(["tile", image, "--out", folder.path("out2"), "--layout", "iiif3", "--overlap", "1"])
        XCTAssertEqual(overlap.status, 64)
        XCTAssertTrue(overlap.stderr.contains("IIIF tiles do not overlap"), overlap.stderr)
    }
}
