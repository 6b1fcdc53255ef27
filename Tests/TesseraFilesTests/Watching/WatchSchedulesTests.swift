import Foundation
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

/// The watcher's two timers, without a thread or inotify: polling folders on network filesystems and
/// looking for given folders that went away.
final class WatchSchedulesTests: XCTestCase {
    private let start = ContinuousClock().now

    func testPollingRunsOnlyWhileAPolledFolderIsWatched() {
        var never = PollSchedule(interval: nil)
        never.start(at: start)
        XCTAssertNil(never.next)
        XCTAssertFalse(never.isDue(at: start + .seconds(100)))

        var schedule = PollSchedule(interval: .seconds(3))
        XCTAssertFalse(schedule.isDue(at: start + .seconds(100)), "nothing polled yet")
        schedule.start(at: start)
        schedule.start(at: start + .seconds(2))
        XCTAssertEqual(schedule.next, start + .seconds(3), "a second polled folder does not push the poll back")
        XCTAssertFalse(schedule.isDue(at: start + .milliseconds(2999)))
        XCTAssertTrue(schedule.isDue(at: start + .seconds(3)))
        schedule.polled(at: start + .seconds(3), stillNeeded: true)
        XCTAssertEqual(schedule.next, start + .seconds(6))
        schedule.polled(at: start + .seconds(6), stillNeeded: false)
        XCTAssertNil(schedule.next)
    }

    func testLostFoldersAreLookedForUntilTheyAreBack() throws {
        let dir = try TemporaryDirectory()
        let back = dir.path("back"), gone = dir.path("gone")
        try FileManager.default.createDirectory(atPath: back, withIntermediateDirectories: true)
        try dir.write(Data([1]), to: "gone")  // a file where the folder was is not the folder
        var lost = LostFolders(interval: .seconds(1))
        XCTAssertFalse(lost.isDue(at: start + .seconds(10)))
        for path in [back, gone] {
            lost.lose(WatchedFolder(path: path, takesImages: true, descends: false, singleFiles: [:], isGiven: true),
                      at: start)
        }
        XCTAssertFalse(lost.isDue(at: start + .milliseconds(999)))
        XCTAssertTrue(lost.isDue(at: start + .seconds(1)))
        XCTAssertEqual(lost.reappeared.map(\.path), [back])

        lost.found(back)
        lost.looked(at: start + .seconds(1))
        XCTAssertEqual(lost.nextCheck, start + .seconds(2), "the other one is still looked for")
        lost.found(gone)
        lost.looked(at: start + .seconds(2))
        XCTAssertNil(lost.nextCheck)
    }
}
