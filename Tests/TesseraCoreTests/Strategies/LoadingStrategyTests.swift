import Foundation
import XCTest
@testable import TesseraCore

/// The adaptive strategy's behaviour, with a fake decoder and a stepped clock; the book's strategies
/// are TesseraExperimentTests'.
final class LoadingStrategyTests: XCTestCase {
    private let log = CallLog()
    private let loads = CountingObserver()

    private func makeModel(_ strategy: LoadingStrategy, count: Int = 200, scheduler: WorkScheduler<ImageKey, PixelBuffer> = .inline(),
                           cacheBytes: Int = 64 << 20) -> (CarouselModel, ImagePipeline, WorkScheduler<ImageKey, PixelBuffer>) {
        let base = Fixture.loader()
        let log = self.log
        let pipeline = ImagePipeline.fixture(scheduler, strategy: strategy, cacheBytes: cacheBytes, loads: loads,
                                             loader: { key in log.record(key); return try base(key) })
        let model = CarouselModel(items: Fixture.items(count), configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: strategy, viewportWidth: 1280, viewportHeight: 720)
        return (model, pipeline, scheduler)
    }

    private func loadedIndices() -> Set<Int> { Set(log.all.map { Fixture.index(of: $0.path) }) }

    private func frame(velocity: Double, decelerating: Bool = false, resting: Double? = nil) -> StrategyFrame {
        let layout = StripLayout(itemCount: 500, cellSize: Size(width: 400, height: 300), viewportSize: Size(width: 1280, height: 720))
        let offset = 50 * 416.0
        return StrategyFrame(now: .zero, visible: layout.visibleRange(offset: offset), itemCount: 500, layout: layout,
                             offset: offset, velocity: velocity, isDragging: !decelerating && velocity != 0,
                             isDecelerating: decelerating, isMoving: velocity != 0, projectedRestingOffset: resting ?? offset,
                             direction: velocity < 0 ? -1 : 1, events: [])
    }

    func testAdaptivePlansAFlingOnlyWhenCellsPassFasterThanTheyDecode() {
        // 7700 pt/s passes about 18.5 cells a second: two workers keep up at 50 ms a decode (40 a
        // second), not at 200 ms (10 a second). Only then does the planner take over, and only then may
        // running decodes be stopped.
        let strategy = AdaptiveStrategy(base: PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: 2)
        func plans(decodeSeconds: Double) -> Bool {
            var fling = frame(velocity: 7700, decelerating: true, resting: 50 * 416.0 + 7700 * 0.5)
            for index in 40..<70 { fling.itemLoads[index] = ItemLoad(state: .none, decodeSeconds: decodeSeconds) }
            _ = strategy.requests(for: fling)
            return strategy.cancelsRunningWork
        }
        XCTAssertFalse(plans(decodeSeconds: 0.05))
        XCTAssertTrue(plans(decodeSeconds: 0.2))
        _ = strategy.requests(for: frame(velocity: 0))
        XCTAssertFalse(strategy.cancelsRunningWork, "at rest nothing running is stopped")
    }

    /// The planner spreads decodes over the strip's real workers: the viewer passes its scheduler's count
    /// where it makes the strategy, and the model's default strategy takes its pipeline's.
    func testAdaptivePlansWithTheStripsWorkerCount() {
        XCTAssertEqual(AdaptiveStrategy(decodeWorkers: 6).planner?.workers, 6)
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>(workerCount: 3)
        defer { scheduler.shutdown() }
        let model = CarouselModel(items: Fixture.items(10), configuration: CarouselConfiguration(),
                                  pipeline: .fixture(scheduler, loader: Fixture.loader()), viewportWidth: 1280, viewportHeight: 720)
        XCTAssertEqual((model.strategy as? AdaptiveStrategy)?.planner?.workers, 3)
        // 7700 pt/s passes about 18.5 cells a second: two workers at 200 ms a decode cannot keep up (10 a
        // second) and the fling is planned; eight can (40 a second), and it is not.
        func plans(workers: Int) -> Bool {
            let strategy = AdaptiveStrategy(base: PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: workers)
            var fling = frame(velocity: 7700, decelerating: true, resting: 50 * 416.0 + 7700 * 0.5)
            for index in 40..<70 { fling.itemLoads[index] = ItemLoad(state: .none, decodeSeconds: 0.2) }
            _ = strategy.requests(for: fling)
            return strategy.cancelsRunningWork
        }
        XCTAssertTrue(plans(workers: 2))
        XCTAssertFalse(plans(workers: 8))
    }

