import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// A value shared with work and completions running on other threads.
private final class Shared<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func mutate<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}

private struct DecodeFailed: Error, Equatable {}

/// The scheduler's promises to its callers: most urgent work first, priorities changed while queued,
/// one execution per key shared by its requesters, dropped and cancelled work, errors, worker threads and
/// shutdown. Longer than most test files because its tests share the gated jobs and recorded completions
/// that hold the scheduler at the moment each one checks.
final class WorkSchedulerTests: XCTestCase {
    private typealias Scheduler = WorkScheduler<String, Int>

    private static let timeout: TimeInterval = 10

    /// Requests `key` with work that records it ran, and completions that record what they got.
    private func request(_ scheduler: Scheduler, _ key: String, priority: Int, value: Int = 0,
                         ran: Shared<[String]>, results: Shared<[String: [Result<Int, Error>]]>? = nil,
                         group: DispatchGroup? = nil) {
        group?.enter()
        scheduler.request(key, priority: priority, work: {
            ran.mutate { $0.append(key) }
            return value
        }, completion: { key, result in
            results?.mutate { $0[key, default: []].append(result) }
            group?.leave()
        })
    }

    /// Occupies the scheduler's only worker until `release` is signalled; returns once it is running.
    private func blockTheWorker(_ scheduler: Scheduler, release: DispatchSemaphore,
                                file: StaticString = #filePath, line: UInt = #line) {
        let started = DispatchSemaphore(value: 0)
        scheduler.request("blocker", priority: 0, work: {
            started.signal()
            release.wait()
            return -1
        }, completion: { _, _ in })
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success, file: file, line: line)
    }

    private func isCancelled(_ result: Result<Int, Error>?) -> Bool {
        guard case .failure(let error as WorkSchedulerError)? = result else { return false }
        return error == .cancelled
    }

    // MARK: Priorities

    func testManualExecutorRunsNothingUntilAskedThenMostUrgentFirst() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        request(scheduler, "c", priority: 2, ran: ran)
        request(scheduler, "a", priority: 0, ran: ran)
        request(scheduler, "b", priority: 1, ran: ran)
        request(scheduler, "a2", priority: 0, ran: ran)  // same priority as a: runs after it (FIFO)

        XCTAssertEqual(ran.value, [])
        XCTAssertEqual(scheduler.queuedCount, 4)
        XCTAssertEqual(scheduler.runPending(limit: 1), 1)
        XCTAssertEqual(ran.value, ["a"])
        XCTAssertEqual(scheduler.runPending(), 3)
        XCTAssertEqual(ran.value, ["a", "a2", "b", "c"])
        XCTAssertEqual(scheduler.queuedCount, 0)
        XCTAssertEqual(scheduler.runPending(), 0)
    }

    func testSingleWorkerRunsQueuedJobsByPriority() {
        let scheduler = Scheduler(workerCount: 1, name: "tprio")
        defer { scheduler.shutdown() }
        let release = DispatchSemaphore(value: 0)
        blockTheWorker(scheduler, release: release)
        XCTAssertEqual(scheduler.runningCount, 1)

        let ran = Shared<[String]>([])
        let group = DispatchGroup()
        request(scheduler, "later", priority: 5, ran: ran, group: group)
        request(scheduler, "visible", priority: 0, ran: ran, group: group)
        request(scheduler, "near", priority: 1, ran: ran, group: group)
        request(scheduler, "visible2", priority: 0, ran: ran, group: group)
        XCTAssertEqual(scheduler.queuedCount, 4)
        release.signal()

        XCTAssertEqual(group.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(ran.value, ["visible", "visible2", "near", "later"])
    }

    func testReprioritizeChangesOrderOfQueuedJobs() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        request(scheduler, "a", priority: 0, ran: ran)
        request(scheduler, "b", priority: 1, ran: ran)
        request(scheduler, "c", priority: 2, ran: ran)

        scheduler.reprioritize(["a": 10, "c": -1, "unknown": 0])
        scheduler.runPending()
        XCTAssertEqual(ran.value, ["c", "b", "a"])
    }

    func testReprioritizeDoesNotTouchRunningJobs() {
        let scheduler = Scheduler(workerCount: 1, name: "trepri")
        defer { scheduler.shutdown() }
        let release = DispatchSemaphore(value: 0)
        blockTheWorker(scheduler, release: release)
        scheduler.reprioritize(["blocker": 100])
        XCTAssertEqual(scheduler.runningCount, 1)
        XCTAssertEqual(scheduler.queuedCount, 0)
        release.signal()
    }

    /// Many priority changes (pushing stale heap entries and forcing compaction) must still yield
    /// exactly the (priority, submission order) sequence, each job once.
    func testOrderStaysExactUnderManyPriorityChanges() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        var finalPriority: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        let keys = (0..<300).map { "job\($0)" }
        for key in keys {
            finalPriority[key] = Int.random(in: 0..<20, using: &generator)
            request(scheduler, key, priority: finalPriority[key]!, ran: ran)
        }
        for _ in 0..<20 {
            var changes: [String: Int] = [:]
            for key in keys.shuffled(using: &generator).prefix(100) { changes[key] = Int.random(in: 0..<20, using: &generator) }
            scheduler.reprioritize(changes)
            finalPriority.merge(changes) { $1 }
        }

        XCTAssertEqual(scheduler.runPending(), keys.count)
        let expected = keys.enumerated()
            .sorted { (finalPriority[$0.element]!, $0.offset) < (finalPriority[$1.element]!, $1.offset) }
            .map(\.element)
        XCTAssertEqual(ran.value, expected)
    }

    // MARK: Deduplication

    func testRequestsForOneKeyShareOneExecution() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        let results = Shared<[String: [Result<Int, Error>]]>([:])
        for _ in 0..<5 { request(scheduler, "k", priority: 3, value: 42, ran: ran, results: results) }

        XCTAssertEqual(scheduler.queuedCount, 1)
        scheduler.runPending()
        XCTAssertEqual(ran.value, ["k"])
        let values = results.value["k", default: []].map { try? $0.get() }
        XCTAssertEqual(values, Array(repeating: 42, count: 5))
        XCTAssertEqual(scheduler.stats, SchedulerStats(submitted: 5, started: 1, executed: 1, shared: 4, cancelled: 0))
    }

    func testSharedRequestRaisesQueuedPriorityButNeverLowersIt() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        request(scheduler, "x", priority: 5, ran: ran)
        request(scheduler, "y", priority: 3, ran: ran)
        request(scheduler, "z", priority: 4, ran: ran)
        request(scheduler, "x", priority: 1, ran: ran)  // x becomes the most urgent
        request(scheduler, "y", priority: 9, ran: ran)  // y keeps 3

        scheduler.runPending()
        XCTAssertEqual(ran.value, ["x", "y", "z"])
    }

    func testRequestWhileRunningJoinsTheRunningJob() {
        let scheduler = Scheduler(workerCount: 1, name: "tjoin")
        defer { scheduler.shutdown() }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let executions = Shared(0)
        let results = Shared<[Int]>([])
        let group = DispatchGroup()
        for index in 0..<3 {
            group.enter()
            scheduler.request("k", priority: 0, work: {
                executions.mutate { $0 += 1 }
                started.signal()
                release.wait()
                return 7
            }, completion: { _, result in
                results.mutate { $0.append((try? result.get()) ?? -1) }
                group.leave()
            })
            if index == 0 { XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success) }
        }
        XCTAssertEqual(scheduler.runningCount, 1)
        XCTAssertEqual(scheduler.queuedCount, 0)
        release.signal()

        XCTAssertEqual(group.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(executions.value, 1)
        XCTAssertEqual(results.value, [7, 7, 7])
        XCTAssertEqual(scheduler.stats.shared, 2)
    }

    func testRequestAfterCompletionRunsAgain() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        request(scheduler, "k", priority: 0, ran: ran)
        scheduler.runPending()
        request(scheduler, "k", priority: 0, ran: ran)
        scheduler.runPending()
        XCTAssertEqual(ran.value, ["k", "k"])
    }

    // MARK: Cancellation

    func testRetainOnlyDropsQueuedWorkAndCancelsItsCompletions() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        let results = Shared<[String: [Result<Int, Error>]]>([:])
        for key in ["a", "b", "c", "d"] { request(scheduler, key, priority: 0, value: 1, ran: ran, results: results) }
        request(scheduler, "a", priority: 0, ran: ran, results: results)  // a second requester of a

        let dropped = scheduler.retainOnly(["b", "d", "not-queued"])
        XCTAssertEqual(dropped.sorted(), ["a", "c"])
        XCTAssertEqual(results.value["a"]?.count, 2, "every requester of a dropped job hears about it")
        XCTAssertTrue(results.value["a"]!.allSatisfy(isCancelled))
        XCTAssertTrue(isCancelled(results.value["c"]?.first))
        XCTAssertEqual(scheduler.queuedCount, 2)

        scheduler.runPending()
        XCTAssertEqual(ran.value, ["b", "d"], "dropped work never runs")
        XCTAssertEqual(results.value["c"]?.count, 1)
        XCTAssertEqual(scheduler.stats.cancelled, 2)
        XCTAssertEqual(scheduler.stats.executed, 2)
    }

    func testRetainOnlyLetsRunningJobsFinish() {
        let scheduler = Scheduler(workerCount: 1, name: "tretain")
        defer { scheduler.shutdown() }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let runningResult = Shared<Result<Int, Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        scheduler.request("running", priority: 0, work: {
            started.signal()
            release.wait()
            return 5
        }, completion: { _, result in
            runningResult.mutate { $0 = result }
            done.signal()
        })
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success)
        let ran = Shared<[String]>([])
        request(scheduler, "queued", priority: 0, ran: ran)

        XCTAssertEqual(scheduler.retainOnly([]), ["queued"])
        release.signal()
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(try runningResult.value?.get(), 5)
        XCTAssertEqual(ran.value, [])
    }

    func testCancelDropsOneQueuedJob() {
        let scheduler = Scheduler.inline()
        let ran = Shared<[String]>([])
        let results = Shared<[String: [Result<Int, Error>]]>([:])
        request(scheduler, "a", priority: 0, ran: ran, results: results)
        request(scheduler, "b", priority: 0, ran: ran, results: results)

        XCTAssertTrue(scheduler.cancel("a"))
        XCTAssertFalse(scheduler.cancel("a"))
        XCTAssertFalse(scheduler.cancel("never-requested"))
        XCTAssertTrue(isCancelled(results.value["a"]?.first))
        scheduler.runPending()
        XCTAssertEqual(ran.value, ["b"])
    }

    // MARK: Errors

    func testThrownErrorReachesEveryCompletion() {
        let scheduler = Scheduler.inline()
        let errors = Shared<[Error]>([])
        for _ in 0..<2 {
            scheduler.request("bad", priority: 0, work: { throw DecodeFailed() }, completion: { _, result in
                if case .failure(let error) = result { errors.mutate { $0.append(error) } }
            })
        }
        scheduler.runPending()
        XCTAssertEqual(errors.value.count, 2)
        XCTAssertTrue(errors.value.allSatisfy { $0 is DecodeFailed })
        XCTAssertEqual(scheduler.stats.executed, 1)
    }

    // MARK: Threads

    func testManyJobsOnFourWorkersCompleteExactlyOnce() {
        let scheduler = Scheduler(workerCount: 4, name: "tmany")
        defer { scheduler.shutdown() }
        let jobCount = 200
        let executions = Shared([Int](repeating: 0, count: jobCount))
        let completions = Shared([Int](repeating: 0, count: jobCount))
        let wrongValues = Shared(0)
        let group = DispatchGroup()

        for index in 0..<jobCount {
            group.enter()
            scheduler.request("job\(index)", priority: index % 7, work: {
                executions.mutate { $0[index] += 1 }
                return index * 2
            }, completion: { _, result in
                if (try? result.get()) != index * 2 { wrongValues.mutate { $0 += 1 } }
                completions.mutate { $0[index] += 1 }
                group.leave()
            })
        }

        XCTAssertEqual(group.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(executions.value, Array(repeating: 1, count: jobCount))
        XCTAssertEqual(completions.value, Array(repeating: 1, count: jobCount))
        XCTAssertEqual(wrongValues.value, 0)
        XCTAssertEqual(scheduler.stats.executed, jobCount)
        XCTAssertEqual(scheduler.queuedCount, 0)
    }

    func testCompletionRunsOnTheWorkerThatDidTheWork() {
        let scheduler = Scheduler(workerCount: 2, name: "tthread")
        defer { scheduler.shutdown() }
        let threads = Shared<[String]>([])
        let done = DispatchSemaphore(value: 0)
        scheduler.request("k", priority: 0, work: {
            threads.mutate { $0.append(Thread.current.name ?? "?") }
            return 0
        }, completion: { _, _ in
            threads.mutate { $0.append(Thread.current.name ?? "?") }
            done.signal()
        })
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(threads.value.count, 2)
        XCTAssertEqual(threads.value.first, threads.value.last)
        XCTAssertTrue(threads.value[0].hasPrefix("tthread."), threads.value[0])
    }

    // MARK: Shutdown

    func testShutdownDropsQueuedJobsLetsRunningFinishAndEndsThreads() {
        let scheduler = Scheduler(workerCount: 1, name: "tshut")
        XCTAssertEqual(scheduler.liveWorkerCount, 1)
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let runningResult = Shared<Result<Int, Error>?>(nil)
        scheduler.request("running", priority: 0, work: {
            started.signal()
            release.wait()
            return 3
        }, completion: { _, result in runningResult.mutate { $0 = result } })
        XCTAssertEqual(started.wait(timeout: .now() + Self.timeout), .success)
        let ran = Shared<[String]>([])
        let results = Shared<[String: [Result<Int, Error>]]>([:])
        request(scheduler, "queued", priority: 0, ran: ran, results: results)

        scheduler.shutdown()
        XCTAssertTrue(isCancelled(results.value["queued"]?.first))
        XCTAssertFalse(scheduler.waitForWorkersToExit(timeout: 0.05), "the running job holds its worker")
        release.signal()
        XCTAssertTrue(scheduler.waitForWorkersToExit(timeout: Self.timeout))
        XCTAssertEqual(scheduler.liveWorkerCount, 0)
        XCTAssertEqual(try runningResult.value?.get(), 3)
        XCTAssertEqual(ran.value, [])

        let late = Shared<Result<Int, Error>?>(nil)
        scheduler.request("late", priority: 0, work: { 0 }, completion: { _, result in late.mutate { $0 = result } })
        guard case .failure(let error as WorkSchedulerError)? = late.value else {
            return XCTFail("a request after shutdown must fail at once")
        }
        XCTAssertEqual(error, .shutDown)
        scheduler.shutdown()  // idempotent
    }

    /// Dropping the last reference shuts the pool down: the workers must not keep the scheduler alive,
    /// and their threads must exit.
    func testDeinitLetsWorkerThreadsExit() throws {
        // Linux names each pthread after its Thread, so /proc shows the "tdeinit.N" workers come and go.
        let name = "tdeinit"
        let taskDirectory = "/proc/self/task"
        guard FileManager.default.fileExists(atPath: taskDirectory) else { throw XCTSkip("no /proc") }
        func namedWorkers() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: taskDirectory)) ?? []
            return tasks.filter { task in
                let comm = try? String(contentsOfFile: "\(taskDirectory)/\(task)/comm", encoding: .utf8)
                return comm?.hasPrefix(name + ".") ?? false
            }.count
        }
        func waitUntil(_ condition: () -> Bool) {
            let deadline = Date(timeIntervalSinceNow: Self.timeout)
            while !condition(), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        }

        weak var weakScheduler: Scheduler?
        do {
            let scheduler = Scheduler(workerCount: 3, name: name)
            weakScheduler = scheduler
            let done = DispatchSemaphore(value: 0)
            scheduler.request("k", priority: 0, work: { 1 }, completion: { _, _ in done.signal() })
            XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
            waitUntil { namedWorkers() == 3 }
            XCTAssertEqual(namedWorkers(), 3)
        }
        XCTAssertNil(weakScheduler)
        waitUntil { namedWorkers() == 0 }
        XCTAssertEqual(namedWorkers(), 0)
    }

    func testDefaultWorkerCountIsAtLeastTwo() {
        XCTAssertGreaterThanOrEqual(Scheduler.defaultWorkerCount, 2)
        XCTAssertEqual(Scheduler(workerCount: 0, name: "tzero").liveWorkerCount, 1)
        XCTAssertEqual(Scheduler.inline().liveWorkerCount, 0)
    }

    /// Background workers (the viewer's decoders) yield the CPU to the thread drawing frames: ten nice
    /// levels below the process. Normal workers (the tile cutter) keep the process's priority.
    func testBackgroundWorkersRunTenNiceLevelsBelowTheProcess() {
        let processNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        func workerNice(_ priority: WorkerPriority) -> Int32? {
            let scheduler = WorkScheduler<String, Int32>(workerCount: 1, name: "tnice", priority: priority)
            defer { scheduler.shutdown() }
            let seen = Shared<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            scheduler.request("k", priority: 0, work: { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) },
                              completion: { _, result in
                                  seen.mutate { $0 = try? result.get() }
                                  done.signal()
                              })
            XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
            return seen.value
        }
        XCTAssertEqual(workerNice(.background), min(19, processNice + 10))
        XCTAssertEqual(workerNice(.idle), min(19, processNice + 19))
        XCTAssertEqual(workerNice(.normal), processNice)
        // The caller's own priority is untouched.
        XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), processNice)
    }

    /// The viewer's workers decode the first screen at its own priority, then step back behind it: each
    /// worker lowers itself before its next job, and a priority never goes back up.
    func testLoweredWorkersStepDownBeforeTheirNextJobAndNeverBackUp() {
        let processNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let executor = WorkExecutor(.threads(1), name: "tlower", priority: .normal)
        defer { executor.shutdown() }
        let lane = SerialWorkLane(rank: .visible, on: executor)
        func niceOfNextJob() -> Int32? {
            let seen = Shared<Int32?>(nil)
            let done = DispatchSemaphore(value: 0)
            lane.perform {
                seen.mutate { $0 = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
                done.signal()
            }
            XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
            return seen.value
        }
        XCTAssertEqual(niceOfNextJob(), processNice)
        executor.lowerPriority(to: .background)
        XCTAssertEqual(niceOfNextJob(), min(19, processNice + 10))
        executor.lowerPriority(to: .normal)
        XCTAssertEqual(niceOfNextJob(), min(19, processNice + 10), "not raised again")
        executor.lowerPriority(to: .idle)
        XCTAssertEqual(niceOfNextJob(), min(19, processNice + 19))
    }

}
