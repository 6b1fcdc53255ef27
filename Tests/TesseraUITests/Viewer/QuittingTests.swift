import Foundation
import Synchronization
import XCTest
@testable import TesseraCore
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraUI

/// Quitting finishes what was started: the file actions and `Quitting` on their own, with the actions'
/// worker a queue the test runs by hand, on real files and a trash inside the test's folder.
final class QuittingTests: XCTestCase {
    private var files: ViewerFixtures!

    override func setUpWithError() throws { files = try ViewerFixtures() }
    override func tearDown() { files = nil }

    /// The actions' worker: jobs wait until the test runs them, on its own thread.
    private final class ManualQueue: Sendable {
        private let jobs = Mutex<[@Sendable () -> Void]>([])

        func perform(_ job: @escaping @Sendable () -> Void) { jobs.withLock { $0.append(job) } }

        func runAll() {
            while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
        }
    }

    /// State the main thread owns, handed to a job that the test runs on the main thread itself.
    private final class OnTheTestsThread<Value>: @unchecked Sendable {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private struct Setup {
        let actions: FileActions
        let keyHandler: KeyHandlerSession
        let quitting: Quitting
        let queue: ManualQueue
    }

    private func makeSetup(trash: Trash? = nil, keyHandler runner: KeyHandlerRunner? = nil, wake: @escaping @Sendable () -> Void = {}) -> Setup {
        let queue = ManualQueue()
        let actions = FileActions(trash: trash ?? makeTrash(), rotator: LosslessRotator(thumbnails: nil), wake: wake,
                                  perform: queue.perform)
        let keyHandler = KeyHandlerSession(runner: runner ?? KeyHandlerRunner(handlerPath: nil), wake: wake)
        return Setup(actions: actions, keyHandler: keyHandler, quitting: Quitting(fileActions: actions, keyHandler: keyHandler), queue: queue)
    }

    private func makeTrash(now: @escaping @Sendable () -> Date = { Date() }) -> Trash {
        Trash(environment: ["XDG_DATA_HOME": files.path("data"), "HOME": files.folder.path], now: now)
    }

    private var trashFiles: String { files.path("data/Trash/files") }
    private var trashInfo: String { files.path("data/Trash/info") }

    private func names(in folder: String) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
    }

