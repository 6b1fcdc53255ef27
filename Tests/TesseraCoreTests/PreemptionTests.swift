import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// Running decodes asked to stop: the scheduler's signal, the pipeline treating a stopped decode like a
/// dropped one, the adaptive strategy opting in (unless tuned not to), and the fling planner reclaiming a
/// worker. Real threads where it matters, but nothing timed: gates, not sleeps.
final class PreemptionTests: XCTestCase {
    /// A deadline 30 s from each wait (a stored one would be fixed when XCTest creates the test cases,
    /// all at once before the run, and would have expired by the time a long run reaches them).
    private var timeout: DispatchTime { .now() + 30 }

    /// A slow fake decode: says it started, waits at `gate`, then works in steps, looking at its signal
    /// before each one.
    private static func slowWork(started: DispatchSemaphore, gate: DispatchSemaphore,
                                 steps: Counter) -> @Sendable (DecodeCancellation) throws -> Int {
        { cancellation in
            started.signal()
            gate.wait()
            for _ in 0..<1000 {
                try cancellation.check()
                steps.value.withLock { $0 += 1 }
            }
            return 7
        }
    }

    func testTheSchedulerAsksARunningJobToStopAndLeavesQueuedJobsAlone() {
        let scheduler = WorkScheduler<String, Int>(workerCount: 1)
        defer { scheduler.shutdown() }
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let steps = Counter()
        let results = Mutex<[String: Result<Int, Error>]>([:])
        let completion: WorkScheduler<String, Int>.Completion = { key, result in
            results.withLock { $0[key] = result }
            done.signal()
        }
        scheduler.request("a", priority: 0, cancellableWork: Self.slowWork(started: started, gate: gate, steps: steps),
                          completion: completion)
        XCTAssertEqual(started.wait(timeout: timeout), .success)
        scheduler.request("b", priority: 0, work: { 8 }, completion: completion)  // queued behind "a"

        XCTAssertEqual(scheduler.cancelRunning(except: ["b"]), ["a"])
        XCTAssertEqual(scheduler.cancelRunning(except: ["b"]), [], "asked once")
        XCTAssertEqual(scheduler.queuedCount, 1, "queued work is retainOnly's business")
        gate.signal()
        XCTAssertEqual(done.wait(timeout: timeout), .success)
        XCTAssertEqual(done.wait(timeout: timeout), .success)

        XCTAssertEqual(steps.value.withLock { $0 }, 0, "stopped at its first look")
        XCTAssertThrowsError(try results.withLock { $0["a"] }!.get()) { XCTAssertTrue($0 is DecodeCancelled) }
        XCTAssertEqual(try results.withLock { $0["b"] }!.get(), 8)
        XCTAssertEqual(scheduler.stats.stoppedRunning, 1)
        XCTAssertEqual(scheduler.stats.cancelled, 0)
    }

    func testARunningJobWantedAgainBeforeItStoppedCarriesOn() {
        let scheduler = WorkScheduler<String, Int>(workerCount: 1)
        defer { scheduler.shutdown() }
        let started = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let steps = Counter()
        let results = Mutex<[Result<Int, Error>]>([])
        let completion: WorkScheduler<String, Int>.Completion = { _, result in
            results.withLock { $0.append(result) }
            done.signal()
        }
        scheduler.request("a", priority: 0, cancellableWork: Self.slowWork(started: started, gate: gate, steps: steps),
                          completion: completion)
        XCTAssertEqual(started.wait(timeout: timeout), .success)
        XCTAssertEqual(scheduler.cancelRunning(["a"]), ["a"])
        scheduler.request("a", priority: 0, work: { 0 }, completion: completion)  // joins the running job
        gate.signal()
        XCTAssertEqual(done.wait(timeout: timeout), .success)
        XCTAssertEqual(done.wait(timeout: timeout), .success)
        XCTAssertEqual(results.withLock { $0.compactMap { try? $0.get() } }, [7, 7])
        XCTAssertEqual(steps.value.withLock { $0 }, 1000)

        // Kept by `cancelRunning(except:)` also withdraws the request.
        scheduler.request("c", priority: 0, cancellableWork: Self.slowWork(started: started, gate: gate, steps: steps),
                          completion: completion)
        XCTAssertEqual(started.wait(timeout: timeout), .success)
        XCTAssertEqual(scheduler.cancelRunning(except: []), ["c"])
        XCTAssertEqual(scheduler.cancelRunning(except: ["c"]), [])
        gate.signal()
        XCTAssertEqual(done.wait(timeout: timeout), .success)
        XCTAssertEqual(try results.withLock { $0.last }!.get(), 7)
    }

