import XCTest
@testable import TesseraUI

/// While the strip fills, a fade's frames are spaced so drawing them takes at most half the time: the
/// decoders keep the rest, even where a frame is dear (a software GL renderer on a large window).
final class FramePacingTests: XCTestCase {
    func testFadeFramesWhileFillingTakeAtMostHalfTheTime() {
        XCTAssertEqual(FrameLoop.pacedInterval(afterFrameCosting: .milliseconds(28)), .milliseconds(56))
        XCTAssertEqual(FrameLoop.pacedInterval(afterFrameCosting: .milliseconds(2)), .milliseconds(33),
                       "cheap frames still go no faster than 30 a second while the screen fills")
    }
}
