#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import Synchronization
import TesseraCore

package enum FolderWatchError: Error, Equatable, CustomStringConvertible {
    /// inotify (or the socket pair that stops its thread) could not be opened; the reason names the limit to raise.
    case cannotStart(reason: String)

    package var description: String {
        switch self {
        case .cannotStart(let reason): return "cannot watch folders for changes: \(reason)"
        }
    }
}

/// Watches folders (and single files) with inotify on a thread of its own and reports, per image, the
/// state it settles in: once no event has touched a path for `settleDelay`, the path is stat'ed and
/// compared with what the watcher last knew. Event kinds are not trusted: `cp`, `touch`, an editor's
/// write-to-temp-then-rename and a burst of writes all come out as one change per path, or none when the
/// file ended up as it was.
///
/// Changes come out as `ItemChange`s, the strip's own input, named as `ImagePathCollector` names its items
/// (`FolderLister.path(of:in:)`: the folder as given without trailing slashes, a slash, the name); a single
/// watched file by its path exactly as given.
///
/// The thread runs a `WatchLoop`: the inotify watches of `WatchedTrees`, `SettlingPaths` for the quiet
/// period, a `PollSchedule` for folders on network filesystems and `LostFolders` for given folders that
/// went away.
///
/// `onChanges` runs on the watcher thread. After `stop()` returns it is never called again; it must not
/// wait for the thread that calls `stop()`, and should not hold the watcher strongly (the thread keeps
/// the callback until it ends).
///
/// `stop()` waits for the thread at most `stopWait`: a first listing of a huge tree, or a folder on a
/// network mount that does not answer, can keep the thread in one system call for long, and quitting must
/// not hang on it. The thread then ends on its own, at the next folder it would walk; it holds what it
/// uses (descriptors, callback), only reads the folders, and calls nothing once stopped.
package final class FolderWatcher: Sendable {
    private let shared: WatchShared
    private let stopWait: Duration
    private let logger: Logger

    /// - Parameters:
    ///   - folders: watched wholly: their images, by extension, hidden files never.
    ///   - files: single files the user named: their folder is watched, only these names are reported,
    ///     whatever their extension.
    ///   - recursive: subfolders of `folders` too, including ones created later (their images come out
    ///     present) and removed later (their images come out removed).
    ///   - settleDelay: how long a path must stay quiet before it is reported.
    ///   - baseline: what the caller already knows (path to version, e.g. from listing the folders before
    ///     the watcher started). Given, every difference between it and the folders as first listed is
    ///     reported too, so a change in the gap between the caller's listing and the watches is not lost.
    ///     Without it, the first listing is taken as known and only later changes are reported.
    ///   - listed: the images the caller listed, their versions not read (`ItemTable`, as the strip holds
    ///     them): instead of `baseline`, the first listing is compared with it by name, so an image that
    ///     came or went in between is reported without a stat of every image up front.
    ///   - pollInterval: how often folders that `polls` picks are listed again. inotify only sees changes
    ///     made through this machine's kernel: on an NFS, SMB or FUSE mount, another machine's changes
    ///     arrive only by looking. nil never polls.
    ///   - polls: which watched folders to poll; by default those on a network or FUSE filesystem.
    ///   - reappearanceInterval: how often a given folder (or a given file's folder) that was deleted or
    ///     moved away is looked for again. Build scripts often delete an output folder and make it anew
    ///     (`rm -rf out && mkdir out`); once it is back, it is watched again and its images come out
    ///     present.
    ///   - logger: where the watcher says what it cannot watch.
    ///   - addWatch: adds an inotify watch (`inotify_add_watch`); a test makes it fail as the watch limit
    ///     does, to see folders past the limit polled instead (when `pollInterval` is set), or slow, as a
    ///     huge or unanswering tree is.
    ///   - stopWait: how long `stop()` waits for the thread before leaving it to end on its own.
    package init(folders: [String],
                files: [String] = [],
                recursive: Bool = false,
                settleDelay: Duration = .milliseconds(100),
                baseline: [String: FileVersion]? = nil,
                listed: ItemTable? = nil,
                pollInterval: Duration? = .seconds(3),
                polls: @escaping @Sendable (String) -> Bool = NetworkFilesystem.holds,
                reappearanceInterval: Duration = .seconds(1),
                logger: Logger = Logger(label: "tessera.watch"),
                addWatch: @escaping @Sendable (Int32, String, UInt32) -> Int32 = { descriptor, path, mask in PathText.withCString(path) { inotify_add_watch(descriptor, $0, mask) } },
                stopWait: Duration = .seconds(2),
                onChanges: @escaping @Sendable ([ItemChange]) -> Void) throws {
        self.stopWait = stopWait
        self.logger = logger
        let inotifyFD = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard inotifyFD >= 0 else { throw FolderWatchError.cannotStart(reason: Self.startFailureReason(errno)) }
        // A socket pair rather than pipe2 or eventfd: Swift's Glibc module imports neither of those.
        var wakeFDs: [Int32] = [-1, -1]
        let socketType = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, socketType, 0, &wakeFDs) == 0 else {
            let code = errno
            close(inotifyFD)
            throw FolderWatchError.cannotStart(reason: Self.startFailureReason(code))
        }
        let shared = WatchShared(inotifyFD: inotifyFD, wakeReadFD: wakeFDs[0], wakeWriteFD: wakeFDs[1])
        self.shared = shared
        let setup = WatchSetup(folders: folders, files: files, recursive: recursive, settleDelay: settleDelay,
                               baseline: BaselineHandOver(listed.map { .listed($0) } ?? baseline.map { .versions($0) }), pollInterval: pollInterval, polls: polls,
                               reappearanceInterval: reappearanceInterval, logger: logger, addWatch: addWatch,
                               onChanges: onChanges)

        let launched = DispatchSemaphore(value: 0)
        let thread = Thread {
            // Named from inside, once start() has returned: corelibs Foundation drops a name set earlier.
            launched.wait()
            Thread.current.name = "tessera.watch"
            shared.watcherThread.withLock { $0 = pthread_self() }
            defer {
                shared.watching.open()
                shared.finished.open()
            }
            WatchLoop(setup: setup, shared: shared).run()
        }
        thread.start()
        launched.signal()
    }

    deinit { stop() }

    /// Ends the watcher thread and waits for it, at most `stopWait`; no callback runs once this returns.
    /// Idempotent. Called from inside `onChanges` it cannot wait for its own thread: the thread ends when
    /// the callback returns, without calling it again.
    package func stop() {
        shared.requestStop()
        let isWatcherThread = shared.watcherThread.withLock { thread in
            thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        guard !isWatcherThread else { return }
        if !shared.finished.wait(timeout: stopWait) {
            logger.notice("the folder watcher did not stop within \(stopWait); it ends on its own")
        }
        // A callback under way is waited for (the caller's hand-over is short); none starts after.
        shared.closeDeliveries()
    }

    /// Whether the watcher thread has ended: a stop that timed out leaves it to end on its own.
    var hasFinished: Bool { shared.finished.wait(timeout: .zero) }

    /// Waits until the watches are in place and the initial state is known, so that any change made
    /// afterwards is reported. False when `timeout` passed first. Mostly for tests: the viewer need not wait.
    @discardableResult
    package func waitUntilWatching(timeout: Duration = .seconds(5)) -> Bool {
        shared.watching.wait(timeout: timeout)
    }

    private static func startFailureReason(_ code: Int32) -> String {
        switch code {
        case EMFILE: return "too many inotify instances or open files (raise fs.inotify.max_user_instances or ulimit -n)"
        case ENFILE: return "the system's open file table is full"
        case ENOSYS: return "this kernel has no inotify"
        default: return String(cString: strerror(code))
        }
    }
}