    final class Counter: Sendable {
        let value = Mutex(0)
    }

    /// What the gated loader saw: the signal of each key it was called for, and how often it was called.
    final class Seen: Sendable {
        let signals = Mutex<[ImageKey: DecodeCancellation]>([:])
        let calls = Mutex(0)
    }

    /// One real worker whose loader blocks at `gate` and then stops if asked.
    private final class GatedLoad: Sendable {
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let seen = Seen()
        let loads = CountingObserver()

        /// The strip's pipeline for `strategy` over the gated loader.
        func makePipeline(for strategy: LoadingStrategy = AdaptiveStrategy(decodeWorkers: 2)) -> ImagePipeline {
            let base = Fixture.loader()
            let started = started, gate = gate, finished = finished, seen = seen
            return .strip(strategy: strategy, scheduler: WorkScheduler(workerCount: 1), cacheCostLimit: 0,
                          decode: { key, cancellation in
                              seen.signals.withLock { $0[key] = cancellation }
                              seen.calls.withLock { $0 += 1 }
                              started.signal()
                              gate.wait()
                              try cancellation.check()
                              return try base(key)
                          }, waker: { finished.signal() }, observer: loads)
        }
    }

    func testAStoppedDecodeIsNoFailureAndItsKeyCanBeAskedForAgain() {
        let load = GatedLoad()
        let pipeline = load.makePipeline()
        defer { pipeline.shutdown() }
        let key = ImageKey(path: "/fake/img3.jpg", size: PixelSize(width: 8, height: 6))
        pipeline.request(key, priority: 0)
        XCTAssertEqual(load.started.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.state(of: key), .running)
        XCTAssertNotNil(pipeline.runningSeconds(key))

        pipeline.retainOnly([], cancellingRunning: true)
        load.gate.signal()
        XCTAssertEqual(load.finished.wait(timeout: timeout), .success)
        XCTAssertTrue(pipeline.drain().isEmpty)
        XCTAssertEqual(load.loads.strip.stoppedRunning, 1)
        XCTAssertEqual(load.loads.strip.failed, 0)
        XCTAssertNil(pipeline.failure(for: key))
        XCTAssertEqual(pipeline.state(of: key), .none, "no longer in flight")

        pipeline.request(key, priority: 0)
        XCTAssertEqual(load.started.wait(timeout: timeout), .success)
        load.gate.signal()
        XCTAssertEqual(load.finished.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.drain().map(\.key), [key])
        XCTAssertEqual(pipeline.state(of: key), .done)
        XCTAssertEqual(load.seen.calls.withLock { $0 }, 2)
    }

    func testWithoutCancellingRunningRetainOnlyLetsARunningDecodeFinish() {
        let load = GatedLoad()
        let pipeline = load.makePipeline()
        defer { pipeline.shutdown() }
        let key = ImageKey(path: "/fake/img4.jpg", size: PixelSize(width: 8, height: 6))
        pipeline.request(key, priority: 0)
        XCTAssertEqual(load.started.wait(timeout: timeout), .success)
        pipeline.retainOnly([])
        XCTAssertEqual(load.seen.signals.withLock { $0[key]?.isCancelled }, false)
        load.gate.signal()
        XCTAssertEqual(load.finished.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.drain().map(\.key), [key])
        XCTAssertEqual(load.loads.strip.stoppedRunning, 0)
    }

    /// The strip starts decoding what it shows, then is flung far away: is the running decode asked to stop?
    private func runningDecodeIsAskedToStop(with strategy: LoadingStrategy) -> Bool {
        let load = GatedLoad()
        let pipeline = load.makePipeline(for: strategy)
        defer {
            for _ in 0..<64 { load.gate.signal() }
            pipeline.shutdown()
        }
        let model = CarouselModel(items: Fixture.items(200), configuration: CarouselConfiguration(), pipeline: pipeline,
                                  strategy: strategy, viewportWidth: 1280, viewportHeight: 720)
        model.update(now: .zero)
        XCTAssertEqual(load.started.wait(timeout: timeout), .success)
        let running = load.seen.signals.withLock { Array($0) }
        XCTAssertEqual(running.count, 1)
        // 900 pt in 60 ms: the bench's fast fling, far faster than the (unknown, so 0.1 s) decodes.
        model.beginDrag(x: 1100, time: .milliseconds(16))
        model.drag(x: 200, time: .milliseconds(76))
        model.endDrag(time: .milliseconds(76))
        for step in 1...10 { model.update(now: .milliseconds(76 + 16 * step)) }
        XCTAssertFalse(model.layout.visibleRange(offset: model.scroll.offset).contains(Fixture.index(of: running[0].key.path)))
        return running[0].value.isCancelled
    }

