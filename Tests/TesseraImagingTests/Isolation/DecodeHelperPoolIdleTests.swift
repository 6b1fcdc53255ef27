#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraSandbox

/// The pool after a burst of decodes: the helpers it was warmed with stay, the others stop once they have
/// waited a minute, and one asked for again within the minute stays. The helpers are the built binary's;
/// the minute passes on a clock the test moves.
final class DecodeHelperPoolIdleTests: XCTestCase {
    private let timer = ManualIdleClock()

    private func pool(helperCount: Int) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: helperCount, memoryLimit: 256 << 20)
        configuration.idleClock = timer.clock
        return DecodeHelperPool(configuration: configuration)
    }

    private func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    func testHelpersBeyondTheWarmedOneStopAfterAMinuteIdleAndTheWarmedOneDecodes() throws {
        let pool = pool(helperCount: 1)
        defer { pool.shutdown() }
        // Three decodes at once: the warmed helper and two started for them.
        let burst = try (0..<3).map { _ in try pool.borrow() }
        for helper in burst { pool.giveBack(helper) }
        XCTAssertEqual(pool.idleProcessIDs.count, 3)

        timer.advance(by: .seconds(59))
        XCTAssertEqual(pool.idleProcessIDs.count, 3, "not a minute yet")
        XCTAssertTrue(burst.allSatisfy { isRunning($0.pid) })

        timer.advance(by: .seconds(1))
        let kept = pool.idleProcessIDs
        XCTAssertEqual(kept.count, 1)
        let stopped = burst.map(\.pid).filter { !kept.contains($0) }
        XCTAssertEqual(stopped.count, 2)
        XCTAssertFalse(stopped.contains(where: isRunning), "stopped and reaped")

        // The one kept still decodes, and nothing more stops however long the pool waits.
        let header = try SandboxedDecoding(pool: pool).header(of: ImageFile(path: SampleImages.url("img25-small.jpg").path))
        XCTAssertEqual(header.format, .jpeg)
        timer.advance(by: .seconds(3600))
        XCTAssertEqual(pool.idleProcessIDs, kept)
        XCTAssertEqual(timer.pendingCount, 0, "no check is left waiting")
    }

    func testAHelperUsedAgainWithinTheMinuteStaysWhileTheOthersStop() throws {
        let pool = pool(helperCount: 1)
        defer { pool.shutdown() }
        let burst = try (0..<3).map { _ in try pool.borrow() }
        for helper in burst { pool.giveBack(helper) }
        let waiting = pool.idleProcessIDs

        // Half a minute later two decodes run again, on the two helpers that waited least.
        timer.advance(by: .seconds(30))
        let again = [try pool.borrow(), try pool.borrow()]
        for helper in again.reversed() { pool.giveBack(helper) }
        XCTAssertEqual(pool.idleProcessIDs, [waiting[0], waiting[1], waiting[2]])

        timer.advance(by: .seconds(30))
        XCTAssertEqual(pool.idleProcessIDs, [waiting[1], waiting[2]], "the one left waiting a minute stops")
        XCTAssertFalse(isRunning(waiting[0]))

        timer.advance(by: .seconds(30))
        XCTAssertEqual(pool.idleProcessIDs.count, 1, "a minute after their last decode, down to the warmed count")
    }

    func testAPoolWarmedWithSeveralKeepsThemAll() throws {
        let pool = pool(helperCount: 2)
        defer { pool.shutdown() }
        let warmed = pool.idleProcessIDs
        XCTAssertEqual(warmed.count, 2)
        timer.advance(by: .seconds(600))
        XCTAssertEqual(pool.idleProcessIDs, warmed)
        XCTAssertTrue(warmed.allSatisfy(isRunning))
    }
}

/// A clock and timer the test moves: work scheduled for later runs when the clock passes its time, on the
/// test's thread.
final class ManualIdleClock: Sendable {
    private struct State {
        var now: Duration = .zero
        var due: [(at: Duration, work: @Sendable () -> Void)] = []
    }

    private let state = Mutex(State())

    var clock: DecodeHelperPool.IdleClock {
        DecodeHelperPool.IdleClock(now: { [self] in state.withLock { $0.now } }, runAfter: { [self] delay, work in
            state.withLock { $0.due.append(($0.now + delay, work)) }
        })
    }

    var pendingCount: Int { state.withLock { $0.due.count } }

    /// Moves the clock on, running each piece of work that falls due, in time order (work may schedule more).
    func advance(by step: Duration) {
        let target = state.withLock { $0.now + step }
        while true {
            let next = state.withLock { state -> (@Sendable () -> Void)? in
                guard let index = state.due.indices.min(by: { state.due[$0].at < state.due[$1].at }),
                      state.due[index].at <= target else {
                    state.now = target
                    return nil
                }
                state.now = max(state.now, state.due[index].at)
                return state.due.remove(at: index).work
            }
            guard let next else { return }
            next()
        }
    }
}
