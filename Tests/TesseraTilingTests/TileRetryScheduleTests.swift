import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class TileRetryScheduleTests: XCTestCase {
    private let tile = TileID(level: 9, column: 1, row: 1)
    private let other = TileID(level: 9, column: 2, row: 1)

    func testDelaysDoubleUpToTheLongestAndStopAfterTheLastRetry() {
        let policy = TileRetryPolicy(firstDelay: .seconds(1), longestDelay: .seconds(4), automaticRetries: 4)
        XCTAssertEqual((1...5).map { policy.delay(afterFailures: $0) }, [.seconds(1), .seconds(2), .seconds(4), .seconds(4), nil])
        XCTAssertNil(TileRetryPolicy.never.delay(afterFailures: 1))
    }

    func testAFailedTileIsDueAfterItsDelayOnceAndOnlyAmongTheCandidates() {
        var schedule = TileRetrySchedule(policy: TileRetryPolicy(firstDelay: .seconds(1), longestDelay: .seconds(8), automaticRetries: 2))
        schedule.failed(tile, at: .seconds(10))
        XCTAssertEqual(schedule.nextDue(among: [tile]), .seconds(11))
        XCTAssertEqual(schedule.takeDue(among: [tile], now: .milliseconds(10_999)), [])
        XCTAssertEqual(schedule.takeDue(among: [other], now: .seconds(12)), [], "not a candidate: not on screen")
        XCTAssertEqual(schedule.takeDue(among: [tile], now: .seconds(11)), [tile])
        XCTAssertEqual(schedule.takeDue(among: [tile], now: .seconds(11)), [], "taken until it fails again")
        XCTAssertNil(schedule.nextDue(among: [tile]))

        schedule.failed(tile, at: .seconds(12))
        XCTAssertEqual(schedule.nextDue(among: [tile]), .seconds(14), "twice as long")
        XCTAssertEqual(schedule.takeDue(among: [tile], now: .seconds(14)), [tile])
        schedule.failed(tile, at: .seconds(15))
        XCTAssertNil(schedule.nextDue(among: [tile]), "the automatic retries are spent")
        XCTAssertEqual(schedule.failures(of: tile), 3)
    }

    func testTheUsersRetryMakesFailedTilesDueAtOnceAndStartsTheCountOver() {
        var schedule = TileRetrySchedule(policy: .never)
        schedule.failed(tile, at: .seconds(1))
        XCTAssertNil(schedule.nextDue(among: [tile]), "no automatic retry")
        schedule.retryNow([tile], at: .seconds(5))
        XCTAssertEqual(schedule.takeDue(among: [tile], now: .seconds(5)), [tile])
        schedule.failed(tile, at: .seconds(6))
        XCTAssertEqual(schedule.failures(of: tile), 1)
        schedule.succeeded(tile)
        XCTAssertEqual(schedule.failures(of: tile), 0)
    }
}