    /// The book's strategies, which never stop a running decode, are TesseraExperimentTests'.
    func testAdaptiveStopsRunningDecodesUnlessTunedNotTo() {
        XCTAssertTrue(runningDecodeIsAskedToStop(with: AdaptiveStrategy(decodeWorkers: 2)))
        let adaptive = AdaptiveStrategy(decodeWorkers: 2)
        adaptive.tuning.reclaimsRunningWork = false
        XCTAssertFalse(runningDecodeIsAskedToStop(with: adaptive))
    }

    // MARK: - Planner

    private let layout = StripLayout(itemCount: 200, cellSize: Size(width: 400, height: 300),
                                     viewportSize: Size(width: 1280, height: 720))

    private func flingCandidates(_ planner: FlingPlanner, loads: [Int: ItemLoad]) -> [FlingPlanner.Candidate] {
        let rate = ScrollModel.DecelerationRate.normal.rawValue
        let rest = ScrollModel.projectedTravel(velocity: 15_000, rate: rate)
        return planner.candidates(layout: layout, itemCount: 200, offset: 0, restingOffset: rest, rate: rate, loads: loads)
    }

    func testThePlannerReclaimsRunningDecodesThatNoLongerPayOff() {
        var planner = FlingPlanner(workers: 2)
        planner.defaultDecodeSeconds = 0.1
        // Both workers on the cells at release, which are gone in a tenth of a second; a second to go.
        let busy: [Int: ItemLoad] = [0: ItemLoad(state: .running, decodeSeconds: 2, runningSeconds: 1),
                                     1: ItemLoad(state: .running, decodeSeconds: 2, runningSeconds: 1)]
        let holding = planner.plan(flingCandidates(planner, loads: busy))
        planner.reclaimsRunning = true
        let reclaiming = planner.plan(flingCandidates(planner, loads: busy))
        XCTAssertFalse(reclaiming.contains(0) || reclaiming.contains(1), "left out, so the strip stops them")
        XCTAssertEqual(reclaiming, planner.plan(flingCandidates(planner, loads: [:])), "as if both workers were free")
        XCTAssertGreaterThan(reclaiming.count, holding.count)

        // A running decode for the resting screen that is nearly done is kept (listed, so not stopped).
        let rest = layout.visibleRange(offset: ScrollModel.projectedTravel(velocity: 15_000,
                                                                           rate: ScrollModel.DecelerationRate.normal.rawValue))
        let nearlyDone = [rest.lowerBound: ItemLoad(state: .running, decodeSeconds: 0.2, runningSeconds: 0.15)]
        XCTAssertTrue(planner.plan(flingCandidates(planner, loads: nearlyDone)).contains(rest.lowerBound))
    }

    func testARunningDecodeThatCanStillLandIsNotTradedForOthers() {
        var planner = FlingPlanner(workers: 2)
        planner.reclaimsRunning = true
        typealias C = FlingPlanner.Candidate
        // A long decode running for a cell on screen until 0.5 s; behind it, many cheap passing cells that
        // would all gain if its worker were free. Stopping it would throw its work away; it stays.
        var list = [C(index: 0, appears: 0, leaves: 0.5, cost: 0.6, state: .running, remaining: 0.4)]
        for i in 1...12 { list.append(C(index: i, appears: 0.05 * Double(i), leaves: 0.05 * Double(i) + 0.2, cost: 0.05, state: .none)) }
        list.append(C(index: 13, appears: 0.8, leaves: .infinity, cost: 0.1, state: .none))
        let plan = planner.plan(list)
        XCTAssertTrue(plan.contains(0), "\(plan)")
        // One that would land after its cell has gone is stopped.
        list[0].leaves = 0.3
        XCTAssertFalse(planner.plan(list).contains(0))
    }
}
