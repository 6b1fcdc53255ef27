import XCTest
@testable import TesseraUI

/// While the strip fills, a fade's frames are spaced so drawing them takes at most a quarter of the time:
/// the decoders keep the rest, even where a frame is dear (a software GL renderer on a large window).
final class FramePacingTests: XCTestCase {
    func testFadeFramesWhileFillingTakeAtMostAQuarterOfTheTime() {
        XCTAssertEqual(FrameLoop.pacedInterval(afterFrameCosting: .milliseconds(28)), .milliseconds(112))
        XCTAssertEqual(FrameLoop.pacedInterval(afterFrameCosting: .milliseconds(2)), .milliseconds(40),
                       "cheap frames still go no faster than 25 a second while the screen fills")
    }
}
