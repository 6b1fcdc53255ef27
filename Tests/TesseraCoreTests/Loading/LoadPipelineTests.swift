import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// The one load pipeline both views use: deduplication, priorities, dropping and stopping unwanted work,
/// the failure memo, delivery through the inbox, and storage. The inline scheduler decides what runs
/// when; real threads only where a running load must be stopped (gates, not sleeps).
final class LoadPipelineTests: XCTestCase {
    private struct Broken: Error {}

    /// Every key the loader was called for, in order.
    private final class Calls: Sendable {
        private let keys = Mutex<[String]>([])
        func record(_ key: String) { keys.withLock { $0.append(key) } }
        var all: [String] { keys.withLock { $0 } }
    }

    private final class Wakes: Sendable {
        let count = Atomic<Int>(0)
    }

    /// A pipeline of string keys whose values are their lengths; `bad` keys fail. `loads` hears it.
    private func makePipeline(storage: CostCache<String, Int>? = CostCache(), bad: Set<String> = [],
                              calls: Calls = Calls(), wakes: Wakes = Wakes(), loads: CountingObserver = CountingObserver())
        -> (LoadPipeline<String, Int>, WorkScheduler<String, Int>) {
        let scheduler = WorkScheduler<String, Int>.inline()
        let pipeline = LoadPipeline(scheduler: scheduler, storage: storage, cost: { $0 }, loader: { key, _ in
            calls.record(key)
            if bad.contains(key) { throw Broken() }
            return key.count
        }, waker: { wakes.count.add(1, ordering: .relaxed) }, observation: loads.stripLoads)
        return (pipeline, scheduler)
    }

    func testRequestersOfOneKeyShareOneLoadAndOneDelivery() {
        let calls = Calls(), wakes = Wakes()
        let loads = CountingObserver()
        let (pipeline, scheduler) = makePipeline(calls: calls, wakes: wakes, loads: loads)
        for priority in [2, 1, 0, 0, 3] { pipeline.request("seven", priority: priority) }
        XCTAssertEqual(scheduler.queuedCount, 1)
        XCTAssertEqual(loads.strip.requested, 1)
        scheduler.runPending()
        XCTAssertEqual(calls.all, ["seven"])
        XCTAssertEqual(wakes.count.load(ordering: .relaxed), 1, "the waker is called when a result lands")
        let deliveries = pipeline.drain()
        XCTAssertEqual(deliveries.map(\.key), ["seven"])
        XCTAssertEqual(try deliveries[0].result.get(), 5)
        XCTAssertTrue(pipeline.drain().isEmpty, "each result is delivered once")
        XCTAssertEqual(loads.strip.started, 1)
        XCTAssertEqual(loads.strip.succeeded, 1)
        XCTAssertEqual(loads.strip.loadedCost, 5)
        XCTAssertEqual(loads.strip.mainThreadLoads, 1, "the inline scheduler ran it on this (main) thread")
    }

    func testARequestForAKeyInFlightOnlyChangesItsPriority() {
        let calls = Calls(), loads = CountingObserver()
        let (pipeline, scheduler) = makePipeline(calls: calls, loads: loads)
        pipeline.request("a", priority: 5)
        pipeline.request("bb", priority: 3)
        pipeline.request("a", priority: 1)  // now more urgent than "bb"
        XCTAssertEqual(scheduler.queuedCount, 2)
        scheduler.runPending()
        XCTAssertEqual(calls.all, ["a", "bb"])
        XCTAssertEqual(loads.strip.requested, 2)
    }

    func testQueuedWorkForKeysNobodyWantsIsDroppedAndCanBeAskedForAgain() {
        let calls = Calls(), loads = CountingObserver()
        let (pipeline, scheduler) = makePipeline(calls: calls, loads: loads)
        for key in ["a", "b", "c"] { pipeline.request(key, priority: 0) }
        let revision = pipeline.revision
        pipeline.retainOnly(["b"])
        XCTAssertEqual(loads.strip.droppedQueued, 2)
        XCTAssertNotEqual(pipeline.revision, revision, "dropped keys can be asked for again")
        XCTAssertEqual(pipeline.state(of: "a"), .none)
        XCTAssertEqual(pipeline.state(of: "b"), .queued)
        scheduler.runPending()
        XCTAssertEqual(calls.all, ["b"])
        XCTAssertTrue(pipeline.drain().allSatisfy { $0.key == "b" })

        pipeline.request("a", priority: 0)
        scheduler.runPending()
        XCTAssertEqual(calls.all, ["b", "a"])
        XCTAssertEqual(loads.strip.requested, 4)
    }

