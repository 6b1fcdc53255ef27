import Foundation
import Synchronization
import XCTest
@testable import TesseraCore

/// `performAndWait`: a thread of another executor hands work to a lane and waits for it; a hand-off whose
/// cancellation is set while it waits in the queue is dropped without running.
final class WorkSchedulerWaitingTests: XCTestCase {
    func testTheWorkRunsOnTheLanesWorkerAndItsValueComesBack() throws {
        let executor = WorkExecutor(.threads(1), name: "test.wait")
        defer { executor.shutdown() }
        let lane = WorkScheduler<Int, String>(rank: .visible, on: executor)
        let ranOn = Mutex<String?>(nil)
        let value = try lane.performAndWait(1, cancellation: DecodeCancellation()) { _ in
            ranOn.withLock { $0 = Thread.current.name }
            return "one"
        }
        XCTAssertEqual(value, "one")
        XCTAssertNotEqual(ranOn.withLock { $0 }, Thread.current.name, "run by the lane's worker")
    }

    func testAHandOffCancelledWhileQueuedIsDroppedWithoutRunning() throws {
        let executor = WorkExecutor(.threads(1), name: "test.wait")
        defer { executor.shutdown() }
        let lane = WorkScheduler<Int, String>(rank: .visible, on: executor)
        let release = DispatchSemaphore(value: 0), busy = DispatchSemaphore(value: 0)
        lane.request(0, priority: 0, work: {
            busy.signal()
            release.wait()
            return "blocker"
        }, completion: { _, _ in })
        busy.wait()
        let cancellation = DecodeCancellation()
        let ran = Atomic<Bool>(false)
        let outcome = Mutex<(any Error)?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            do {
                _ = try lane.performAndWait(1, cancellation: cancellation) { _ in
                    ran.store(true, ordering: .relaxed)
                    return "late"
                }
            } catch {
                outcome.withLock { $0 = error }
            }
            finished.signal()
        }.start()
        cancellation.cancel()
        XCTAssertEqual(finished.wait(timeout: .now() + 10), .success, "the wait ended on the cancellation")
        XCTAssertTrue(outcome.withLock { $0 } is DecodeCancelled, "\(String(describing: outcome.withLock { $0 }))")
        release.signal()
        XCTAssertEqual(try lane.performAndWait(2, cancellation: nil) { _ in "after" }, "after")
        XCTAssertFalse(ran.load(ordering: .relaxed), "the dropped hand-off never ran")
    }
}
