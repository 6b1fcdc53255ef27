import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraTestBasics
import XCTest

/// The key-handler runs small shell scripts that record what they were given, as a user's handler would
/// act on it.
final class KeyHandlerRunnerTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
    }

    override func tearDown() {
        folder = nil
    }

    private var handlerPath: String { folder.path("config/tessera/key-handler") }

    /// Installs `body` as the handler (a /bin/sh script) where XDG_CONFIG_HOME points.
    private func install(_ body: String, executable: Bool = true) throws -> KeyHandlerRunner {
        try FileManager.default.createDirectory(atPath: folder.path("config/tessera"), withIntermediateDirectories: true)
        try ("#!/bin/sh\n" + body + "\n").write(toFile: handlerPath, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(handlerPath, executable ? 0o755 : 0o644), 0)
        return KeyHandlerRunner(handlerPath: KeyHandlerRunner.handlerPath(environment: ["XDG_CONFIG_HOME": folder.path("config")]),
                                killGrace: .milliseconds(300))
    }

    /// Runs and waits for the completion.
    private func runAndWait(_ runner: KeyHandlerRunner, _ combo: KeyCombo, paths: [String], nulSeparated: Bool = false,
                            timeout: TimeInterval = 20, whileRunning: (KeyHandlerRun) throws -> Void = { _ in }) throws -> Result<KeyHandlerResult, KeyHandlerError> {
        let done = expectation(description: "completion")
        let outcome = Mutex<Result<KeyHandlerResult, KeyHandlerError>?>(nil)
        let run = runner.run(combo, paths: paths, nulSeparated: nulSeparated) { result in
            outcome.withLock { $0 = result }
            done.fulfill()
        }
        try whileRunning(run)
        wait(for: [done], timeout: timeout)
        XCTAssertFalse(run.isRunning)
        return try XCTUnwrap(outcome.withLock { $0 }, "no completion within \(timeout) s")
    }

    func testTheHandlerGetsTheComboAsItsArgumentAndThePathsOnItsInput() throws {
        let record = folder.path("record")
        let runner = try install("""
        printf '%s\\n' "$1" > "\(record).argument"
        cat > "\(record).input"
        printf '%s' "$TESSERA_USING_NULL" > "\(record).null"
        """)
        let paths = [folder.path("a.jpg"), folder.path("b c.jpg")]
        let result = try runAndWait(runner, KeyCombo(typed: "r", control: true)!, paths: paths).get()
        XCTAssertEqual(result.termination, .exited(0))
        XCTAssertTrue(result.succeeded)
        XCTAssertEqual(result.combo, "C-r")
        XCTAssertEqual(try String(contentsOfFile: record + ".argument", encoding: .utf8), "C-r\n")
        XCTAssertEqual(try String(contentsOfFile: record + ".input", encoding: .utf8), paths.map { $0 + "\n" }.joined())
        XCTAssertEqual(try String(contentsOfFile: record + ".null", encoding: .utf8), "0")

        let nul = try runAndWait(runner, KeyCombo(key: "Delete", shift: true), paths: paths, nulSeparated: true).get()
        XCTAssertTrue(nul.succeeded)
        XCTAssertEqual(try String(contentsOfFile: record + ".argument", encoding: .utf8), "S-Delete\n")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: record + ".input")), Data(paths.map { $0 + "\0" }.joined().utf8))
        XCTAssertEqual(try String(contentsOfFile: record + ".null", encoding: .utf8), "1")
    }

    func testChangedAndVanishedPathsAreReported() throws {
        let edited = try folder.write(Data("one".utf8), to: "edited.jpg")
        let removed = try folder.write(Data("two".utf8), to: "removed.jpg")
        let untouched = try folder.write(Data("three".utf8), to: "untouched.jpg")
        let runner = try install("""
        read first; read second
        printf 'more' >> "$first"
        rm "$second"
        """)
        let result = try runAndWait(runner, KeyCombo(typed: "e")!, paths: [edited, removed, untouched]).get()
        XCTAssertEqual(result.changed, [edited])
        XCTAssertEqual(result.vanished, [removed])
    }

    func testTheCallerIsNotBlockedAndIsRunningFollowsTheHandler() throws {
        let go = folder.path("go")
        let runner = try install("while [ ! -e \"\(go)\" ]; do sleep 0.02; done")
        let result = try runAndWait(runner, KeyCombo(typed: "w")!, paths: []) { run in
            // run() has returned while the handler waits for the go file the test has not made yet.
            XCTAssertTrue(run.isRunning)
            Thread.sleep(forTimeInterval: 0.2)
            XCTAssertTrue(run.isRunning)
            XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil))
        }
        XCTAssertTrue(try result.get().succeeded)
    }

    func testAFailingHandlersStatusAndTheEndOfItsErrorsAreReported() throws {
        let runner = try install("""
        i=0; while [ $i -lt 2000 ]; do echo "noise line $i" >&2; i=$((i+1)); done
        echo "cannot convert $1" >&2
        exit 3
        """)
        let result = try runAndWait(runner, KeyCombo(typed: "c")!, paths: []).get()
        XCTAssertEqual(result.termination, .exited(3))
        XCTAssertFalse(result.succeeded)
        XCTAssertTrue(result.standardErrorTail.hasSuffix("noise line 1999\ncannot convert c"), result.standardErrorTail)
        XCTAssertLessThanOrEqual(result.standardErrorTail.utf8.count, 4096)
    }

    func testAHandlerThatReadsNothingOrWritesMuchBeforeReadingDoesNotHang() throws {
        let paths = (0..<3000).map { folder.path("a-long-name-for-an-image-\($0)-so-that-the-paths-pass-the-pipe-buffer.jpg") }
        XCTAssertGreaterThan(paths.joined().utf8.count, 1 << 17)
        let ignoring = try install("exit 0")
        XCTAssertTrue(try runAndWait(ignoring, KeyCombo(typed: "x")!, paths: paths).get().succeeded)

        let count = folder.path("count")
        let chatty = try install("""
        head -c 300000 /dev/zero | tr '\\0' 'x' >&2
        wc -l > "\(count)"
        """)
        XCTAssertTrue(try runAndWait(chatty, KeyCombo(typed: "x")!, paths: paths).get().succeeded)
        XCTAssertEqual(try String(contentsOfFile: count, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), "3000")
    }

    func testAHandlerThatNeverEndsIsCancelledWithWhatItStarted() throws {
        let pidFile = folder.path("sleep.pid")
        let runner = try install("sleep 1000 & echo $! > \"\(pidFile)\"; wait")
        let result = try runAndWait(runner, KeyCombo(typed: "s")!, paths: []) { run in
            try waitForFile(pidFile)
            run.cancel()
        }.get()
        XCTAssertTrue(result.wasCancelled)
        XCTAssertFalse(result.succeeded)
        XCTAssertEqual(result.termination, .signalled(SIGTERM))
        let sleeper = try XCTUnwrap(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertTrue(gone(sleeper), "the handler's own child is stopped too")

        // One that ignores SIGTERM is killed after the grace period.
        let stubborn = try install("trap '' TERM; echo started > \"\(pidFile).2\"; while true; do sleep 0.05; done")
        let killed = try runAndWait(stubborn, KeyCombo(typed: "s")!, paths: []) { run in
            try waitForFile(pidFile + ".2")
            run.cancel()
        }.get()
        XCTAssertEqual(killed.termination, .signalled(SIGKILL))
        XCTAssertTrue(killed.wasCancelled)
    }

    func testAMissingOrNonExecutableHandlerIsAClearError() throws {
        let runner = KeyHandlerRunner(handlerPath: handlerPath)
        XCTAssertEqual(try runAndWait(runner, KeyCombo(typed: "a")!, paths: []),
                       .failure(KeyHandlerError(handlerPath: handlerPath, reason: .missing)))
        XCTAssertEqual("\(KeyHandlerError(handlerPath: handlerPath, reason: .missing))", "no key handler at \(handlerPath)")

        let plain = try install("exit 0", executable: false)
        guard case .failure(let error) = try runAndWait(plain, KeyCombo(typed: "a")!, paths: []),
              case .notExecutable = error.reason else { return XCTFail("a handler without x permission ran") }
        XCTAssertTrue("\(error)".contains("chmod +x"), "\(error)")

        // A script whose interpreter does not exist: the exec fails, which posix_spawn reports.
        try "#!/nonexistent/interpreter\n".write(toFile: handlerPath, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(handlerPath, 0o755), 0)
        XCTAssertEqual(try runAndWait(plain, KeyCombo(typed: "a")!, paths: []),
                       .failure(KeyHandlerError(handlerPath: handlerPath, reason: .couldNotStart("No such file or directory"))))

        XCTAssertEqual(try runAndWait(KeyHandlerRunner(handlerPath: nil), KeyCombo(typed: "a")!, paths: []),
                       .failure(KeyHandlerError(handlerPath: "", reason: .noConfigFolder)))
    }

    func testHandlerLocation() {
        XCTAssertEqual(KeyHandlerRunner.handlerPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]), "/c/tessera/key-handler")
        XCTAssertEqual(KeyHandlerRunner.handlerPath(environment: ["XDG_CONFIG_HOME": "c", "HOME": "/h"]), "/h/.config/tessera/key-handler")
        XCTAssertNil(KeyHandlerRunner.handlerPath(environment: [:]))
    }

    // MARK: - Helpers

    private func waitForFile(_ path: String) throws {
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: path) || (try? String(contentsOfFile: path, encoding: .utf8))?.isEmpty != false {
            guard Date() < deadline else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Whether process `pid` has ended (it may take a moment to be reaped by whoever adopted it).
    private func gone(_ pid: Int32) -> Bool {
        for _ in 0..<200 {
            if kill(pid, 0) != 0 && errno == ESRCH { return true }
            if let state = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), state.contains(") Z ") { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }
}