    func testAFailedKeyIsRememberedUntilForgotten() {
        let calls = Calls(), loads = CountingObserver()
        let (pipeline, scheduler) = makePipeline(bad: ["bad"], calls: calls, loads: loads)
        pipeline.request("bad", priority: 0)
        scheduler.runPending()
        let deliveries = pipeline.drain()
        XCTAssertEqual(deliveries.count, 1)
        guard case .failure(let failure) = deliveries[0].result else { return XCTFail("a failure is delivered") }
        XCTAssertEqual(failure.shortText, "Cannot load")
        XCTAssertTrue(failure.detail.contains("Broken"), failure.detail)
        XCTAssertEqual(pipeline.failure(for: "bad"), failure)
        XCTAssertEqual(pipeline.state(of: "bad"), .done)
        XCTAssertEqual(loads.strip.failed, 1)

        pipeline.request("bad", priority: 0)
        XCTAssertEqual(scheduler.queuedCount, 0, "a failed key is not tried again")
        let revision = pipeline.revision
        pipeline.forgetFailure("bad")
        XCTAssertNotEqual(pipeline.revision, revision)
        XCTAssertNil(pipeline.failure(for: "bad"))
        pipeline.request("bad", priority: 0)
        scheduler.runPending()
        XCTAssertEqual(calls.all, ["bad", "bad"], "tried again once forgotten")
    }

    func testALoadFailureKeepsItsOwnWords() {
        let scheduler = WorkScheduler<String, Int>.inline()
        let pipeline = LoadPipeline<String, Int>(scheduler: scheduler, cost: { $0 }, loader: { key, _ in
            throw LoadFailure(shortText: "Not an image", detail: "\(key): not an image")
        })
        pipeline.request("x", priority: 0)
        scheduler.runPending()
        XCTAssertEqual(pipeline.drain().first.map { $0.result.failureValue },
                       LoadFailure(shortText: "Not an image", detail: "x: not an image"))
    }

    /// Between a worker's finish and the drain the key is still in flight: asking again then must not
    /// start a second load (with the value not stored yet, a pipeline that forgot the key at the finish
    /// would load it again).
    func testNoSecondLoadBetweenAWorkersFinishAndTheDrain() {
        let calls = Calls()
        for storage in [CostCache<String, Int>(), nil] {
            let (pipeline, scheduler) = makePipeline(storage: storage, calls: calls)
            pipeline.request("k", priority: 0)
            scheduler.runPending()
            XCTAssertEqual(pipeline.state(of: "k"), .done, "finished, waiting to be drained")
            XCTAssertNil(pipeline.storedValue(for: "k"), "stored at the drain, not by the worker")
            pipeline.request("k", priority: 0)
            XCTAssertEqual(scheduler.queuedCount, 0)
            XCTAssertTrue(pipeline.isLoading)
            XCTAssertEqual(pipeline.drain().count, 1)
            XCTAssertFalse(pipeline.isLoading)
        }
        XCTAssertEqual(calls.all, ["k", "k"], "one load per pipeline")
    }

    func testAStoredValueAnswersAtOnceAndWithoutStorageEveryRequestLoads() {
        let calls = Calls()
        let (stored, scheduler) = makePipeline(calls: calls)
        stored.request("abc", priority: 0)
        scheduler.runPending()
        stored.drain()
        XCTAssertEqual(stored.storedValue(for: "abc"), 3)
        let revision = stored.revision
        stored.request("abc", priority: 0)
        XCTAssertEqual(scheduler.queuedCount, 0, "a stored key starts nothing")
        XCTAssertEqual(stored.revision, revision, "storing a value leaves the revision alone")
        XCTAssertEqual(stored.cachedValue(for: "abc"), 3)
        XCTAssertNil(stored.cachedValue(for: "zz"))
        XCTAssertEqual(stored.storageStats?.hits, 1)
        XCTAssertEqual(stored.storageStats?.misses, 1)

        let (unstored, inline) = makePipeline(storage: nil, calls: calls)
        XCTAssertFalse(unstored.hasStorage)
        unstored.request("abc", priority: 0)
        inline.runPending()
        let before = unstored.revision
        XCTAssertEqual(unstored.drain().count, 1)
        XCTAssertNotEqual(unstored.revision, before, "nothing kept: the key can be asked for again")
        unstored.request("abc", priority: 0)
        inline.runPending()
        XCTAssertEqual(calls.all, ["abc", "abc", "abc"])
        XCTAssertNil(unstored.storageStats)
    }

    func testEvictionsAndRemovalsMoveTheRevision() {
        let (pipeline, scheduler) = makePipeline(storage: CostCache(countLimit: 2))
        func load(_ key: String) {
            pipeline.request(key, priority: 0)
            scheduler.runPending()
            pipeline.drain()
        }
        load("a")
        load("b")
        var revision = pipeline.revision
        load("c")  // evicts "a"
        XCTAssertNil(pipeline.storedValue(for: "a"))
        XCTAssertNotEqual(pipeline.revision, revision, "an evicted key can be asked for again")

        revision = pipeline.revision
        pipeline.removeStoredValues { $0 == "nothing" }
        XCTAssertEqual(pipeline.revision, revision, "nothing removed")
        pipeline.removeStoredValues { $0 == "b" }
        XCTAssertNotEqual(pipeline.revision, revision)
        XCTAssertNil(pipeline.storedValue(for: "b"))
    }

