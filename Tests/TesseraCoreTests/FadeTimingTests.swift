import XCTest
@testable import TesseraCore

final class FadeTimingTests: XCTestCase {
    func testDefaultIsQuarterSecondLinear() {
        let fade = FadeTiming()
        XCTAssertEqual(fade.duration, .milliseconds(250))
        let start = Duration.seconds(3)
        XCTAssertEqual(fade.alpha(startedAt: start, now: start), 0)
        XCTAssertEqual(fade.alpha(startedAt: start, now: start + .milliseconds(125)), 0.5, accuracy: 1e-12)
        XCTAssertEqual(fade.alpha(startedAt: start, now: start + .milliseconds(250)), 1)
        XCTAssertEqual(fade.alpha(startedAt: start, now: start + .seconds(10)), 1)
        XCTAssertEqual(fade.alpha(startedAt: start, now: start - .milliseconds(10)), 0, "before arrival")
        XCTAssertFalse(fade.isComplete(startedAt: start, now: start + .milliseconds(249)))
        XCTAssertTrue(fade.isComplete(startedAt: start, now: start + .milliseconds(250)))
    }

    func testZeroDurationIsAlwaysOpaque() {
        let fade = FadeTiming(duration: .zero)
        XCTAssertEqual(fade.alpha(startedAt: .seconds(1), now: .seconds(1)), 1)
        XCTAssertEqual(fade.alpha(startedAt: .seconds(1), now: .zero), 1)
        XCTAssertEqual(FadeTiming.none.alpha(startedAt: .zero, now: .zero), 1)
        XCTAssertTrue(fade.isComplete(startedAt: .seconds(1), now: .seconds(1)))
    }

    func testWithManualClock() {
        let clock = ManualClock()
        let fade = FadeTiming.default
        let arrived = clock.now()
        clock.advance(by: .milliseconds(50))
        XCTAssertEqual(fade.alpha(startedAt: arrived, now: clock.now()), 0.2, accuracy: 1e-12)
    }
}
