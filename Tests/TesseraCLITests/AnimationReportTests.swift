import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest

/// A headless run over an animated GIF: the strip's selected cell and then the single view play it, and
/// `--report` counts the frames put on screen.
final class AnimationReportTests: XCTestCase {
    func testTheReportCountsTheAnimationFramesShown() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-anim-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let palette = [RGBA(r: 220, g: 30, b: 30), RGBA(r: 30, g: 200, b: 40)]
        // Two frames of 0 centiseconds each: shown for 100 ms each, forever.
        let frames = (0..<2).map { GIFFixtures.Frame(width: 64, height: 48, indices: Array(repeating: UInt8($0), count: 64 * 48), delay: 0) }
        try GIFFixtures.gif(palette: palette, repeats: 0, frames: frames).write(to: folder.appendingPathComponent("a.gif"))
        let still = folder.appendingPathComponent("b.gif")
        try GIFFixtures.gif(palette: palette, frames: [frames[0]]).write(to: still)

        let report = folder.appendingPathComponent("run.json"), script = folder.appendingPathComponent("script")
        try Data("wait-idle\nwait 0.6\nkey enter\nwait 0.8\nquit\n".utf8).write(to: script)
        let run = try ChildProcess.tessera([folder.appendingPathComponent("a.gif").path, still.path, "--headless",
                                            "--no-thumbnail-cache", "--script", script.path, "--report", report.path])
        XCTAssertEqual(run.status, 0, run.stderr)

        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual(json["mode"] as? String, "single")
        let shown = try XCTUnwrap(json["animation_frames_shown"] as? Int, "\(json)")
        // 1.4 s of playing at 100 ms a frame, less what decoding and opening take: well over a few.
        XCTAssertGreaterThanOrEqual(shown, 4, "\(json)")
        XCTAssertLessThanOrEqual(shown, 20, "a zero delay is shown for 100 ms, not raced")
    }
}
