import Dispatch
import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// Strings appended from several threads.
private final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// A stand-in decoder that records how many of its decodes run at once, and holds each one until the test
/// lets it finish, so an overlap the budget allows is certain to be seen and one it forbids cannot hide.
private final class RecordingDecoder: Sendable {
    private struct Record {
        var running: Set<String> = []
        var peakRunning = 0
        var started: [String] = []
    }

    private let record = Mutex(Record())
    private let gates: [String: DispatchSemaphore]

    init(keys: [String]) {
        gates = Dictionary(uniqueKeysWithValues: keys.map { ($0, DispatchSemaphore(value: 0)) })
    }

    /// Decodes `key`: counted as running until the test calls `finish(key)`.
    func decode(_ key: String) -> Int {
        record.withLock { record in
            record.running.insert(key)
            record.started.append(key)
            record.peakRunning = max(record.peakRunning, record.running.count)
        }
        gates[key]!.wait()
        record.withLock { _ = $0.running.remove(key) }
        return 0
    }

    func finish(_ key: String) { gates[key]!.signal() }

    var peakRunning: Int { record.withLock { $0.peakRunning } }
    var started: [String] { record.withLock { $0.started } }
    var running: Set<String> { record.withLock { $0.running } }
}

final class DecodeMemoryBudgetTests: XCTestCase {
    private typealias Scheduler = WorkScheduler<String, Int>
    private static let timeout: TimeInterval = 10
    private static let megabyte = 1 << 20

    /// A two-worker scheduler admitting by `budget`, each key's estimate taken from `sizes` (in MB).
    private func scheduler(_ budget: DecodeMemoryBudget, sizes: [String: Int]) -> Scheduler {
        Scheduler(workerCount: 2, name: "test.budget",
                  memory: .init(budget: budget, estimate: { sizes[$0, default: 0] * Self.megabyte }))
    }

    private func request(_ scheduler: Scheduler, _ key: String, priority: Int, decoder: RecordingDecoder,
                         done: DispatchGroup, succeeded: Log? = nil) {
        done.enter()
        scheduler.request(key, priority: priority, cancellableWork: { _ in decoder.decode(key) },
                          completion: { key, result in
                              if case .success = result { succeeded?.append(key) }
                              done.leave()
                          })
    }

    /// Waits until `condition` holds (checked every millisecond), failing the test after the timeout.
    private func wait(until condition: () -> Bool, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date(timeIntervalSinceNow: Self.timeout)
        while !condition() {
            guard Date() < deadline else { return XCTFail("timed out waiting until \(what)", file: file, line: line) }
            usleep(1000)
        }
    }

    func testTwoBigDecodesDoNotOverlapUnderASmallBudget() {
        let budget = DecodeMemoryBudget(limitBytes: 200 * Self.megabyte)
        let scheduler = scheduler(budget, sizes: ["a": 137, "b": 137])
        let decoder = RecordingDecoder(keys: ["a", "b"])
        let done = DispatchGroup()
        request(scheduler, "a", priority: 0, decoder: decoder, done: done)
        request(scheduler, "b", priority: 1, decoder: decoder, done: done)

        // Both workers take a job at once; whichever asks first decodes, the other waits for room.
        wait(until: { decoder.running.count == 1 && budget.stats.waiting == 1 }, "one runs and the other waits for room")
        XCTAssertEqual(scheduler.runningCount, 2)
        let first = decoder.started[0], second = first == "a" ? "b" : "a"
        XCTAssertEqual(decoder.started, [first])
        decoder.finish(first)
        wait(until: { decoder.running == [second] }, "the other starts once the first has ended")
        decoder.finish(second)
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(decoder.peakRunning, 1)
        XCTAssertEqual(budget.stats.peakRunning, 1)
        XCTAssertEqual(budget.stats.waited, 1)
        XCTAssertEqual(budget.stats.inUseBytes, 0)
    }

    func testTwoSmallDecodesOverlap() {
        let budget = DecodeMemoryBudget(limitBytes: 200 * Self.megabyte)
        let scheduler = scheduler(budget, sizes: ["a": 20, "b": 20])
        let decoder = RecordingDecoder(keys: ["a", "b"])
        let done = DispatchGroup()
        request(scheduler, "a", priority: 0, decoder: decoder, done: done)
        request(scheduler, "b", priority: 1, decoder: decoder, done: done)

        wait(until: { decoder.running == ["a", "b"] }, "both decode at once")
        XCTAssertEqual(budget.stats.inUseBytes, 40 * Self.megabyte)
        decoder.finish("a")
        decoder.finish("b")
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(decoder.peakRunning, 2)
        XCTAssertEqual(budget.stats.waited, 0)
    }

