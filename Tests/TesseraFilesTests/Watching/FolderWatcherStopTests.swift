#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

/// Quitting while `-r` walks a slow tree: `stop` returns though the walk is stuck in a folder, the walk
/// goes no further once it comes back, and no change is reported after `stop` returned. The slow folder
/// is a watch the test holds (`addWatch`), as an unanswering network mount holds a real one.
final class FolderWatcherStopTests: XCTestCase {
    private var root: String!

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "tessera-watch-stop-\(UUID().uuidString)"
        for index in 0..<6 {
            let folder = root + "/part\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("photo".utf8).write(to: URL(fileURLWithPath: folder + "/photo.jpg"))
        }
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: root) }

    func testStopReturnsWhileTheWalkIsStuckAndNothingIsReportedAfterIt() throws {
        let stuck = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let watched = Mutex<[String]>([])
        let reportedAfterStop = Atomic<Bool>(false)
        let stopped = Atomic<Bool>(false)
        let watcher = try FolderWatcher(
            folders: [root], recursive: true, settleDelay: .milliseconds(10), pollInterval: nil,
            addWatch: { descriptor, path, mask in
                let count = watched.withLock { $0.append(path); return $0.count }
                // The first subfolder does not answer until the test lets it.
                if count == 2 {
                    stuck.signal()
                    release.wait()
                }
                return inotify_add_watch(descriptor, path, mask)
            }, stopWait: .milliseconds(300),
            onChanges: { _ in if stopped.load(ordering: .relaxed) { reportedAfterStop.store(true, ordering: .relaxed) } })
        XCTAssertEqual(stuck.wait(timeout: .now() + 30), .success, "the walk reaches the slow folder")

        let started = ContinuousClock.now
        watcher.stop()
        stopped.store(true, ordering: .relaxed)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20), "stop returns though the walk is stuck")
        XCTAssertFalse(watcher.hasFinished, "the thread is still in the slow folder")

        // The folder answers at last: the walk goes no further, the thread ends, nothing is reported.
        release.signal()
        try Data("changed".utf8).write(to: URL(fileURLWithPath: root + "/part0/new.jpg"))
        let deadline = Date().addingTimeInterval(30)
        while !watcher.hasFinished && Date() < deadline { usleep(10_000) }
        XCTAssertTrue(watcher.hasFinished)
        XCTAssertEqual(watched.withLock { $0.count }, 2, "no folder after the slow one is watched")
        XCTAssertFalse(reportedAfterStop.load(ordering: .relaxed))
    }

    func testAStopThatDoesNotWaitStillEndsAWatcherThatIsIdle() throws {
        let watcher = try FolderWatcher(folders: [root], recursive: true, pollInterval: nil, onChanges: { _ in })
        XCTAssertTrue(watcher.waitUntilWatching())
        watcher.stop()
        XCTAssertTrue(watcher.hasFinished, "an idle watcher ends within the wait")
    }
}
