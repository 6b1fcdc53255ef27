import XCTest
@testable import TesseraCore

final class AnimationPlayerTests: XCTestCase {
    private func ms(_ value: Int) -> Duration { .milliseconds(value) }

    func testZeroAndTinyDelaysShowForATenthOfASecond() {
        XCTAssertEqual(AnimationPlayer.shownDelay(.zero), .milliseconds(100))
        XCTAssertEqual(AnimationPlayer.shownDelay(.milliseconds(10)), .milliseconds(100), "a GIF's 1 centisecond")
        XCTAssertEqual(AnimationPlayer.shownDelay(.milliseconds(20)), .milliseconds(20))
        XCTAssertEqual(AnimationPlayer.shownDelay(.milliseconds(500)), .milliseconds(500))
    }

    func testEachFrameIsDueAfterItsOwnDelay() {
        let clock = ManualClock(start: .seconds(1))
        var player = AnimationPlayer(firstDelay: ms(200), plays: 0, now: clock.now())
        XCTAssertEqual(player.nextChangeAt, .seconds(1) + ms(200))
        clock.advance(by: ms(199))
        XCTAssertFalse(player.offer(frame: 1, delay: ms(50), now: clock.now()), "not yet due")
        XCTAssertEqual(player.frameIndex, 0)
        clock.advance(by: ms(1))
        XCTAssertTrue(player.offer(frame: 1, delay: ms(50), now: clock.now()))
        XCTAssertEqual(player.frameIndex, 1)
        XCTAssertEqual(player.nextChangeAt, .seconds(1) + ms(250))
        clock.advance(by: ms(50))
        XCTAssertTrue(player.offer(frame: 2, delay: .zero, now: clock.now()))
        XCTAssertEqual(player.nextChangeAt, .seconds(1) + ms(350), "a zero delay shows for 100 ms")
        XCTAssertEqual(player.framesShown, 3)
    }

    func testAFrameInTimeKeepsTheScheduleALateOneStartsWhenShown() {
        var player = AnimationPlayer(firstDelay: ms(100), plays: 0, now: .zero)
        XCTAssertTrue(player.offer(frame: 1, delay: ms(100), now: ms(130)))
        XCTAssertEqual(player.shownAt, ms(100), "30 ms late, within its own delay: on schedule")
        XCTAssertTrue(player.offer(frame: 2, delay: ms(100), now: ms(600)))
        XCTAssertEqual(player.shownAt, ms(600), "later than its delay: no racing to catch up")
    }

    func testPlaysAsOftenAsTheFileSaysThenStaysOnTheLastFrame() {
        var player = AnimationPlayer(firstDelay: ms(100), plays: 2, now: .zero)
        var now = Duration.zero
        func step(_ index: Int) -> Bool {
            now += ms(100)
            return player.offer(frame: index, delay: ms(100), now: now)
        }
        XCTAssertTrue(step(1))
        XCTAssertTrue(step(2))
        XCTAssertTrue(step(0), "the second play")
        XCTAssertEqual(player.playsCompleted, 1)
        XCTAssertTrue(step(1))
        XCTAssertTrue(step(2))
        XCTAssertFalse(step(0), "two plays done")
        XCTAssertTrue(player.isFinished)
        XCTAssertEqual(player.frameIndex, 2)
        XCTAssertNil(player.nextChangeAt, "nothing more to wake for")
        XCTAssertFalse(step(1))
    }

    func testZeroPlaysLoopsForever() {
        var player = AnimationPlayer(firstDelay: ms(100), plays: 0, now: .zero)
        for play in 1...50 {
            XCTAssertTrue(player.offer(frame: 1, delay: ms(100), now: ms(200 * play - 100)))
            XCTAssertTrue(player.offer(frame: 0, delay: ms(100), now: ms(200 * play)))
        }
        XCTAssertEqual(player.playsCompleted, 50)
        XCTAssertFalse(player.isFinished)
    }

    func testPauseStopsTheClockAndResumeGivesBackTheTimeLeft() {
        var player = AnimationPlayer(firstDelay: ms(300), plays: 0, now: .zero)
        player.pause(now: ms(100))
        XCTAssertTrue(player.isPaused)
        XCTAssertNil(player.nextChangeAt)
        XCTAssertFalse(player.offer(frame: 1, delay: ms(300), now: .seconds(5)), "paused: nothing advances")
        player.togglePause(now: .seconds(5))
        XCTAssertFalse(player.isPaused)
        XCTAssertEqual(player.nextChangeAt, .seconds(5) + ms(200), "the 200 ms it had left")
        XCTAssertTrue(player.offer(frame: 1, delay: ms(300), now: .seconds(5) + ms(200)))
    }
}
