import Foundation
import TesseraTestSupport
import XCTest

/// The binary as nsxiv users drive it: `-o` (and `-0`) hand the marked images to the next program on
/// standard output and nothing else goes there; Ctrl-x and a key run the key-handler in
/// $XDG_CONFIG_HOME; the report says where the viewer was.
final class MarkedOutputTests: XCTestCase {
    private var folder: URL!
    private var images: [String] = []

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-marks-\(UUID().uuidString)")
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        images = try ["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg"].map { name in
            let target = photos.appendingPathComponent(name)
            try FileManager.default.copyItem(at: SampleImages.url(name), to: target)
            return target.path
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func run(_ arguments: [String], script: String) throws -> (status: Int32, stdout: Data, stderr: String) {
        let scriptFile = folder.appendingPathComponent("script.txt")
        try script.write(to: scriptFile, atomically: true, encoding: .utf8)
        // Everything the viewer could write or read of the user's stays in the test's folder.
        let run = try ChildProcess.tessera(
            [folder.appendingPathComponent("photos").path, "--headless", "--no-watch", "--script", scriptFile.path] + arguments,
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                          "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                          "XDG_DATA_HOME": folder.appendingPathComponent("data").path])
        return (run.status, run.output, run.stderr)
    }

    /// Marks the first and the third image and quits.
    private let markTwo = "wait-idle\nkey m\nkey l\nkey l\nkey m\nkey q\n"

    func testDashOWritesTheMarkedPathsOneALineAndNothingElse() throws {
        let result = try run(["-o"], script: markTwo)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self), "\(images[0])\n\(images[2])\n")
        let unmarked = try run(["-o"], script: "wait-idle\nkey q\n")
        XCTAssertEqual(unmarked.stdout, Data(), "no marks, no output")
        let withoutFlag = try run([], script: markTwo)
        XCTAssertEqual(withoutFlag.stdout, Data(), "without -o, nothing on standard output")
    }

    func testDashZeroEndsEachPathWithNUL() throws {
        let result = try run(["-o", "-0"], script: markTwo)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, Data("\(images[0])\0\(images[2])\0".utf8))
    }

    func testCtrlXThenAKeyRunsTheKeyHandlerWithTheComboAndTheImages() throws {
        let config = folder.appendingPathComponent("config/tessera")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        let handler = config.appendingPathComponent("key-handler")
        // It says something on its standard output too, which must not reach ours.
        try """
            #!/bin/sh
            printf '%s' "$1" > "\(folder.path)/argument"
            cat > "\(folder.path)/input"
            echo "handled"
            """.write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
        let script = markTwo.replacingOccurrences(of: "key q\n", with: "key ctrl+x\nkey ctrl+r\nwait 1\nwait-idle\nkey q\n")
        let result = try run(["-o"], script: script)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("argument"), encoding: .utf8), "C-r")
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("input"), encoding: .utf8),
                       "\(images[0])\n\(images[2])\n")
        XCTAssertEqual(String(decoding: result.stdout, as: UTF8.self), "\(images[0])\n\(images[2])\n",
                       "the handler's output went elsewhere")
        XCTAssertTrue(result.stderr.contains("handled"), result.stderr)

        // With -0 the handler reads NUL-separated paths (and is told so).
        try """
            #!/bin/sh
            printf '%s' "$TESSERA_USING_NULL" > "\(folder.path)/null"
            cat > "\(folder.path)/input"
            """.write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
        XCTAssertEqual(try run(["-0"], script: script).status, 0)
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("input")), Data("\(images[0])\0\(images[2])\0".utf8))
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("null"), encoding: .utf8), "1")
    }

    func testTheReportSaysWhichViewWasShownWhatWasSelectedAndWhatWasMarked() throws {
        let report = folder.appendingPathComponent("run.json")
        let result = try run(["--report", report.path], script: "wait-idle\nkey m\nkey n\nkey enter\nwait 0.2\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertEqual(json["mode"] as? String, "single")
        XCTAssertEqual(json["selected_item"] as? String, images[1])
        XCTAssertEqual(json["marked_items"] as? [String], [images[0]])

        XCTAssertEqual(try run(["--report", report.path], script: "wait-idle\n").status, 0)
        let strip = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertEqual(strip["mode"] as? String, "strip")
        XCTAssertEqual(strip["selected_item"] as? String, images[0])
        XCTAssertEqual(strip["marked_items"] as? [String], [])
    }

    func testSlideshowNeedsAPositiveDelay() throws {
        let result = try run(["--slideshow", "0"], script: "quit\n")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--slideshow must be between 0.1 and 86400 seconds"), result.stderr)
        let report = folder.appendingPathComponent("run.json")
        XCTAssertEqual(try run(["--slideshow", "3", "--report", report.path], script: "wait 0.2\n").status, 0)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as! [String: Any]
        XCTAssertEqual(json["mode"] as? String, "single", "--slideshow starts in the single view")
    }
}
