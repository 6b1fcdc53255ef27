import XCTest
@testable import TesseraCore

final class TileLoadQueueTests: XCTestCase {
    private struct Broken: Error {}

    func testLoadsOncePerTileDropsUnwantedAndRemembersFailures() {
        let scheduler = WorkScheduler<TileID, PixelBuffer>.inline()
        let bad = TileID(level: 1, column: 1, row: 0)
        let queue = TileLoadQueue(scheduler: scheduler) { tile in
            if tile == bad { throw TileLoadFailure(reason: "broken") }
            return PixelBuffer(width: 1, height: 1, filledWith: RGBA(r: UInt8(tile.column), g: 0, b: 0))
        }
        let a = TileID(level: 1, column: 0, row: 0), c = TileID(level: 1, column: 0, row: 1)
        queue.request(a, priority: 1)
        queue.request(a, priority: 0)
        queue.request(bad, priority: 2)
        queue.request(c, priority: 3)
        XCTAssertEqual(queue.counters.requested, 3)
        queue.retainOnly([a, bad])
        XCTAssertEqual(queue.counters.cancelled, 1)
        scheduler.runPending()
        let arrivals = queue.takeArrivals()
        XCTAssertEqual(arrivals.map(\.tile), [a, bad])
        XCTAssertEqual(queue.counters.decoded, 1)
        XCTAssertEqual(queue.counters.failed, 1)
        XCTAssertEqual(queue.failure(for: bad), TileLoadFailure(reason: "broken"))
        queue.request(bad, priority: 0)
        XCTAssertEqual(scheduler.queuedCount, 0, "a failed tile is not tried again")
        queue.request(c, priority: 0)
        XCTAssertEqual(queue.counters.requested, 4, "a dropped tile can be asked for again")
        XCTAssertEqual(queue.inFlightCount, 1)
    }
}