    func testADecodeLargerThanTheBudgetRunsAlone() {
        let budget = DecodeMemoryBudget(limitBytes: 100 * Self.megabyte)
        let scheduler = scheduler(budget, sizes: ["huge": 510, "small": 10])
        let decoder = RecordingDecoder(keys: ["huge", "small"])
        let done = DispatchGroup()
        let succeeded = Log()
        request(scheduler, "huge", priority: 0, decoder: decoder, done: done, succeeded: succeeded)
        request(scheduler, "small", priority: 1, decoder: decoder, done: done, succeeded: succeeded)

        wait(until: { decoder.running.count == 1 && budget.stats.waiting == 1 }, "one runs, the other waits")
        let first = decoder.started[0], second = first == "huge" ? "small" : "huge"
        XCTAssertEqual(budget.stats.inUseBytes, (first == "huge" ? 510 : 10) * Self.megabyte)
        decoder.finish(first)
        wait(until: { decoder.running == [second] }, "the other starts after")
        XCTAssertEqual(budget.stats.inUseBytes, (second == "huge" ? 510 : 10) * Self.megabyte)
        decoder.finish(second)
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(Set(succeeded.all), ["huge", "small"])
        XCTAssertEqual(decoder.peakRunning, 1)
    }

    /// A smaller decode arriving after a big one that waits does not start ahead of it (the big one would
    /// otherwise starve while smaller ones keep the budget busy), though it alone would fit.
    func testWaitersStartInArrivalOrder() throws {
        let budget = DecodeMemoryBudget(limitBytes: 200 * Self.megabyte)
        let first = try budget.admit(bytes: 150 * Self.megabyte)
        let order = Log()
        let done = DispatchGroup()
        let finish = DispatchSemaphore(value: 0)
        func admitLater(_ name: String, megabytes: Int) {
            done.enter()
            Thread.detachNewThread {
                if let admission = try? budget.admit(bytes: megabytes * Self.megabyte) {
                    order.append(name)
                    finish.wait()
                    budget.release(admission)
                }
                done.leave()
            }
        }
        admitLater("big", megabytes: 150)
        wait(until: { budget.stats.waiting == 1 }, "the big one waits")
        // 60 MB fits once the first is released, but not beside the big one.
        admitLater("smaller", megabytes: 60)
        wait(until: { budget.stats.waiting == 2 }, "the smaller one waits behind it")
        budget.release(first)
        wait(until: { order.all.count == 1 && budget.stats.waiting == 1 }, "one of them starts, the other waits")
        XCTAssertEqual(order.all, ["big"], "the one that arrived first starts first")
        finish.signal()
        wait(until: { order.all.count == 2 }, "the smaller one starts when the big one is done")
        finish.signal()
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(order.all, ["big", "smaller"])
        XCTAssertEqual(budget.stats.running, 0)
    }

    func testAWaitingDecodeAskedToStopLeavesWithoutRunning() {
        let budget = DecodeMemoryBudget(limitBytes: 100 * Self.megabyte, cancellationPollInterval: .milliseconds(1))
        let scheduler = scheduler(budget, sizes: ["a": 80, "b": 80])
        let decoder = RecordingDecoder(keys: ["a", "b"])
        let done = DispatchGroup()
        let succeeded = Log()
        request(scheduler, "a", priority: 0, decoder: decoder, done: done, succeeded: succeeded)
        request(scheduler, "b", priority: 1, decoder: decoder, done: done, succeeded: succeeded)
        wait(until: { decoder.running.count == 1 && budget.stats.waiting == 1 }, "one runs, the other waits")
        let first = decoder.started[0], waiting = first == "a" ? "b" : "a"

        scheduler.cancelRunning([waiting])
        wait(until: { budget.stats.waiting == 0 && scheduler.stats.stoppedRunning == 1 }, "the waiting one gives up its place")
        decoder.finish(first)
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
        XCTAssertEqual(decoder.started, [first])
        XCTAssertEqual(succeeded.all, [first])
        XCTAssertEqual(budget.stats.running, 0)
        XCTAssertEqual(budget.stats.inUseBytes, 0)
    }

    /// Without a budget the scheduler starts every job its workers take: both big decodes overlap.
    func testWithoutABudgetBigDecodesOverlap() {
        let scheduler = Scheduler(workerCount: 2, name: "test.budget")
        let decoder = RecordingDecoder(keys: ["a", "b"])
        let done = DispatchGroup()
        request(scheduler, "a", priority: 0, decoder: decoder, done: done)
        request(scheduler, "b", priority: 1, decoder: decoder, done: done)
        wait(until: { decoder.running == ["a", "b"] }, "both decode at once")
        decoder.finish("a")
        decoder.finish("b")
        XCTAssertEqual(done.wait(timeout: .now() + Self.timeout), .success)
    }
}
