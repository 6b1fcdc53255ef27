import Foundation
import XCTest
@testable import TesseraCore

/// The fling planner over known trajectories and decode costs, and adaptive using it with a stepped
/// clock and a fake decoder.
final class FlingPlannerTests: XCTestCase {
    private let layout = StripLayout(itemCount: 200, cellSize: Size(width: 400, height: 300),
                                     viewportSize: Size(width: 1280, height: 720))
    private let rate = ScrollModel.DecelerationRate.normal.rawValue

    /// A fling released at 15 000 pt/s from `offset`, as the bench's fast fling.
    private func candidates(from offset: Double = 0, velocity: Double = 15_000, cost: Double = 0.1,
                            loads: [Int: ItemLoad] = [:]) -> (FlingPlanner, [FlingPlanner.Candidate], resting: Range<Int>) {
        var planner = FlingPlanner(workers: 2)
        planner.defaultDecodeSeconds = cost
        let rest = offset + ScrollModel.projectedTravel(velocity: velocity, rate: rate)
        let list = planner.candidates(layout: layout, itemCount: 200, offset: offset, restingOffset: rest, rate: rate, loads: loads)
        return (planner, list, layout.visibleRange(offset: rest))
    }

    func testCandidatesAppearInTravelOrderAndTheRestingScreenNeverLeaves() {
        let (_, list, resting) = candidates()
        XCTAssertEqual(list.map(\.index), Array(list.map(\.index).sorted()))
        XCTAssertEqual(list.first?.appears, 0, "what is on screen now is there already")
        for item in list {
            XCTAssertEqual(item.leaves.isInfinite, resting.contains(item.index))
            XCTAssertLessThan(item.appears, item.leaves)
        }
        // The slow tail: a cell just before the resting screen stays far longer than one passed early.
        let early = list.first { $0.index == 6 }!, late = list.first { $0.index == resting.lowerBound - 1 }!
        XCTAssertGreaterThan(late.leaves - late.appears, 4 * (early.leaves - early.appears))
    }

    func testCellsGoneBeforeTheirDecodeCouldLandAreSkippedAndTheRestingScreenIsKept() {
        let (planner, list, resting) = candidates(cost: 0.15)
        let plan = planner.plan(list)
        let visibleNow = layout.visibleRange(offset: 0)
        XCTAssertTrue(plan.allSatisfy { !visibleNow.contains($0) }, "the screen at release is gone in 0.1 s")
        XCTAssertTrue(Set(resting).isSubset(of: Set(plan)))
        // Everything kept lands while its cell is still on screen.
        let byIndex = Dictionary(uniqueKeysWithValues: list.map { ($0.index, $0) })
        XCTAssertTrue(plan.allSatisfy { byIndex[$0]!.leaves > 0.15 })
    }

    func testCheapDecodesAreAllWorthItExpensiveOnesOnlyForTheSlowTail() {
        let cheap = candidates(cost: 0.005)
        let expensive = candidates(cost: 0.3)
        let cheapPlan = cheap.0.plan(cheap.1), expensivePlan = expensive.0.plan(expensive.1)
        XCTAssertGreaterThan(cheapPlan.count, expensivePlan.count)
        XCTAssertTrue(Set(expensive.resting).isSubset(of: Set(expensivePlan)))
    }

    func testDecodedItemsAreLeftOutAndRunningOnesHoldAWorker() {
        let (_, all, _) = candidates()
        let first = all[4].index
        let (_, withDone, _) = candidates(loads: [first: ItemLoad(state: .done)])
        XCTAssertFalse(withDone.contains { $0.index == first })
        // With both workers busy for a long time, early cells can no longer be helped.
        let running: [Int: ItemLoad] = [0: ItemLoad(state: .running, decodeSeconds: 2), 1: ItemLoad(state: .running, decodeSeconds: 2)]
        let (planner, busy, resting) = candidates(loads: running)
        let plan = planner.plan(busy)
        XCTAssertFalse(plan.contains(0) || plan.contains(1), "running decodes are not asked for again")
        XCTAssertTrue(plan.allSatisfy { resting.contains($0) || $0 >= resting.lowerBound - 2 }, "\(plan)")
    }