    func testTheEvictionRankingDecidesWhatTheStorageLetsGo() {
        let (pipeline, scheduler) = makePipeline(storage: CostCache(countLimit: 2))
        // Keep what is nearest length 1: "ccc" goes first, though "a" is the oldest.
        pipeline.setEvictionRanking { Double($0.count) }
        for key in ["a", "ccc", "bb"] {
            pipeline.request(key, priority: 0)
            scheduler.runPending()
            pipeline.drain()
        }
        XCTAssertNil(pipeline.storedValue(for: "ccc"))
        XCTAssertEqual(pipeline.storedValue(for: "a"), 1)
        XCTAssertEqual(pipeline.storedValue(for: "bb"), 2)
    }

    func testLoadNowRunsOnTheCallingThreadAndStores() {
        let calls = Calls(), loads = CountingObserver()
        let (pipeline, scheduler) = makePipeline(bad: ["bad"], calls: calls, loads: loads)
        XCTAssertEqual(try pipeline.loadNow("four").get(), 4)
        XCTAssertEqual(try pipeline.loadNow("four").get(), 4, "stored")
        XCTAssertThrowsError(try pipeline.loadNow("bad").get())
        XCTAssertThrowsError(try pipeline.loadNow("bad").get())
        XCTAssertEqual(calls.all, ["four", "bad"])
        XCTAssertEqual(scheduler.stats.submitted, 0)
        XCTAssertEqual(loads.strip.started, 2)
        XCTAssertEqual(loads.strip.mainThreadLoads, 2)
        XCTAssertEqual(loads.strip.failed, 1)
    }

    // MARK: Running loads

    private var timeout: DispatchTime { .now() + 30 }

    /// One real worker whose loads wait at a gate, then stop if asked.
    private final class Gated: Sendable {
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let woken = DispatchSemaphore(value: 0)
        let calls = Calls()
        let loads = CountingObserver()

        func makePipeline() -> LoadPipeline<String, Int> {
            let started = started, gate = gate, woken = woken, calls = calls
            return LoadPipeline(scheduler: WorkScheduler(workerCount: 1), storage: CostCache(), cost: { $0 },
                                loader: { key, cancellation in
                                    calls.record(key)
                                    started.signal()
                                    gate.wait()
                                    try cancellation.check()
                                    return key.count
                                }, waker: { woken.signal() }, observation: loads.stripLoads)
        }
    }

    func testARunningLoadNobodyWantsStopsWithoutFailingAndCanBeAskedForAgain() {
        let gated = Gated()
        let pipeline = gated.makePipeline()
        pipeline.request("run", priority: 0)
        XCTAssertEqual(gated.started.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.state(of: "run"), .running)
        XCTAssertNotNil(pipeline.runningSeconds("run"))

        pipeline.retainOnly([], cancellingRunning: true)
        gated.gate.signal()
        XCTAssertEqual(gated.woken.wait(timeout: timeout), .success)
        XCTAssertTrue(pipeline.isInFlight("run"), "in flight until drained")
        let revision = pipeline.revision
        XCTAssertTrue(pipeline.drain().isEmpty, "a stopped load delivers nothing")
        XCTAssertNotEqual(pipeline.revision, revision)
        XCTAssertEqual(gated.loads.strip.stoppedRunning, 1)
        XCTAssertEqual(gated.loads.strip.failed, 0)
        XCTAssertNil(pipeline.failure(for: "run"))
        XCTAssertEqual(pipeline.state(of: "run"), .none)

        pipeline.request("run", priority: 0)
        XCTAssertEqual(gated.started.wait(timeout: timeout), .success)
        gated.gate.signal()
        XCTAssertEqual(gated.woken.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.drain().map(\.key), ["run"])
        XCTAssertEqual(pipeline.state(of: "run"), .done)
        XCTAssertEqual(gated.calls.all, ["run", "run"])
    }

    func testWithoutCancellingRunningALoadNobodyWantsFinishes() {
        let gated = Gated()
        let pipeline = gated.makePipeline()
        pipeline.request("run", priority: 0)
        XCTAssertEqual(gated.started.wait(timeout: timeout), .success)
        pipeline.retainOnly([])
        gated.gate.signal()
        XCTAssertEqual(gated.woken.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.drain().map(\.key), ["run"])
        XCTAssertEqual(pipeline.storedValue(for: "run"), 3)
        XCTAssertEqual(gated.loads.strip.stoppedRunning, 0)
    }

    func testARunningLoadWantedAgainBeforeItLooksCarriesOn() {
        let gated = Gated()
        let pipeline = gated.makePipeline()
        pipeline.request("run", priority: 0)
        XCTAssertEqual(gated.started.wait(timeout: timeout), .success)
        pipeline.retainOnly([], cancellingRunning: true)
        pipeline.request("run", priority: 0)
        pipeline.retainOnly(["run"], cancellingRunning: true)  // wanted again: the stop is withdrawn
        gated.gate.signal()
        XCTAssertEqual(gated.woken.wait(timeout: timeout), .success)
        XCTAssertEqual(pipeline.drain().map(\.key), ["run"])
        XCTAssertEqual(gated.loads.strip.stoppedRunning, 0)
        XCTAssertEqual(gated.calls.all, ["run"])
    }
}

private extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
