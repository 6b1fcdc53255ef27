import Foundation
import TesseraExperiment
import XCTest
@testable import TesseraCore

/// Each of the book's strategies' defining behaviour, with a fake decoder and a stepped clock.
final class BookStrategyTests: XCTestCase {
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

    func testSyncDecodesOnTheCallingThreadWhenACellAppears() {
        // Real worker threads exist, but sync must not use them.
        let (model, _, scheduler) = makeModel(SyncStrategy(), scheduler: WorkScheduler(workerCount: 2))
        defer { scheduler.shutdown() }
        model.update(now: .zero)
        let visible = model.layout.visibleRange(offset: 0)
        XCTAssertTrue(model.visibleCells.allSatisfy(\.hasImage), "images are there in the same frame")
        XCTAssertEqual(loads.strip.mainThreadLoads, visible.count)
        XCTAssertEqual(scheduler.stats.submitted, 0)
    }

    func testAsyncDecodesOnWorkersWithoutScaling() {
        let (model, pipeline, scheduler) = makeModel(AsyncStrategy())
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .milliseconds(16))
        XCTAssertTrue(log.all.allSatisfy { $0.variant == .original && $0.fittingBox == nil })
        XCTAssertTrue(model.visibleCells.allSatisfy(\.hasImage))
        XCTAssertFalse(pipeline.hasStorage, "nothing kept")
    }

    func testLazyStartsNothingWhileDraggingOrDeceleratingAndLoadsExactlyTheVisibleItemsAtTheEnd() {
        let (model, _, scheduler) = makeModel(LazyStrategy())
        var time = Duration.zero
        model.beginDrag(x: 1000, time: time)
        for step in 1...10 {
            time += .milliseconds(16)
            model.drag(x: 1000 - Double(step) * 60, time: time)
            model.update(now: time)
        }
        model.endDrag(time: time)
        var events: [ScrollEvent] = []
        while model.scroll.isMoving {
            XCTAssertEqual(scheduler.queuedCount, 0, "no load starts while moving")
            scheduler.runPending()
            XCTAssertTrue(log.all.isEmpty)
            time += .milliseconds(16)
            events += model.update(now: time)
        }
        XCTAssertEqual(events.last, .didEndDecelerating)
        scheduler.runPending()
        XCTAssertEqual(loadedIndices(), Set(model.layout.visibleRange(offset: model.scroll.offset)))
    }

    func testSwapShowsTheSmallVersionWhileMovingAndTheFullOneAfter() {
        let (model, _, scheduler) = makeModel(SwapStrategy())
        var time = Duration.zero
        model.update(now: time)
        model.beginDrag(x: 1000, time: time)
        time += .milliseconds(16)
        model.drag(x: 990, time: time)
        model.update(now: time)
        scheduler.runPending()
        time += .milliseconds(16)
        model.drag(x: 985, time: time)
        model.update(now: time)
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.shownVariant == .preview }, "previews while dragging")
        model.endDrag(time: time)
        while model.scroll.isMoving { time += .milliseconds(16); model.update(now: time) }
        scheduler.runPending()
        time += .milliseconds(16)
        model.update(now: time)
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.shownVariant == .cell }, "full size once still")
        let preview = model.visibleCells[0]
        XCTAssertEqual(model.displaySize(of: preview), PixelSize(width: 8, height: 6), "drawn at the full image's size")
    }

    func testWithoutACacheAShownImageIsNotDecodedAgainEveryFrame() {
        let (model, _, scheduler) = makeModel(PredrawStrategy())
        for frame in 0..<10 {
            model.update(now: .milliseconds(16 * frame))
            scheduler.runPending()
        }
        let visible = model.layout.visibleRange(offset: 0)
        XCTAssertTrue(model.visibleCells.allSatisfy(\.hasImage))
        XCTAssertEqual(loads.strip.started, visible.count)
    }

    func testTiledFadesEveryAppearanceAndKeepsNothing() {
        let (model, pipeline, scheduler) = makeModel(TiledStrategy())
        model.update(now: .zero)
        scheduler.runPending()
        model.update(now: .milliseconds(16))
        XCTAssertTrue(model.visibleCells.allSatisfy { $0.fadesIn })
        XCTAssertFalse(pipeline.hasStorage)
    }

    func testCachePreloadsExactlyTheNeighbours() {
        let (model, pipeline, scheduler) = makeModel(CacheStrategy(preload: PreloadPolicy(ahead: 1, behind: 1)))
        model.scrollBy(10 * 416, time: .zero)
        model.update(now: .zero)
        scheduler.runPending()
        let visible = model.layout.visibleRange(offset: model.scroll.offset)
        XCTAssertEqual(loadedIndices(), Set((visible.lowerBound - 1)...(visible.upperBound)))
        model.update(now: .milliseconds(16))  // stores what the workers finished
        XCTAssertEqual(pipeline.storageStats?.count, visible.count + 2)
    }

    func testTheBookKeepsToTheViewsUploadBudget() {
        for name in LoadingStrategies.names where name != "adaptive" {
            XCTAssertTrue(LoadingStrategies.make(name, decodeWorkers: 2)?.uploadPacing is ViewBudgetPacing, name)
        }
        XCTAssertEqual(UploadPacer(viewBudgetBytes: 123, bytesPerMs: 1000).budget(for: ViewBudgetPacing(), frameElapsedMs: 9), 123)
    }

    func testEveryNamedStrategyExists() {
        for name in LoadingStrategies.names { XCTAssertEqual(LoadingStrategies.make(name, decodeWorkers: 2)?.name, name) }
        XCTAssertNil(LoadingStrategies.make("fastest", decodeWorkers: 2))
    }

    func testTheRegistrysAdaptivePlansWithTheStripsWorkerCount() {
        XCTAssertEqual((LoadingStrategies.make("adaptive", decodeWorkers: 6) as? AdaptiveStrategy)?.planner?.workers, 6)
    }
}
