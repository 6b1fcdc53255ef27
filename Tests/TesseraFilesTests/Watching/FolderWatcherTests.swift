#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles

/// What a user sees of a watched folder: files written, rewritten, renamed and deleted, folders made and
/// removed, polling where inotify cannot see, and settling. Longer than most test files because every test
/// drives the same harness (a temporary folder, a started watcher, a change recorder, at the bottom), which
/// splitting the file would have to share through a base class.
final class FolderWatcherTests: XCTestCase {
    /// Holds the watched folder and, beside it, a folder to rename files in from and out to.
    private var root: URL!
    private var folder: URL!
    private var outside: URL!
    private let settleDelay: Duration = .milliseconds(50)

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-watch-\(UUID().uuidString)")
        folder = root.appendingPathComponent("watched")
        outside = root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    // MARK: Files in a watched folder

    func testExistingImagesAreNotReportedAndANewOneWrittenInChunksIsOneChange() throws {
        try write("existing", to: "existing.jpg")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        XCTAssertTrue(FileManager.default.createFile(atPath: path("new.jpg"), contents: nil))
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path("new.jpg")))
        for chunk in ["first chunk ", "second chunk ", "last chunk"] { handle.write(Data(chunk.utf8)) }
        try handle.close()

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("new.jpg")])
    }

    func testChangesBetweenTheCallersListingAndTheWatchAreReportedAgainstItsBaseline() throws {
        // The viewer listed the folder (a, b, c) before the watcher started; then, before any watch was
        // in place, a changed, b went and d came. c did not change and is not reported.
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try write("first", to: name) }
        let baseline = Dictionary(uniqueKeysWithValues: ["a.jpg", "b.jpg", "c.jpg"].map {
            (path($0), FileVersion.ofFile(atPath: path($0))!)
        })
        try write("second, longer", to: "a.jpg")
        try FileManager.default.removeItem(atPath: path("b.jpg"))
        try write("new", to: "d.jpg")
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay, baseline: baseline) { recorder.record($0) }
        defer { watcher.stop() }

        XCTAssertEqual(waitForChanges(recorder, count: 3).sortedByPath, [present("a.jpg"), removed("b.jpg"), present("d.jpg")])
    }

    func testAListingIsTheBaselineByNameWithoutAStatOfEachImage() throws {
        // The strip listed a, b, c (names only); before the watches, b went and d came: those two are
        // reported, a and c are not. Later a change to c is.
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try write("first", to: name) }
        let listed = try ImagePathCollector().collect([folder.path]).table
        try FileManager.default.removeItem(atPath: path("b.jpg"))
        try write("new", to: "d.jpg")
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay, listed: listed) { recorder.record($0) }
        defer { watcher.stop() }
        XCTAssertEqual(waitForChanges(recorder, count: 2).sortedByPath, [removed("b.jpg"), present("d.jpg")])

        try write("second, longer", to: "c.jpg")
        XCTAssertEqual(waitForChanges(recorder, count: 3).sortedByPath, [removed("b.jpg"), present("c.jpg"), present("d.jpg")])
    }

    /// A file the strip listed by its content (no image's name) is not taken for gone at the start, and
    /// a change to it is reported as a change to any image is.
    func testAFileListedByItsContentIsFollowed() throws {
        try write("first", to: "a.jpg")
        try write("\u{89}PNG pretend", to: "IMG_0001")
        let listed = try ImagePathCollector(contentCheck: { $0.first == 0xC2 || $0.first == 0x89 })
            .collect([folder.path]).table
        XCTAssertEqual(listed.count, 2)
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay, listed: listed) { recorder.record($0) }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())
        try write("second, longer", to: "IMG_0001")
        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("IMG_0001")], "nothing else: IMG_0001 was not taken for gone")
    }

    // MARK: The watch limit

    func testFoldersPastTheWatchLimitArePolledAndThatIsSaidOnce() throws {
        // Every folder under "deep" fails as the kernel's watch limit makes it fail.
        for sub in ["deep/one", "deep/two", "shallow"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try write("old", to: "deep/one/a.jpg")
        let log = CapturedLog()
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], recursive: true, settleDelay: settleDelay,
                                        pollInterval: .milliseconds(100), polls: { _ in false }, logger: log.logger,
                                        addWatch: { descriptor, path, mask in
                                            guard path.contains("/deep") else { return inotify_add_watch(descriptor, path, mask) }
                                            errno = ENOSPC
                                            return -1
                                        }) { recorder.record($0) }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())

        try write("new", to: "deep/two/b.jpg")
        try write("changed, longer", to: "deep/one/a.jpg")
        try write("seen by inotify", to: "shallow/c.jpg")
        XCTAssertEqual(waitForChanges(recorder, count: 3).sortedByPath,
                       [present("deep/one/a.jpg"), present("deep/two/b.jpg"), present("shallow/c.jpg")])
        try FileManager.default.removeItem(atPath: path("deep/two/b.jpg"))
        XCTAssertEqual(waitForChanges(recorder, count: 4).last, removed("deep/two/b.jpg"), "a deletion polled too")
        XCTAssertEqual(log.warnings.count, 1, "\(log.warnings)")
        XCTAssertTrue(log.warnings.first?.contains("watch limit") == true, "\(log.warnings)")
    }

    // MARK: Network filesystems

    /// A write through a hard link in another folder is invisible to inotify on this folder, as another
    /// machine's write is on an NFS or SMB mount: only polling sees it.
    private func writeBehindInotifysBack(to name: String) throws {
        let link = outside.appendingPathComponent("link-\(name)").path
        XCTAssertEqual(Glibc.link(path(name), link), 0)
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: link))
        try handle.seekToEnd()
        handle.write(Data(" and more".utf8))
        try handle.close()
    }

    func testPolledFolderSeesChangesInotifyMisses() throws {
        try write("before", to: "a.jpg")
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay, pollInterval: .milliseconds(100),
                                        polls: { _ in true }) { recorder.record($0) }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())

        try writeBehindInotifysBack(to: "a.jpg")
        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("a.jpg")])
    }

    func testUnpolledFolderMissesWhatOnlyPollingSees() throws {
        // The control for the test above: without polling the same write goes unseen.
        try write("before", to: "a.jpg")
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay, pollInterval: .milliseconds(100),
                                        polls: { _ in false }) { recorder.record($0) }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())

        try writeBehindInotifysBack(to: "a.jpg")
        usleep(400_000)
        XCTAssertEqual(recorder.all, [])
    }

    func testLocalFoldersAreNotTakenForNetworkOnes() {
        XCTAssertFalse(NetworkFilesystem.holds(folder.path))
        XCTAssertFalse(NetworkFilesystem.holds("/no/such/folder"))
    }

    func testTheMountHoldingAPathDecidesWhetherItIsPolled() {
        let mounts = """
        /dev/sda1 / ext4 rw,relatime 0 0
        server:/export /mnt/photos nfs4 rw 0 0
        //nas/share /mnt/nas\\040box cifs rw 0 0
        sshfs#me@host: /home/me/remote fuse.sshfs rw 0 0
        tmpfs /mnt/photos/scratch tmpfs rw 0 0
        """
        XCTAssertEqual(NetworkFilesystem.type(of: "/mnt/photos/2024", mounts: mounts), "nfs4")
        XCTAssertEqual(NetworkFilesystem.type(of: "/mnt/photos/scratch/x", mounts: mounts), "tmpfs", "the longest mount point wins")
        XCTAssertEqual(NetworkFilesystem.type(of: "/mnt/nas box/a", mounts: mounts), "cifs")
        XCTAssertEqual(NetworkFilesystem.type(of: "/mnt/photosynthesis", mounts: mounts), "ext4", "a prefix of a name is not a parent")
        XCTAssertEqual(NetworkFilesystem.type(of: "/home/me/remote/pics", mounts: mounts), "fuse.sshfs")
        for type in ["nfs4", "cifs", "fuse.sshfs", "9p"] { XCTAssertTrue(NetworkFilesystem.isNetworkType(type), type) }
        for type in ["ext4", "tmpfs", "btrfs", "overlay"] { XCTAssertFalse(NetworkFilesystem.isNetworkType(type), type) }
    }

    func testRewrittenFileIsPresentWithItsNewVersion() throws {
        try write("before", to: "a.jpg")
        let before = FileVersion.ofFile(atPath: path("a.jpg"))
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try write("after, and longer", to: "a.jpg")

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("a.jpg")])
        XCTAssertNotEqual(FileVersion.ofFile(atPath: path("a.jpg")), before)
    }

    func testTouchedFileIsPresentWithItsNewModificationTime() throws {
        try write("same bytes", to: "a.png")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: path("a.png"))

        let touched = FileVersion(size: 10, modifiedNanoseconds: 1_000_000_000 * 1_000_000_000)
        XCTAssertEqual(waitForChanges(recorder, count: 1), [.present(path: path("a.png"), version: touched)])
    }

    func testDeletedFileIsRemoved() throws {
        try write("doomed", to: "a.webp")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.removeItem(atPath: path("a.webp"))

        XCTAssertEqual(waitForChanges(recorder, count: 1), [removed("a.webp")])
    }

    func testFileRenamedIntoTheFolderIsPresent() throws {
        try Data("from outside".utf8).write(to: outside.appendingPathComponent("a.jpg"))
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.moveItem(atPath: outside.appendingPathComponent("a.jpg").path, toPath: path("a.jpg"))

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("a.jpg")])
    }

    func testFileRenamedOutOfTheFolderIsRemoved() throws {
        try write("leaving", to: "a.jpg")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.moveItem(atPath: path("a.jpg"), toPath: outside.appendingPathComponent("a.jpg").path)

        XCTAssertEqual(waitForChanges(recorder, count: 1), [removed("a.jpg")])
    }

    func testEditorSaveThroughAHiddenTempFileIsOneChangeForTheRealName() throws {
        try write("old contents", to: "x.jpg")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try write("new contents, saved", to: ".x.jpg.tmp")
        XCTAssertEqual(rename(path(".x.jpg.tmp"), path("x.jpg")), 0)

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("x.jpg")])
    }

    func testFilesThatAreNotImagesOrAreHiddenAreNotReported() throws {
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try write("text", to: "notes.txt")
        try write("hidden", to: ".hidden.jpg")
        try FileManager.default.createDirectory(atPath: path("folder.jpg"), withIntermediateDirectories: false)
        // Written last, so once it is reported the others have had their chance.
        try write("anchor", to: "anchor.jpg")

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("anchor.jpg")])
    }

    func testDeletedWatchedFolderReportsItsImagesRemoved() throws {
        try write("a", to: "a.jpg")
        try write("b", to: "b.png")
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.removeItem(at: folder)

        XCTAssertEqual(waitForChanges(recorder, count: 2).sortedByPath, [removed("a.jpg"), removed("b.png")])
    }

    /// `rm -rf out && mkdir out`, as build scripts do: the folder made anew is watched again.
    func testWatchedFolderDeletedAndMadeAgainIsWatchedAgain() throws {
        try write("a", to: "a.jpg")
        let (watcher, recorder) = try startWatcher(recursive: true)
        defer { watcher.stop() }

        try FileManager.default.removeItem(at: folder)
        XCTAssertEqual(waitForChanges(recorder, count: 1), [removed("a.jpg")])

        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: true)
        try write("b", to: "sub/b.jpg")
        XCTAssertEqual(Array(waitForChanges(recorder, count: 2).dropFirst()), [present("sub/b.jpg")])
        // Its new watch sees what happens next, in it and in its subfolders.
        try write("c", to: "c.jpg")
        try write("b, changed", to: "sub/b.jpg")
        XCTAssertEqual(Array(waitForChanges(recorder, count: 4).dropFirst(2)).sortedByPath, [present("c.jpg"), present("sub/b.jpg")])
    }

    // MARK: Subfolders

    func testRecursiveWatchReportsImagesOfNewSubfolders() throws {
        let (watcher, recorder) = try startWatcher(recursive: true)
        defer { watcher.stop() }

        // Written at once, before the watcher can have watched the new folders: listing them finds these.
        try FileManager.default.createDirectory(atPath: path("sub/deeper"), withIntermediateDirectories: true)
        try write("a", to: "sub/a.jpg")
        try write("b", to: "sub/deeper/b.gif")

        XCTAssertEqual(waitForChanges(recorder, count: 2).sortedByPath, [present("sub/a.jpg"), present("sub/deeper/b.gif")])
    }

    func testRecursiveWatchReportsImagesOfARemovedSubfolderRemoved() throws {
        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: false)
        try write("a", to: "sub/a.jpg")
        let (watcher, recorder) = try startWatcher(recursive: true)
        defer { watcher.stop() }

        try FileManager.default.removeItem(atPath: path("sub"))

        XCTAssertEqual(waitForChanges(recorder, count: 1), [removed("sub/a.jpg")])
    }

    func testSubfolderRenamedWithinARecursiveWatchMovesItsImages() throws {
        try FileManager.default.createDirectory(atPath: path("before"), withIntermediateDirectories: false)
        try write("a", to: "before/a.jpg")
        let (watcher, recorder) = try startWatcher(recursive: true)
        defer { watcher.stop() }

        try FileManager.default.moveItem(atPath: path("before"), toPath: path("after"))
        XCTAssertEqual(waitForChanges(recorder, count: 2).sortedByPath, [present("after/a.jpg"), removed("before/a.jpg")])

        // The renamed folder is watched under its new name, not its old one.
        try write("changed", to: "after/a.jpg")
        XCTAssertEqual(Array(waitForChanges(recorder, count: 3).dropFirst(2)), [present("after/a.jpg")])
    }

    func testWatchWithoutRecursionIgnoresSubfolders() throws {
        let (watcher, recorder) = try startWatcher()
        defer { watcher.stop() }

        try FileManager.default.createDirectory(atPath: path("sub"), withIntermediateDirectories: false)
        try write("a", to: "sub/a.jpg")
        try write("anchor", to: "anchor.jpg")

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("anchor.jpg")])
    }

    // MARK: Single files

    func testSingleWatchedFileIsReportedWhateverItsNameButItsSiblingsAreNot() throws {
        try write("sibling", to: "sibling.jpg")
        try write("notes", to: "notes.txt")
        let (watcher, recorder) = try startWatcher(folders: [], files: [path("notes.txt")])
        defer { watcher.stop() }

        try write("sibling, changed", to: "sibling.jpg")
        try write("notes, changed", to: "notes.txt")

        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("notes.txt")])
    }

    func testSingleWatchedFileIsFollowedThroughItsFolderBeingMadeAgain() throws {
        try write("notes", to: "notes.txt")
        let (watcher, recorder) = try startWatcher(folders: [], files: [path("notes.txt")])
        defer { watcher.stop() }

        try FileManager.default.removeItem(at: folder)
        XCTAssertEqual(waitForChanges(recorder, count: 1), [removed("notes.txt")])

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        try write("notes, again", to: "notes.txt")
        try write("sibling", to: "sibling.jpg")
        XCTAssertEqual(Array(waitForChanges(recorder, count: 2).dropFirst()), [present("notes.txt")])
    }

    // MARK: Overflow

    func testOverflowedEventQueueIsRescannedAndEveryDifferenceReported() throws {
        let limitText = try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8)
        let queueLimit = try XCTUnwrap(limitText.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        try write("a", to: "a.jpg")
        try write("doomed", to: "doomed.jpg")
        let recorder = ChangeRecorder()
        let insideFirstCallback = DispatchSemaphore(value: 0)
        let floodWritten = DispatchSemaphore(value: 0)
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay) { changes in
            // Holding the watcher thread in its first callback lets the kernel's queue fill up.
            if recorder.all.isEmpty {
                insideFirstCallback.signal()
                _ = floodWritten.wait(timeout: .now() + 5)
            }
            recorder.record(changes)
        }
        defer { watcher.stop() }
        XCTAssertTrue(watcher.waitUntilWatching())
        try write("first", to: "first.jpg")
        XCTAssertEqual(insideFirstCallback.wait(timeout: .now() + 3), .success)

        // Two events a rename, enough to overflow the queue; an odd count leaves a.jpg named b.jpg.
        let renames = (queueLimit / 2 + 100) | 1
        for index in 0..<renames {
            let (from, to) = index.isMultiple(of: 2) ? ("a.jpg", "b.jpg") : ("b.jpg", "a.jpg")
            XCTAssertEqual(rename(path(from), path(to)), 0)
        }
        // After the overflow, so only a rescan can tell.
        try FileManager.default.removeItem(atPath: path("doomed.jpg"))
        try write("new", to: "new.jpg")
        floodWritten.signal()

        XCTAssertEqual(waitForChanges(recorder, count: 5).sortedByPath,
                       [removed("a.jpg"), present("b.jpg"), removed("doomed.jpg"), present("first.jpg"), present("new.jpg")])
    }

    // MARK: Stopping

    func testStopEndsTheWatcherAndNothingIsReportedAfterIt() throws {
        let (watcher, recorder) = try startWatcher()
        try write("settling when stopped", to: "a.jpg")

        watcher.stop()
        watcher.stop()
        let reportedByStop = recorder.all
        try write("after stop", to: "b.jpg")

        XCTAssertEqual(changesAfterSettling(recorder), reportedByStop)
    }

    func testStopFromInsideTheCallbackEndsTheWatcherWithoutWaitingForItself() throws {
        let recorder = ChangeRecorder()
        let watcherBox = WatcherBox()
        let watcher = try FolderWatcher(folders: [folder.path], settleDelay: settleDelay) { changes in
            recorder.record(changes)
            watcherBox.watcher.withLock { $0 }?.stop()
        }
        watcherBox.watcher.withLock { $0 = watcher }
        XCTAssertTrue(watcher.waitUntilWatching())

        try write("a", to: "a.jpg")
        XCTAssertEqual(waitForChanges(recorder, count: 1), [present("a.jpg")])
        try write("b", to: "b.jpg")

        XCTAssertEqual(changesAfterSettling(recorder), [present("a.jpg")])
        // Released here or on the watcher thread, whichever lets go last; neither waits for itself.
        watcherBox.watcher.withLock { $0 = nil }
    }

    // MARK: Settling

    func testSettlingPathsWaitForQuietAndEveryEventPushesTheDeadlineBack() {
        let start = ContinuousClock.now
        var settling = SettlingPaths(delay: .milliseconds(100))
        settling.note("a", at: start)
        settling.note("b", at: start + .milliseconds(30))
        settling.note("a", at: start + .milliseconds(60))

        XCTAssertEqual(settling.nextDeadline, start + .milliseconds(130))
        XCTAssertEqual(settling.takeSettled(at: start + .milliseconds(129)), [])
        XCTAssertEqual(settling.takeSettled(at: start + .milliseconds(160)), ["a", "b"])
        XCTAssertTrue(settling.isEmpty)
        XCTAssertNil(settling.nextDeadline)
    }

    // MARK: Helpers

    /// Collects what the watcher thread reports.
    private final class ChangeRecorder: Sendable {
        private let changes = Mutex<[ItemChange]>([])

        func record(_ new: [ItemChange]) { changes.withLock { $0 += new } }

        var all: [ItemChange] { changes.withLock { $0 } }
    }

    private func startWatcher(folders: [String]? = nil, files: [String] = [],
                              recursive: Bool = false) throws -> (FolderWatcher, ChangeRecorder) {
        let recorder = ChangeRecorder()
        let watcher = try FolderWatcher(folders: folders ?? [folder.path], files: files, recursive: recursive,
                                        settleDelay: settleDelay, reappearanceInterval: .milliseconds(50)) {
            recorder.record($0)
        }
        XCTAssertTrue(watcher.waitUntilWatching())
        return (watcher, recorder)
    }

    /// Lets the stop-from-the-callback test reach the watcher it is made from.
    private final class WatcherBox: Sendable {
        let watcher = Mutex<FolderWatcher?>(nil)
    }

    /// Waits (up to 3 s) for `count` changes, then settles; in the order they were reported.
    private func waitForChanges(_ recorder: ChangeRecorder, count: Int) -> [ItemChange] {
        let deadline = Date().addingTimeInterval(3)
        while recorder.all.count < count, Date() < deadline { usleep(5_000) }
        return changesAfterSettling(recorder)
    }

    /// Everything reported once three settle delays more have passed, so a stray extra change shows too.
    private func changesAfterSettling(_ recorder: ChangeRecorder) -> [ItemChange] {
        usleep(150_000)
        return recorder.all
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func write(_ text: String, to name: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    /// Present with the version the file has now.
    private func present(_ name: String) -> ItemChange {
        FileVersion.ofFile(atPath: path(name)).map { .present(path: path(name), version: $0) } ?? .removed(path: path(name))
    }

    private func removed(_ name: String) -> ItemChange { .removed(path: path(name)) }
}

private extension Array where Element == ItemChange {
    /// Changes that settle in separate batches may arrive in either order.
    var sortedByPath: [ItemChange] { sorted { $0.path < $1.path } }
}
