import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import TesseraTestSupport
import XCTest

/// A headless run that compares two images: `--report` says the mode is `compare` and how long after `c`
/// both panes were sharp.
final class CompareReportTests: XCTestCase {
    func testTheReportSaysCompareAndWhenThePanesWereSharp() throws {
        let folder = try TemporaryDirectory()
        for (name, colour) in [("a.png", RGBA(r: 200, g: 30, b: 30)), ("b.png", RGBA(r: 30, g: 30, b: 200))] {
            try PNGEncoder.write(PixelBuffer(width: 320, height: 240, filledWith: colour), to: folder.path(name))
        }
        let report = folder.path("run.json")
        let script = try folder.write(Data("wait-idle\nkey c\nwait-idle\nquit\n".utf8), to: "script")
        let run = try ChildProcess.tessera([folder.path("a.png"), folder.path("b.png"), "--headless", "--no-thumbnail-cache",
                                            "--no-config", "--script", script, "--report", report])
        XCTAssertEqual(run.status, 0, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        XCTAssertEqual(json["mode"] as? String, "compare")
        let sharp = try XCTUnwrap(json["compare_sharp_ms"] as? Double, "\(json)")
        XCTAssertGreaterThanOrEqual(sharp, 0)
    }
}
