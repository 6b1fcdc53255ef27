import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class TileFadeTests: XCTestCase {
    func testArrivingTileFadesLinearlyOverAQuarterSecond() {
        let clock = ManualClock(start: .seconds(10))
        let fade = TileFade()
        let start = fade.start(arrivingAt: clock.now(), onScreen: true)
        XCTAssertEqual(fade.alpha(fadeStart: start, now: clock.now()), 0)
        XCTAssertEqual(fade.availability(fadeStart: start, now: clock.now()), .fading)
        clock.advance(by: .milliseconds(125))
        XCTAssertEqual(fade.alpha(fadeStart: start, now: clock.now()), 0.5, accuracy: 1e-12)
        clock.advance(by: .milliseconds(125))
        XCTAssertEqual(fade.alpha(fadeStart: start, now: clock.now()), 1)
        XCTAssertEqual(fade.availability(fadeStart: start, now: clock.now()), .opaque)
    }

    func testHeldTileAppearsAtOnce() {
        let clock = ManualClock(start: .seconds(3))
        let fade = TileFade()
        let start = fade.start(arrivingAt: clock.now(), onScreen: false)
        XCTAssertEqual(fade.alpha(fadeStart: start, now: clock.now()), 1)
        XCTAssertEqual(fade.availability(fadeStart: start, now: clock.now()), .opaque)
    }

    func testZeroDisablesFading() {
        let fade = TileFade(timing: .none)
        let start = fade.start(arrivingAt: .seconds(1), onScreen: true)
        XCTAssertEqual(fade.alpha(fadeStart: start, now: .seconds(1)), 1)
        XCTAssertEqual(fade.availability(fadeStart: start, now: .seconds(1)), .opaque)
    }
}
