import TesseraUI
import XCTest
@testable import TesseraBench

/// The scroll bench's inputs are scripts the viewer replays: each must parse as one.
final class ScrollInputTests: XCTestCase {
    func testEveryInputIsAScriptTheViewerReads() throws {
        XCTAssertEqual(ScrollInput.all.map(\.name), ["slow-drag", "fast-fling", "back-and-forth", "jump"])
        for input in ScrollInput.all {
            let script = try InputScript.parse(input.script)
            XCTAssertGreaterThan(script.commands.count, 3, input.name)
        }
        XCTAssertEqual(ScrollInput.named("jump")?.name, "jump")
        XCTAssertNil(ScrollInput.named("sideways"))
    }
}
