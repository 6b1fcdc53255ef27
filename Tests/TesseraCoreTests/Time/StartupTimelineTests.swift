import Synchronization
import TesseraCore
import XCTest

final class StartupTimelineTests: XCTestCase {
    /// A phase is when it was first reached: a second frame or a later settled screen moves nothing.
    func testEachPhaseKeepsItsFirstMark() {
        let now = Mutex(12.0)
        let timeline = StartupTimeline(msSinceStart: { now.withLock { $0 } })
        timeline.mark(.main)
        now.withLock { $0 = 80 }
        timeline.mark(.firstFrame)
        now.withLock { $0 = 95 }
        timeline.mark(.firstFrame)
        timeline.mark(.main)
        XCTAssertEqual(timeline.figures, ["main": 12, "first_frame": 80])
    }

    /// The process's own timeline counts from the process's start, before any of this code ran.
    func testTheProcessTimelineCountsFromTheProcessStart() {
        let timeline = StartupTimeline.process
        timeline.mark(.main)
        let main = timeline.figures["main"] ?? 0
        XCTAssertGreaterThan(main, 0)
        XCTAssertLessThan(main, 24 * 3600 * 1000, "not since boot")
    }
}