    private func photos(_ count: Int) throws -> [String] {
        try FileManager.default.createDirectory(atPath: files.path("photos"), withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let path = files.path("photos/p\(index).jpg")
            try Data("photo \(index)".utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    /// Every record in the trash has its file, and every file its record.
    private func assertRecordsMatchFiles(file: StaticString = #filePath, line: UInt = #line) {
        let records = Set(names(in: trashInfo).map { String($0.dropLast(".trashinfo".count)) })
        XCTAssertEqual(records, names(in: trashFiles), "records and files match", file: file, line: line)
    }

    func testABatchDeleteThenQuitMovesEveryFileBeforeTheViewerEnds() throws {
        let paths = try photos(300)
        let setup = makeSetup()
        setup.actions.trash(paths)
        setup.quitting.request()
        XCTAssertFalse(setup.quitting.isDone, "the batch has not run yet")
        XCTAssertEqual(setup.quitting.statusText, "finishing: moving 1 of 300 to the trash…")
        setup.quitting.request()
        XCTAssertEqual(setup.quitting.statusText, "finishing: moving 1 of 300 to the trash… press q again to stop now")

        setup.queue.runAll()
        setup.quitting.update()
        XCTAssertFalse(setup.quitting.isDone, "not before the main thread has taken what the batch did")
        let outcomes = setup.actions.drain()
        setup.quitting.update()
        XCTAssertTrue(setup.quitting.isDone)
        XCTAssertEqual(outcomes.first?.message, "moved 300 images to the trash")
        XCTAssertEqual(names(in: trashFiles).count, 300, "every file moved")
        XCTAssertTrue(names(in: files.path("photos")).isEmpty)
        assertRecordsMatchFiles()
    }

    func testProgressSaysHowFarTheBatchIs() throws {
        let paths = try photos(5)
        let seen = OnTheTestsThread([String]())
        let holder = OnTheTestsThread<Setup?>(nil)
        // The trash dates each record as it writes it: there the window's line is read, mid-batch.
        let trash = makeTrash(now: {
            if let text = holder.value?.quitting.statusText { seen.value.append(text) }
            return Date()
        })
        let setup = makeSetup(trash: trash)
        holder.value = setup
        setup.actions.trash(paths)
        setup.quitting.request()
        setup.queue.runAll()
        XCTAssertEqual(seen.value, (1...5).map { "finishing: moving \($0) of 5 to the trash…" })
        _ = setup.actions.drain()
        setup.quitting.update()
        XCTAssertTrue(setup.quitting.isDone)
    }

    func testAskingThreeTimesStopsBetweenFilesAndLeavesEveryRecordWithItsFile() throws {
        let paths = try photos(50)
        let holder = OnTheTestsThread<Setup?>(nil)
        let records = OnTheTestsThread(0)
        // The third request comes while the fifth file is being moved.
        let trash = makeTrash(now: {
            records.value += 1
            if records.value == 5, let quitting = holder.value?.quitting {
                quitting.request()
                quitting.request()
                quitting.request()
            }
            return Date()
        })
        let setup = makeSetup(trash: trash)
        holder.value = setup
        setup.actions.trash(paths)
        setup.actions.turn([paths[49]], by: .rotateRight)
        setup.queue.runAll()
        XCTAssertEqual(setup.quitting.stage, .abandoning)
        let outcomes = setup.actions.drain()
        setup.quitting.update()
        XCTAssertTrue(setup.quitting.isDone)

        XCTAssertEqual(names(in: trashFiles).count, 5, "the file being moved was finished, and no other was started")
        assertRecordsMatchFiles()
        XCTAssertEqual(names(in: files.path("photos")).count, 45, "the rest stay where they were")
        XCTAssertEqual(outcomes.first?.message, "moved 5 images to the trash; stopped before the other 45")
        XCTAssertEqual(outcomes.last?.message, "stopped before the other 1", "the queued turn did not start")
        XCTAssertEqual(names(in: files.path("photos")).filter { $0.hasPrefix(".") }, [], "and left no temporary file")
    }

    func testATurnThenQuitIsSavedAndLeavesNoTemporaryFile() throws {
        let path = try files.halvesJPEG("turned.jpg", top: RGBA(r: 200, g: 20, b: 20), bottom: RGBA(r: 20, g: 20, b: 200))
        let setup = makeSetup()
        setup.actions.turn([path], by: .rotateRight)
        setup.quitting.request()
        XCTAssertFalse(setup.quitting.isDone)
        setup.queue.runAll()
        _ = setup.actions.drain()
        setup.quitting.update()
        XCTAssertTrue(setup.quitting.isDone)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertEqual(ExifReader.orientation(in: bytes, format: .jpeg), .rotated90, "the turn is in the file")
        XCTAssertEqual(names(in: files.folder.path).filter { $0.hasPrefix(".") }, [], "no temporary copy is left")
    }

    func testTheViewerWaitsForADeleteThenQForEveryFileAndSaysSo() throws {
        let paths = try (0..<40).map { try files.png("p\($0).png", RGBA(r: 90, g: 90, b: 90), width: 16, height: 12) }
        let viewer = try ViewerHarness(files.options(paths))
        try viewer.settle()
        viewer.press("M")
        viewer.press("Delete")
        viewer.press("q")
        // What the batch did is taken on the main thread, in a frame: until then the viewer waits.
        XCTAssertFalse(viewer.modes.wantsToQuit)
        XCTAssertEqual(viewer.overlay.activity?.hasPrefix("finishing: "), true, "the window says what it waits for")
        viewer.press("ctrl+z")
        try viewer.run(until: { viewer.modes.wantsToQuit })
        XCTAssertEqual(names(in: trashFiles).count, 40, "every file moved, and the undo pressed meanwhile did not start")
        assertRecordsMatchFiles()
    }

    func testQuittingWithNothingRunningEndsAtOnce() throws {
        let setup = makeSetup()
        setup.quitting.request()
        XCTAssertTrue(setup.quitting.isDone)
        XCTAssertNil(setup.quitting.statusText)
    }

    func testARunningKeyHandlerIsWaitedForAndAThirdRequestKillsItsProcessGroup() throws {
        let handler = files.path("handler")
        // It ignores SIGTERM, as does the sleep it starts: only SIGKILL ends them.
        try Data("#!/bin/sh\ntrap '' TERM\nsleep 60\n".utf8).write(to: URL(fileURLWithPath: handler))
        XCTAssertEqual(chmod(handler, 0o755), 0)
        let ended = expectation(description: "the handler ended")
        let setup = makeSetup(keyHandler: KeyHandlerRunner(handlerPath: handler, killGrace: .milliseconds(200)),
                          wake: { ended.fulfill() })
        XCTAssertTrue(setup.keyHandler.start(try KeyCombo(parsing: "x"), paths: [], nulSeparated: false))
        setup.quitting.request()
        XCTAssertEqual(setup.quitting.statusText, "finishing: waiting for the key-handler (x)…")
        setup.quitting.request()
        setup.quitting.update()
        XCTAssertFalse(setup.quitting.isDone, "asking twice does not stop it")
        setup.quitting.request()
        XCTAssertEqual(setup.quitting.statusText, "stopping: waiting for the key-handler (x)…")
        wait(for: [ended], timeout: 30)
        let outcome = try XCTUnwrap(setup.keyHandler.drain().first)
        setup.quitting.update()
        XCTAssertTrue(setup.quitting.isDone)
        let result = try outcome.result.get()
        XCTAssertTrue(result.wasCancelled)
        XCTAssertEqual("\(result.termination)", "killed by signal 9")
    }
}
