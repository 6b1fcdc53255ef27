import XCTest
@testable import TesseraCore

final class ClockTests: XCTestCase {
    func testManualClockMovesOnlyWhenTold() {
        let clock = ManualClock()
        XCTAssertEqual(clock.now(), .zero)
        clock.advance(by: .milliseconds(16))
        clock.advance(by: .milliseconds(17))
        XCTAssertEqual(clock.now(), .milliseconds(33))
        clock.set(.seconds(5))
        XCTAssertEqual(clock.now(), .seconds(5))
        XCTAssertEqual(ManualClock(start: .seconds(2)).now(), .seconds(2))
    }

    func testManualClockIsUsableAcrossThreads() {
        let clock = ManualClock()
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in clock.advance(by: .milliseconds(1)) }
        XCTAssertEqual(clock.now(), .seconds(1))
    }

    func testMonotonicClockNeverGoesBackwardsAndSharesOrigin() {
        let a = MonotonicClock()
        var previous = a.now()
        for _ in 0..<1000 {
            let now = a.now()
            XCTAssertGreaterThanOrEqual(now, previous)
            previous = now
        }
        let b = MonotonicClock()
        let fromB = b.now()
        XCTAssertGreaterThanOrEqual(fromB, previous, "one origin per process")
        XCTAssertLessThan(fromB - previous, .seconds(1))
    }
}
