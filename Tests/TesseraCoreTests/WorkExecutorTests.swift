import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// What ran, in order, recorded from any thread.
private final class Log<Entry: Sendable>: Sendable {
    private let entries = Mutex<[Entry]>([])

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    var all: [Entry] { entries.withLock { $0 } }
}

/// The executor's promises across lanes: rank first, then priority, then arrival; a lane's rank changed
/// while its jobs wait; cancellation that stays in its lane; one job at a time on a serial lane; one
/// memory budget for every lane's decodes.
final class WorkExecutorTests: XCTestCase {
    private typealias Lane = WorkScheduler<String, Int>

    private static let timeout: TimeInterval = 10

    /// Requests `key` on `lane` with work that records "`tag`:`key`" when it runs.
    private func request(_ lane: Lane, _ key: String, priority: Int, tag: String, ran: Log<String>) {
        lane.request(key, priority: priority, work: {
            ran.append("\(tag):\(key)")
            return 0
        }, completion: { _, _ in })
    }

    func testJobsRunByLaneRankThenPriorityThenArrival() {
        let executor = WorkExecutor.manual()
        let preload = Lane(rank: .preload, on: executor)
        let visible = Lane(rank: .visible, on: executor)
        let actions = SerialWorkLane(rank: .interactive, on: executor)
        let ran = Log<String>()
        request(preload, "p0", priority: 0, tag: "preload", ran: ran)
        request(visible, "v5", priority: 5, tag: "visible", ran: ran)
        request(visible, "v1", priority: 1, tag: "visible", ran: ran)
        request(preload, "p1", priority: 1, tag: "preload", ran: ran)
        request(visible, "v1b", priority: 1, tag: "visible", ran: ran)
        actions.perform { ran.append("action") }

        XCTAssertEqual(ran.all, [], "a manual executor runs nothing until asked")
        XCTAssertEqual(executor.runPending(), 6)
        XCTAssertEqual(ran.all,
                       ["action", "visible:v1", "visible:v1b", "visible:v5", "preload:p0", "preload:p1"])
    }

    /// Equal ranks mix by priority, then by arrival across lanes.
    func testLanesOfOneRankShareItByPriorityThenArrival() {
        let executor = WorkExecutor.manual()
        let first = Lane(rank: .visible, on: executor)
        let second = Lane(rank: .visible, on: executor)
        let ran = Log<String>()
        request(first, "a", priority: 2, tag: "1", ran: ran)
        request(second, "a", priority: 1, tag: "2", ran: ran)
        request(first, "b", priority: 1, tag: "1", ran: ran)
        executor.runPending()
        XCTAssertEqual(ran.all, ["2:a", "1:b", "1:a"])
    }

    /// The slideshow's swap: the next image's lane becomes the shown one's rank and the old shown one's
    /// goes down; every queued job follows its lane at once.
    func testChangingALanesRankReordersItsQueuedJobs() {
        let executor = WorkExecutor.manual()
        let shown = Lane(rank: .visible, on: executor)
        let next = Lane(rank: .preload, on: executor)
        let ran = Log<String>()
        for index in 0..<3 {
            request(shown, "\(index)", priority: index, tag: "shown", ran: ran)
            request(next, "\(index)", priority: index, tag: "next", ran: ran)
        }
        XCTAssertEqual(executor.runPending(limit: 1), 1)
        next.rank = .visible
        shown.rank = .preload
        XCTAssertEqual(next.rank, .visible)
        executor.runPending()
        XCTAssertEqual(ran.all, ["shown:0", "next:0", "next:1", "next:2", "shown:1", "shown:2"])
    }

