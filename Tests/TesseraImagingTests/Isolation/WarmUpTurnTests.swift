import CTesseraSandbox
import Dispatch
import Foundation
import TesseraSandbox
import XCTest

/// A dormant helper waits for the viewer's word before it warms up: a byte, or the viewer gone.
final class WarmUpTurnTests: XCTestCase {
    private func pair() -> (viewer: Int32, helper: Int32) {
        var ends: [Int32] = [-1, -1]
        XCTAssertEqual(tessera_socketpair_cloexec(&ends), 0)
        return (ends[0], ends[1])
    }

    /// Signalled once `turn`'s wait has ended, on a thread of its own.
    private func waitsInTheBackground(_ turn: WarmUpTurn) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            turn.waitForTheWord()
            done.signal()
        }.start()
        return done
    }

    func testADormantHelperWaitsUntilWoken() {
        let (viewer, helper) = pair()
        let waiting = waitsInTheBackground(WarmUpTurn(waitDescriptor: helper))
        XCTAssertEqual(waiting.wait(timeout: .now() + 0.2), .timedOut, "not woken yet")
        WarmUpTurn.wake(through: viewer)
        XCTAssertEqual(waiting.wait(timeout: .now() + 10), .success)
    }

    func testADormantHelperGoesOnWhenTheViewerIsGone() {
        let (viewer, helper) = pair()
        let waiting = waitsInTheBackground(WarmUpTurn(waitDescriptor: helper))
        close(viewer)
        XCTAssertEqual(waiting.wait(timeout: .now() + 10), .success)
    }

    func testWakingAHelperThatIsGoneRaisesNoSignal() {
        let (viewer, helper) = pair()
        close(helper)
        WarmUpTurn.wake(through: viewer)
        // Reaching this line is the test: SIGPIPE would have ended the process.
    }

    func testAHelperThatWarmsUpAtOnceWaitsForNothing() {
        XCTAssertEqual(waitsInTheBackground(.now).wait(timeout: .now() + 10), .success)
    }
}