/// What the watcher thread is started with.
struct WatchSetup: Sendable {
    /// What the caller knows of the images before the watcher lists them.
    enum Baseline: Sendable {
        case versions([String: FileVersion])
        case listed(ItemTable)
    }

    let folders: [String]
    let files: [String]
    let recursive: Bool
    let settleDelay: Duration
    let baseline: BaselineHandOver
    let pollInterval: Duration?
    let polls: @Sendable (String) -> Bool
    let reappearanceInterval: Duration
    let logger: Logger
    let addWatch: @Sendable (Int32, String, UInt32) -> Int32
    let onChanges: @Sendable ([ItemChange]) -> Void
}

/// The baseline, handed to the watcher thread once: taken, it is held only as long as the first listing
/// needs it (a listing of a million images is not kept for the whole run).
final class BaselineHandOver: Sendable {
    private let value: Mutex<WatchSetup.Baseline?>

    init(_ baseline: WatchSetup.Baseline?) { value = Mutex(baseline) }

    func take() -> WatchSetup.Baseline? { value.withLock { value in defer { value = nil }; return value } }
}

/// What the caller's side and the watcher thread share. Owns the descriptors, closed when both sides are
/// done with them, so a `stop()` racing the thread's end never writes to a reused descriptor.
final class WatchShared: Sendable {
    let inotifyFD: Int32
    let wakeReadFD: Int32
    let wakeWriteFD: Int32
    let stopRequested = Atomic<Bool>(false)
    /// True once `stop()` has returned or is returning: no callback may start. Held while a callback runs.
    private let deliveriesClosed = Mutex(false)
    let watcherThread = Mutex<pthread_t?>(nil)
    /// Opens when the initial watches and scan are done (or the thread ended first).
    let watching = Latch()
    /// Opens when the thread's loop has returned.
    let finished = Latch()

    init(inotifyFD: Int32, wakeReadFD: Int32, wakeWriteFD: Int32) {
        self.inotifyFD = inotifyFD
        self.wakeReadFD = wakeReadFD
        self.wakeWriteFD = wakeWriteFD
    }

    var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    func requestStop() {
        guard !stopRequested.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWriteFD, &byte, 1)
    }

    /// Runs `callback` unless the watcher's deliveries are closed, holding them open meanwhile.
    func deliver(_ callback: () -> Void) {
        deliveriesClosed.withLock { closed in
            if !closed && !isStopRequested { callback() }
        }
    }

    func closeDeliveries() {
        deliveriesClosed.withLock { $0 = true }
    }

    deinit {
        close(inotifyFD)
        close(wakeReadFD)
        close(wakeWriteFD)
    }
}