    /// The same key in two lanes is two jobs; dropping, cancelling and shutting one lane down leaves the
    /// other's work alone.
    func testCancellationStaysInItsLane() {
        let executor = WorkExecutor.manual()
        let dropped = Lane(rank: .visible, on: executor)
        let kept = Lane(rank: .preload, on: executor)
        let ran = Log<String>()
        let cancelled = Log<String>()
        for lane in [dropped, kept] {
            for key in ["a", "b", "c"] {
                let tag = lane === dropped ? "dropped" : "kept"
                lane.request(key, priority: 0, work: {
                    ran.append("\(tag):\(key)")
                    return 0
                }, completion: { key, result in
                    if case .failure(WorkSchedulerError.cancelled) = result {
                        cancelled.append("\(tag):\(key)")
                    }
                })
            }
        }
        XCTAssertEqual(dropped.queuedCount, 3)
        XCTAssertEqual(kept.queuedCount, 3)

        XCTAssertTrue(dropped.cancel("a"))
        XCTAssertEqual(Set(dropped.retainOnly(["c"])), ["b"])
        XCTAssertEqual(kept.queuedCount, 3, "the other lane's jobs for the same keys stay")
        dropped.shutdown()
        XCTAssertEqual(Set(cancelled.all), ["dropped:a", "dropped:b", "dropped:c"])
        XCTAssertFalse(executor.isShutDown, "a lane's shutdown is not the executor's")

        XCTAssertEqual(executor.runPending(), 3)
        XCTAssertEqual(ran.all, ["kept:a", "kept:b", "kept:c"])

        // After its shutdown a lane refuses work; a new lane still gets some.
        let refused = Log<String>()
        dropped.request("d", priority: 0, work: { 0 }, completion: { key, result in
            if case .failure(WorkSchedulerError.shutDown) = result { refused.append(key) }
        })
        XCTAssertEqual(refused.all, ["d"])
        let later = Lane(rank: .visible, on: executor)
        request(later, "e", priority: 0, tag: "later", ran: ran)
        XCTAssertEqual(executor.runPending(), 1)
    }