    func testAdaptiveGathersPerItemCostsOnlyForFlingsFastEnoughToPlan() {
        // The costs a plan needs cost a frame time to gather, so a slow drag's release (400 pt/s, one cell
        // a second) goes without; a fast fling, or a fast drag about to become one, gathers them.
        let strategy = AdaptiveStrategy(base: PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: 2)
        XCTAssertFalse(strategy.plansWithItemLoads(frame(velocity: 400, decelerating: true)))
        XCTAssertTrue(strategy.plansWithItemLoads(frame(velocity: 15_000, decelerating: true)))
        XCTAssertTrue(strategy.plansWithItemLoads(frame(velocity: 6_000)), "a throw")
        XCTAssertFalse(strategy.plansWithItemLoads(frame(velocity: 400)), "a slow drag")
        XCTAssertFalse(strategy.plansWithItemLoads(frame(velocity: 0)))

        // Once a path's images are known to decode fast (10 ms each: two workers keep up with 200 cells a
        // second), flings of 7700 pt/s (18 cells a second) no longer gather them either.
        var fling = frame(velocity: 15_000, decelerating: true, resting: 50 * 416.0 + 15_000 * 0.5)
        for index in 40..<90 { fling.itemLoads[index] = ItemLoad(state: .none, decodeSeconds: 0.01) }
        _ = strategy.requests(for: fling)
        XCTAssertFalse(strategy.plansWithItemLoads(frame(velocity: 7700, decelerating: true)))
        XCTAssertTrue(strategy.plansWithItemLoads(frame(velocity: 60_000, decelerating: true)))
    }

    func testAdaptiveWidensItsWindowInTheScrollDirectionWithSpeed() {
        let strategy = AdaptiveStrategy(base: PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: 2)
        // What the strip needs now, without what idle workers may decode after it (the next test).
        let still = strategy.requests(for: frame(velocity: 0)).filter { $0.priority < AdaptiveStrategy.idlePriority }
            .map(\.index)
        let slow = strategy.requests(for: frame(velocity: 1500)).map(\.index)
        let fast = strategy.requests(for: frame(velocity: 6000)).map(\.index)
        let backwards = strategy.requests(for: frame(velocity: -6000)).map(\.index)
        let lastVisible = frame(velocity: 0).visible.last!
        XCTAssertEqual(still.max(), lastVisible + 1)
        XCTAssertGreaterThan(slow.max()!, still.max()!)
        XCTAssertGreaterThan(fast.max()!, slow.max()!, "faster: further ahead")
        XCTAssertLessThan(backwards.min()!, frame(velocity: 0).visible.first! - 3, "leads the other way when moving back")
        XCTAssertLessThanOrEqual(backwards.max()!, lastVisible + 1)
    }

    func testAdaptiveIdleWorkersDecodeThreeScreensAheadAndOneBehindAfterEverythingElse() {
        let strategy = AdaptiveStrategy(base: PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: 2)
        let rest = frame(velocity: 0)
        let visible = rest.visible
        let columnsPerScreen = 4  // 1280 pt over 416 pt columns, rounded up
        let requests = strategy.requests(for: rest)
        let idle = requests.filter { $0.priority >= AdaptiveStrategy.idlePriority }
        XCTAssertEqual(Set(requests.map(\.index)),
                       Set((visible.first! - columnsPerScreen)...(visible.last! + 3 * columnsPerScreen)))
        XCTAssertEqual(Array(requests.suffix(idle.count)), idle, "queued after everything the strip needs now")
        XCTAssertEqual(requests.count, Set(requests.map(\.index)).count, "each item listed once, at its most urgent")
        XCTAssertEqual(strategy.requests(for: rest), requests, "the next frame lists them all again")
        XCTAssertEqual(idle.prefix(2).map(\.index), [visible.last! + 2, visible.last! + 3],
                       "nearest first, ahead before behind")
        XCTAssertTrue(idle.allSatisfy { $0.variant == .cell })
        // Moving backwards it looks the other way.
        let back = strategy.requests(for: frame(velocity: -100))
        XCTAssertEqual(back.map(\.index).min(), visible.first! - 3 * columnsPerScreen)
        // Moving faster than a screen a second the workers have better things to do.
        XCTAssertTrue(strategy.requests(for: frame(velocity: 3000)).allSatisfy { $0.priority < AdaptiveStrategy.idlePriority })
    }

    func testNearTheEndOfAFlingAdaptiveLoadsTheRestingScreenRightAfterTheVisibleOne() {
        let strategy = AdaptiveStrategy(decodeWorkers: 2)
        let resting = 90 * 416.0  // beyond the 3-screen leading window
        let restingRange = frame(velocity: 0).layout.visibleRange(offset: resting)
        // Early in a fast fling the stop is seconds away: nothing is asked for there yet.
        let early = strategy.requests(for: frame(velocity: 8000, decelerating: true, resting: resting))
        XCTAssertTrue(early.allSatisfy { !restingRange.contains($0.index) })
        // A second from the stop: visible first, then the resting screen at full size, then its approach.
        let late = strategy.requests(for: frame(velocity: 100, decelerating: true, resting: resting))
        let visible = frame(velocity: 0).visible
        XCTAssertEqual(Set(late.prefix(visible.count).map(\.index)), Set(visible))
        let next = late.dropFirst(visible.count).prefix(restingRange.count)
        XCTAssertEqual(Set(next.map(\.index)), Set(restingRange))
        XCTAssertTrue(next.allSatisfy { $0.variant == .cell && $0.priority == 1 })
        XCTAssertTrue(late.contains { $0.index == restingRange.lowerBound - 1 }, "the approach to the resting screen")
    }

