import XCTest
@testable import TesseraCore

/// The tiled view's use of the load pipeline: no storage (its store holds textures), one load per tile,
/// queued tiles the view left dropped, a broken tile remembered.
final class TilePipelineTests: XCTestCase {
    func testLoadsOncePerTileDropsUnwantedAndRemembersFailures() {
        let scheduler = WorkScheduler<TileID, PixelBuffer>.inline()
        let bad = TileID(level: 1, column: 1, row: 0)
        let loads = CountingObserver()
        let pipeline = LoadPipeline<TileID, PixelBuffer>(scheduler: scheduler, cost: \.cost, loader: { tile, _ in
            if tile == bad { throw LoadFailure(shortText: "Missing tile", detail: "broken") }
            return PixelBuffer(width: 1, height: 1, filledWith: RGBA(r: UInt8(tile.column), g: 0, b: 0))
        }, observation: LoadObservation(loads, view: .tiled))
        let a = TileID(level: 1, column: 0, row: 0), c = TileID(level: 1, column: 0, row: 1)
        pipeline.request(a, priority: 1)
        pipeline.request(a, priority: 0)
        pipeline.request(bad, priority: 2)
        pipeline.request(c, priority: 3)
        XCTAssertEqual(loads.tiled.requested, 3)
        pipeline.retainOnly([a, bad])
        XCTAssertEqual(loads.tiled.droppedQueued, 1)
        scheduler.runPending()
        let arrivals = pipeline.drain()
        XCTAssertEqual(arrivals.map(\.key), [a, bad])
        XCTAssertEqual(loads.tiled.succeeded, 1)
        XCTAssertEqual(loads.tiled.failed, 1)
        XCTAssertEqual(pipeline.failure(for: bad), LoadFailure(shortText: "Missing tile", detail: "broken"))
        pipeline.request(bad, priority: 0)
        XCTAssertEqual(scheduler.queuedCount, 0, "a failed tile is not tried again")
        pipeline.request(c, priority: 0)
        XCTAssertEqual(loads.tiled.requested, 4, "a dropped tile can be asked for again")
        XCTAssertEqual(pipeline.inFlightCount, 1)
        pipeline.request(a, priority: 0)
        XCTAssertEqual(loads.tiled.requested, 5, "without storage a delivered tile is loaded again when asked")
    }
}