    /// Shutting the executor down drops every lane's queued jobs and refuses new ones.
    func testExecutorShutdownDropsEveryLanesJobs() {
        let executor = WorkExecutor(.threads(1), name: "texshut")
        let first = Lane(rank: .visible, on: executor)
        let second = Lane(rank: .preload, on: executor)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        first.request("blocker", priority: 0, work: {
            started.signal()
            release.wait()
            return 0
        }, completion: { _, _ in })
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success)
        let outcomes = Log<String>()
        for (name, lane) in [("first", first), ("second", second)] {
            lane.request(name, priority: 0, work: { 0 }, completion: { key, result in
                if case .failure(let error as WorkSchedulerError) = result { outcomes.append("\(key): \(error)") }
            })
        }
        executor.shutdown()
        XCTAssertEqual(Set(outcomes.all), ["first: cancelled", "second: cancelled"])
        second.request("late", priority: 0, work: { 0 }, completion: { key, result in
            if case .failure(let error as WorkSchedulerError) = result { outcomes.append("\(key): \(error)") }
        })
        XCTAssertEqual(outcomes.all.last, "late: shutDown")
        release.signal()
        XCTAssertTrue(executor.waitForWorkersToExit(timeout: Self.timeout))
        XCTAssertEqual(executor.liveWorkerCount, 0)
    }

    /// A serial lane runs its jobs one at a time, in the order given, however many workers are free.
    func testSerialLaneRunsOneJobAtATimeInOrder() {
        let executor = WorkExecutor(.threads(3), name: "texserial")
        let lane = SerialWorkLane(rank: .interactive, on: executor)
        let order = Log<String>()
        let done = DispatchGroup()
        for index in 0..<20 {
            done.enter()
            lane.perform {
                order.append("start \(index)")
                Thread.sleep(forTimeInterval: 0.001)
                order.append("end \(index)")
                done.leave()
            }
        }
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(order.all, (0..<20).flatMap { ["start \($0)", "end \($0)"] },
                       "each job ends before the next starts, in the order given")
        XCTAssertEqual(lane.pendingCount, 0)
    }

    /// A serial lane holds one worker at most: the others go on with other lanes' work meanwhile.
    func testASerialLanesRunningJobLeavesTheOtherWorkersFree() {
        let executor = WorkExecutor(.threads(2), name: "texfree")
        let serial = SerialWorkLane(rank: .visible, on: executor)
        let other = Lane(rank: .preload, on: executor)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        serial.perform {
            started.signal()
            release.wait()
        }
        serial.perform {}
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success)
        let otherRan = DispatchSemaphore(value: 0)
        other.request("x", priority: 0, work: { 0 }, completion: { _, _ in otherRan.signal() })
        XCTAssertEqual(otherRan.wait(timeout: .now() + Self.timeout), .success,
                       "the second worker takes the lower lane's job rather than the serial lane's second")
        XCTAssertEqual(serial.pendingCount, 2)
        release.signal()
    }

    /// Two lanes' decodes that together would pass the budget run one after the other; together under it,
    /// side by side.
    func testLanesShareTheExecutorsMemoryBudget() {
        let budget = DecodeMemoryBudget(limitBytes: 100)
        let executor = WorkExecutor(.threads(2), name: "texbudget", memoryBudget: budget)
        let estimates: [String: Int] = ["big1": 80, "big2": 80, "small1": 10, "small2": 10]
        XCTAssertTrue(executor.memoryBudget === budget)
        let memory = Lane.MemoryAdmission(budget: budget,
                                          estimate: { estimates[$0] ?? 0 })
        let tiles = Lane(rank: .visible, on: executor, memory: memory)
        let strip = Lane(rank: .preload, on: executor, memory: memory)

        func runPair(_ first: String, _ second: String) -> DecodeMemoryBudget.Stats {
            let done = DispatchGroup()
            for (lane, key) in [(tiles, first), (strip, second)] {
                done.enter()
                lane.request(key, priority: 0, work: {
                    Thread.sleep(forTimeInterval: 0.05)
                    return 0
                }, completion: { _, _ in done.leave() })
            }
            XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
            return budget.stats
        }
        let big = runPair("big1", "big2")
        XCTAssertEqual(big.peakRunning, 1, "80 + 80 bytes do not fit 100 together")
        XCTAssertEqual(big.waited, 1)
        XCTAssertEqual(big.peakInUseBytes, 80)
        let small = runPair("small1", "small2")
        XCTAssertEqual(small.peakRunning, 2, "10 + 10 bytes do")
        XCTAssertEqual(small.inUseBytes, 0)
    }

    /// Work outside the viewer keeps a scheduler with workers of its own; they go with it.
    func testAnOwnExecutorsWorkersExitWithItsScheduler() {
        let scheduler = Lane(workerCount: 2, name: "texown")
        let executor = scheduler.executor
        XCTAssertEqual(executor.liveWorkerCount, 2)
        XCTAssertEqual(scheduler.workerCount, 2)
        scheduler.shutdown()
        XCTAssertTrue(scheduler.waitForWorkersToExit(timeout: Self.timeout))
        XCTAssertEqual(executor.liveWorkerCount, 0)
    }

    /// Owns a lane of the executor, as an animation feed's steps do: its deinit closes that lane.
    private final class LaneOwner: Sendable {
        let lane: SerialWorkLane
        init(on executor: WorkExecutor) { lane = SerialWorkLane(rank: .visible, on: executor) }
    }

    /// Runs `body` on another thread; false when it has not returned within the timeout (a deadlock).
    private func returns(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + Self.timeout) == .success
    }

    func testDroppingWorkThatHoldsTheLastReferenceToALaneOwnerDoesNotDeadlock() {
        let executor = WorkExecutor.manual()
        let lane = SerialWorkLane(rank: .visible, on: executor)
        var owner: LaneOwner? = LaneOwner(on: executor)
        lane.perform { [owner] in _ = owner }
        owner = nil
        XCTAssertTrue(returns { lane.cancelQueued() }, "the dropped work's owner closes its lane after the lock")

        let other = SerialWorkLane(rank: .visible, on: executor)
        var second: LaneOwner? = LaneOwner(on: executor)
        other.perform { [second] in _ = second }
        second = nil
        XCTAssertTrue(returns { executor.shutdown() }, "shutting down lets go of queued work after the lock")
    }

    func testRunWorkThatHoldsTheLastReferenceToALaneOwnerIsLetGoAfterTheLock() {
        let executor = WorkExecutor.manual()
        let lane = SerialWorkLane(rank: .visible, on: executor)
        var owner: LaneOwner? = LaneOwner(on: executor)
        lane.perform { [owner] in _ = owner }
        owner = nil
        XCTAssertTrue(returns { _ = executor.runPending() })
        XCTAssertEqual(lane.pendingCount, 0)
    }
}