    func testPreviewsForFastMotionWhenTurnedOn() {
        let strategy = AdaptiveStrategy(decodeWorkers: 2)
        strategy.tuning.fastScreensPerSecond = 2
        let passing = strategy.requests(for: frame(velocity: 6000))
        XCTAssertTrue(passing.filter { frame(velocity: 0).visible.contains($0.index) }.allSatisfy { $0.variant == .preview })
        XCTAssertTrue(AdaptiveStrategy(decodeWorkers: 2).requests(for: frame(velocity: 6000)).allSatisfy { $0.variant == .cell })
    }

    func testAdaptiveEvictsTheItemFarthestFromTheVisibleCentreFirst() {
        let evicted = CallLog()
        let base = Fixture.loader()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        // Room for 8 cell images of 8x6 pixels.
        let cache = CostCache<ImageKey, PixelBuffer>(totalCostLimit: 8 * 8 * 6 * 4, onEvict: { key, _ in evicted.record(key) })
        let pipeline = ImagePipeline(scheduler: scheduler, storage: cache, cost: \.cost,
                                     loader: ImagePipeline.stripLoader { key, _ in try base(key) })
        let model = CarouselModel(items: Fixture.items(300), configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: AdaptiveStrategy(decodeWorkers: 2), viewportWidth: 1280, viewportHeight: 720)
        var time = Duration.zero
        model.update(now: time)
        scheduler.runPending()
        // Visit item 100, then come back near the start: what was used last (around 100) is now the
        // farthest, which LRU would keep and we must not.
        model.scrollBy(100 * 416, time: time)
        time += .milliseconds(16)
        model.update(now: time)
        scheduler.runPending()
        let before = evicted.all.count
        model.scrollBy(-92 * 416, time: time)
        time += .milliseconds(16)
        model.update(now: time)
        scheduler.runPending()
        time += .milliseconds(16)
        model.update(now: time)  // stores what the workers finished
        let visible = model.layout.visibleRange(offset: model.scroll.offset)
        let centre = Double(visible.lowerBound + visible.upperBound) / 2
        let newlyEvicted = evicted.all.dropFirst(before).map { Double(Fixture.index(of: $0.path)) }
        let kept = cache.keysInRecencyOrder.map { Double(Fixture.index(of: $0.path)) }
        XCTAssertFalse(newlyEvicted.isEmpty)
        let farthestKept = kept.map { abs($0 - centre) }.max()!
        for index in newlyEvicted {
            XCTAssertGreaterThanOrEqual(abs(index - centre), farthestKept, "evicted \(index) while keeping one \(farthestKept) away")
        }
        XCTAssertTrue(visible.allSatisfy { index in kept.contains(Double(index)) }, "what is on screen stays")
    }

    func testUploadBudgetFollowsTheFrameTimeLeft() {
        let strategy = AdaptiveStrategy(decodeWorkers: 2)
        XCTAssertEqual(strategy.uploadPacing as? FillFramePacing, FillFramePacing(milliseconds: 8))
        let pacer = UploadPacer(viewBudgetBytes: 1, bytesPerMs: 1000)
        XCTAssertEqual(pacer.budget(for: strategy.uploadPacing, frameElapsedMs: 2), 4800)
        XCTAssertEqual(pacer.budget(for: strategy.uploadPacing, frameElapsedMs: 9), 0)
    }

    func testTuningGivenAtTheStartIsTheOneItWorksBy() {
        var tuning = AdaptiveTuning()
        tuning.frameTargetMs = 12
        tuning.idleLeadScreens = 0
        tuning.idleTrailScreens = 0
        let strategy = AdaptiveStrategy(decodeWorkers: 2, tuning: tuning)
        XCTAssertEqual(strategy.uploadPacing as? FillFramePacing, FillFramePacing(milliseconds: 12))
        func idleCount(_ strategy: AdaptiveStrategy) -> Int {
            strategy.requests(for: frame(velocity: 0)).filter { $0.priority >= AdaptiveStrategy.idlePriority }.count
        }
        XCTAssertEqual(idleCount(AdaptiveStrategy(decodeWorkers: 2)), 14, "three screens ahead and one behind")
        XCTAssertLessThanOrEqual(idleCount(strategy), 1, "no more than the one column ahead the lookahead keeps")
    }

    func testThePacerLearnsTheUploadSpeedFromFramesWorthTiming() {
        var pacer = UploadPacer(viewBudgetBytes: 0, bytesPerMs: 1000)
        pacer.record(bytes: 100 << 10, milliseconds: 1)
        pacer.record(bytes: 1 << 20, milliseconds: 0.01)
        XCTAssertEqual(pacer.bytesPerMs, 1000, "too small or too quick to time")
        pacer.record(bytes: 1_000_000, milliseconds: 2)
        XCTAssertEqual(pacer.bytesPerMs, 0.8 * 1000 + 0.2 * 500_000, accuracy: 1e-6)
    }
}