    func testTheStripLoaderTeachesDecodeTimesPerKindAndThePipelineReportsLoadStates() {
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let decodeTimes = DecodeTimeEstimator()
        let pipeline = ImagePipeline.fixture(scheduler, decodeTimes: decodeTimes, loader: Fixture.loader())
        let version = FileVersion(size: 1000, modifiedNanoseconds: 1)
        let key = ImageKey(path: "/fake/img1.jpg", size: PixelSize(width: 8, height: 6), version: version)
        let other = ImageKey(path: "/fake/img2.jpg", size: PixelSize(width: 8, height: 6),
                             version: FileVersion(size: 3000, modifiedNanoseconds: 1))
        XCTAssertNil(decodeTimes.estimatedSeconds(other), "nothing learned yet")
        XCTAssertEqual(pipeline.state(of: key), .none)
        pipeline.request(key, priority: 0)
        XCTAssertEqual(pipeline.state(of: key), .queued)
        scheduler.runPending()
        XCTAssertEqual(pipeline.state(of: key), .done)
        let estimate = try! XCTUnwrap(decodeTimes.estimatedSeconds(other))
        XCTAssertGreaterThanOrEqual(estimate, 0)
        let shouted = ImageKey(path: "/fake/IMG3.JPG", size: PixelSize(width: 8, height: 6),
                               version: FileVersion(size: 3000, modifiedNanoseconds: 1))
        XCTAssertEqual(decodeTimes.estimatedSeconds(shouted), estimate, "a camera's .JPG is the same kind as .jpg")
        XCTAssertNil(decodeTimes.estimatedSeconds(ImageKey(path: "/fake/a.png", size: PixelSize(width: 8, height: 6),
                                                            version: version)), "another kind")
        XCTAssertNil(decodeTimes.estimatedSeconds(ImageKey(path: "/fake/img1.jpg", size: PixelSize(width: 2, height: 2),
                                                            variant: .preview, version: version)), "another variant")
    }

    func testDecodeTimesScaleWithFileSize() {
        let decodeTimes = DecodeTimeEstimator()
        let small = ImageKey(path: "/a/x.webp", size: PixelSize(width: 8, height: 6), version: FileVersion(size: 100, modifiedNanoseconds: 1))
        let large = ImageKey(path: "/a/y.webp", size: PixelSize(width: 8, height: 6), version: FileVersion(size: 400, modifiedNanoseconds: 1))
        decodeTimes.record(small, seconds: 0.1)
        decodeTimes.record(large, seconds: 0.3)
        // 0.4 s over 500 bytes.
        XCTAssertEqual(try XCTUnwrap(decodeTimes.estimatedSeconds(large)), 0.32, accuracy: 1e-9)
        decodeTimes.record(ImageKey(path: "/a/z.webp", size: PixelSize(width: 8, height: 6)), seconds: 5)
        XCTAssertEqual(try XCTUnwrap(decodeTimes.estimatedSeconds(small)), 0.08, accuracy: 1e-9, "no file size: not learned")
        XCTAssertEqual(try XCTUnwrap(decodeTimes.estimatedSeconds(ImageKey(path: "/a/w.webp", size: PixelSize(width: 8, height: 6)))),
                       5.4 / 3, accuracy: 1e-9, "a file not stat'ed yet: the average decode of its kind")
    }

    func testAdaptiveDuringAFlingDecodesTheRestingScreenAndNotTheCellsItFlashesPast() {
        let log = CallLog()
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>.inline()
        let base = Fixture.loader()
        let pipeline = ImagePipeline.fixture(scheduler, loader: { key in log.record(key); return try base(key) })
        let model = CarouselModel(items: Fixture.items(200), configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: AdaptiveStrategy(decodeWorkers: 2), viewportWidth: 1280, viewportHeight: 720)
        var time = Duration.zero
        model.update(now: time)
        // Only the screen at rest: idle workers would go on decoding the screens ahead, the fling's way.
        scheduler.runPending(limit: model.layout.visibleRange(offset: 0).count)
        let before = log.all.count
        let decodedAtRest = Set(log.all.map { Fixture.index(of: $0.path) })
        // A fast fling: 900 pt in 60 ms, then released.
        model.beginDrag(x: 1100, time: time)
        for step in 1...4 {
            time += .milliseconds(15)
            model.drag(x: 1100 - Double(step) * 225, time: time)
            model.update(now: time)
        }
        model.endDrag(time: time)
        // On screen at release and gone in about a tenth of a second: a decode would land too late.
        let passing = Set(model.layout.visibleRange(offset: model.scroll.offset)).subtracting(decodedAtRest)
        XCTAssertFalse(passing.isEmpty)
        let resting = model.layout.visibleRange(offset: model.scroll.projectedRestingOffset)
        // The stepped clock: one decode per worker-frame (two workers), so the queue's order decides.
        while model.scroll.isMoving {
            time += .milliseconds(16)
            model.update(now: time)
            scheduler.runPending(limit: 1)
        }
        let decoded = Set(log.all.dropFirst(before).map { Fixture.index(of: $0.path) })
        XCTAssertTrue(Set(resting).isSubset(of: decoded), "the resting screen is decoded during the fling")
        XCTAssertTrue(decoded.isDisjoint(with: passing), "cells passed at speed are not decoded: \(decoded.sorted())")
        for cell in model.visibleCells { XCTAssertTrue(cell.hasImage || !resting.contains(cell.index!)) }
    }
}
