#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import Synchronization
import TesseraCore

/// A watched image's settled state after something happened to it.
public struct FolderChange: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case present(FileVersion)
        case removed
    }

    /// The folder as given + "/" + the name (as `ImagePathCollector` builds its paths, so they match its
    /// items); a single watched file's path exactly as given.
    public let path: String
    public let kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .present(let version): return "\(path) present \(version)"
        case .removed: return "\(path) removed"
        }
    }
}

public enum FolderWatchError: Error, Equatable, CustomStringConvertible {
    /// inotify (or the pipe that stops its thread) could not be opened; the reason names the limit to raise.
    case cannotStart(reason: String)

    public var description: String {
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
/// `onChanges` runs on the watcher thread. After `stop()` returns it is never called again; it must not
/// wait for the thread that calls `stop()`, and should not hold the watcher strongly (the thread keeps
/// the callback until stopped).
public final class FolderWatcher: Sendable {
    private let shared: WatchShared

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
    ///   - pollInterval: how often folders that `polls` picks are listed again. inotify only sees changes
    ///     made through this machine's kernel: on an NFS, SMB or FUSE mount, another machine's changes
    ///     arrive only by looking. nil never polls.
    ///   - polls: which watched folders to poll; by default those on a network or FUSE filesystem.
    ///   - reappearanceInterval: how often a given folder (or a given file's folder) that was deleted or
    ///     moved away is looked for again. Build scripts often delete an output folder and make it anew
    ///     (`rm -rf out && mkdir out`); once it is back, it is watched again and its images come out
    ///     present.
    public init(folders: [String],
                files: [String] = [],
                recursive: Bool = false,
                settleDelay: Duration = .milliseconds(100),
                baseline: [String: FileVersion]? = nil,
                pollInterval: Duration? = .seconds(3),
                polls: @escaping @Sendable (String) -> Bool = FolderWatcher.isOnNetworkFilesystem,
                reappearanceInterval: Duration = .seconds(1),
                onChanges: @escaping @Sendable ([FolderChange]) -> Void) throws {
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
                               baseline: baseline, pollInterval: pollInterval, polls: polls,
                               reappearanceInterval: reappearanceInterval, onChanges: onChanges)

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

    /// Ends the watcher thread and waits for it, so no callback runs once this returns. Idempotent.
    /// Called from inside `onChanges` it cannot wait for its own thread: the thread ends when the
    /// callback returns, without calling it again.
    public func stop() {
        shared.requestStop()
        let isWatcherThread = shared.watcherThread.withLock { thread in
            thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        if !isWatcherThread { _ = shared.finished.wait(timeout: nil) }
    }

    /// Waits until the watches are in place and the initial state is known, so that any change made
    /// afterwards is reported. False when `timeout` passed first. Mostly for tests: the viewer need not wait.
    @discardableResult
    public func waitUntilWatching(timeout: Duration = .seconds(5)) -> Bool {
        shared.watching.wait(timeout: timeout)
    }

    /// Whether `path` is on a filesystem whose changes inotify may not see: NFS, SMB/CIFS, 9P, Ceph,
    /// AFS, or FUSE (sshfs, rclone, gvfs). Read from /proc/self/mounts (statfs is not in Swift's Glibc).
    public static func isOnNetworkFilesystem(_ path: String) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8),
              let type = filesystemType(of: path, mounts: mounts) else { return false }
        return isNetworkFilesystemType(type)
    }

    static func isNetworkFilesystemType(_ type: String) -> Bool {
        ["nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "coda", "glusterfs", "sshfs"].contains(type)
            || type == "fuse" || type.hasPrefix("fuse.")
    }

    /// The type of the mount holding `path` (symlinks resolved): the longest mount point above it.
    static func filesystemType(of path: String, mounts: String) -> String? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (length: Int, type: String)?
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 3 else { continue }
            // /proc/mounts writes space, tab, newline and backslash in octal (\040 ...).
            let mountPoint = String(fields[1]).replacingOccurrences(of: "\\040", with: " ")
                .replacingOccurrences(of: "\\011", with: "\t").replacingOccurrences(of: "\\134", with: "\\")
            let isAbove = mountPoint == "/" || resolved == mountPoint || resolved.hasPrefix(mountPoint + "/")
            if isAbove, mountPoint.count >= (best?.length ?? -1) { best = (mountPoint.count, String(fields[2])) }
        }
        return best?.type
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
private struct WatchSetup: Sendable {
    let folders: [String]
    let files: [String]
    let recursive: Bool
    let settleDelay: Duration
    let baseline: [String: FileVersion]?
    let pollInterval: Duration?
    let polls: @Sendable (String) -> Bool
    let reappearanceInterval: Duration
    let onChanges: @Sendable ([FolderChange]) -> Void
}

/// What the caller's side and the watcher thread share. Owns the descriptors, closed when both sides are
/// done with them, so a `stop()` racing the thread's end never writes to a reused descriptor.
private final class WatchShared: Sendable {
    let inotifyFD: Int32
    let wakeReadFD: Int32
    let wakeWriteFD: Int32
    let stopRequested = Atomic<Bool>(false)
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

    deinit {
        close(inotifyFD)
        close(wakeReadFD)
        close(wakeWriteFD)
    }
}

/// Opens once; every wait, before or after, returns once it is open. A DispatchGroup because it lets
/// any number of threads wait, which a semaphore does not.
private final class Latch: Sendable {
    private let group = DispatchGroup()
    private let isOpen = Atomic<Bool>(false)

    init() { group.enter() }

    func open() {
        guard !isOpen.exchange(true, ordering: .acquiringAndReleasing) else { return }
        group.leave()
    }

    /// False when `timeout` passed before the latch opened.
    func wait(timeout: Duration?) -> Bool {
        guard let timeout else {
            group.wait()
            return true
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return group.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}

/// Paths waiting to settle: every event pushes its path's deadline back by `delay`.
struct SettlingPaths {
    typealias Instant = ContinuousClock.Instant

    let delay: Duration
    private var deadlines: [String: Instant] = [:]

    init(delay: Duration) { self.delay = delay }

    var isEmpty: Bool { deadlines.isEmpty }

    /// Linear in the paths in flight, which are few but for a burst, and then only once per read.
    var nextDeadline: Instant? { deadlines.values.min() }

    mutating func note(_ path: String, at now: Instant) { deadlines[path] = now + delay }

    /// The paths quiet since their deadline, sorted, no longer waiting.
    mutating func takeSettled(at now: Instant) -> [String] {
        let settled = deadlines.filter { $0.value <= now }.keys.sorted()
        for path in settled { deadlines[path] = nil }
        return settled
    }
}

/// Everything the watcher thread owns; made and used on that thread only.
private final class WatchLoop {
    /// A folder with an inotify watch and what to report from it.
    private struct WatchedFolder {
        /// As given without trailing slashes, or a watched folder's path + "/" + the subfolder's name.
        let path: String
        /// Every image in it: a folder given, or a subfolder of one with `recursive`.
        var takesImages: Bool
        /// Its subfolders are watched too, and new ones as they appear.
        var descends: Bool
        /// Name -> path as the user gave it, for files named one by one.
        var singleFiles: [String: String]
        /// Given by the user rather than found inside a given folder; its failures always warn.
        var isGiven: Bool
        /// Listed again every poll interval (a network filesystem).
        var isPolled = false
    }

    private static let logger = Logger(label: "tessera.watch")
    /// IN_MODIFY too, so that a slow copy settles only once it has finished, not at its first pause.
    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE
        | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let readBufferSize = 64 * 1024

    private let setup: WatchSetup
    private let shared: WatchShared
    private let clock = ContinuousClock()
    private var folders: [Int32: WatchedFolder] = [:]
    /// The last version reported (or found at start) of each watched image that exists.
    private var known: [String: FileVersion] = [:]
    private var settling: SettlingPaths
    /// errno values already warned about, so a watch limit reached in a large tree warns once.
    private var warnedErrors: Set<Int32> = []
    /// When the polled folders are listed next; nil while none is polled.
    private var nextPoll: ContinuousClock.Instant?
    /// Given folders that were deleted or moved away, by path: looked for again until they are back.
    private var lostFolders: [String: WatchedFolder] = [:]
    /// When the lost folders are looked for next; nil while none is lost.
    private var nextLostCheck: ContinuousClock.Instant?
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize,
                                                                      alignment: MemoryLayout<inotify_event>.alignment)

    init(setup: WatchSetup, shared: WatchShared) {
        self.setup = setup
        self.shared = shared
        self.settling = SettlingPaths(delay: setup.settleDelay)
    }

    deinit { readBuffer.deallocate() }

    func run() {
        watchInitialFolders()
        shared.watching.open()
        while !shared.isStopRequested, waitForEvents() {
            pollIfDue()
            lookForLostFoldersIfDue()
            reportSettledChanges()
        }
    }

    // MARK: Watching

    /// Watches first, lists after: a file that appears in between is then both listed and evented.
    private func watchInitialFolders() {
        if let baseline = setup.baseline {
            // Start from what the caller knows; everything listed, and everything it knew, settles
            // against it and differences come out as changes.
            known = baseline
            let now = clock.now
            for path in baseline.keys { settling.note(path, at: now) }
        }
        for folder in setup.folders {
            let found = watchTree(FolderLister.withoutTrailingSlashes(folder), takesImages: true,
                                  descends: setup.recursive, singleFiles: [:], isGiven: true)
            learnInitial(found)
            if shared.isStopRequested { return }
        }
        var filesByFolder: [String: [String: String]] = [:]
        for file in setup.files {
            let (folder, name) = Self.split(file)
            filesByFolder[folder, default: [:]][name] = file
        }
        for (folder, files) in filesByFolder {
            let found = watchTree(folder, takesImages: false, descends: false, singleFiles: files, isGiven: true)
            learnInitial(found)
        }
    }

    /// Paths found by the first listing: known as they are, or, against a baseline, to be compared.
    private func learnInitial(_ found: [String]) {
        if setup.baseline == nil {
            for path in found { known[path] = FileVersion.ofFile(atPath: path) }
        } else {
            let now = clock.now
            for path in found { settling.note(path, at: now) }
        }
    }

    /// Adds a watch on `path`, and on its subfolders when it descends, and returns the reportable paths
    /// in them (not yet stat'ed: a listed name may be gone or not a file).
    private func watchTree(_ path: String, takesImages: Bool, descends: Bool,
                           singleFiles: [String: String], isGiven: Bool) -> [String] {
        let descriptor = inotify_add_watch(shared.inotifyFD, path, Self.folderMask)
        guard descriptor >= 0 else {
            warnCannotWatch(path, error: errno, isGiven: isGiven)
            return []
        }
        var folder = WatchedFolder(path: path, takesImages: takesImages, descends: descends,
                                   singleFiles: singleFiles, isGiven: isGiven)
        if let interval = setup.pollInterval, setup.polls(path) {
            folder.isPolled = true
            if nextPoll == nil { nextPoll = clock.now + interval }
        }
        if var existing = folders[descriptor] {
            // The same folder again: given twice, given inside a recursive one, or reached through a
            // symlink loop. inotify hands back the same descriptor; widen what it reports.
            let widens = (takesImages && !existing.takesImages) || (descends && !existing.descends)
            existing.takesImages = existing.takesImages || takesImages
            existing.descends = existing.descends || descends
            existing.singleFiles.merge(singleFiles) { first, _ in first }
            existing.isGiven = existing.isGiven || isGiven
            folders[descriptor] = existing
            guard widens else { return Array(singleFiles.values) }
            folder = existing
        }
        folders[descriptor] = folder

        var found = Array(singleFiles.values)
        guard folder.takesImages || folder.descends else { return found }
        let listing = FolderLister.list(folder.path)
        if folder.takesImages { found += listing.images.map { FolderLister.path(of: $0, in: folder.path) } }
        if folder.descends {
            for name in listing.subfolders {
                found += watchTree(FolderLister.path(of: name, in: folder.path), takesImages: true, descends: true,
                                   singleFiles: [:], isGiven: false)
            }
        }
        return found
    }

    /// Drops the watches on `path` and below (the folder was deleted or moved away) and lets its images
    /// settle, which reports them removed.
    private func forgetTree(_ path: String) {
        let now = clock.now
        for (descriptor, folder) in folders where folder.path == path || Self.isInside(folder.path, path) {
            // A moved folder keeps its watch wherever it went; harmless EINVAL when the kernel dropped it.
            inotify_rm_watch(shared.inotifyFD, descriptor)
            folders[descriptor] = nil
            for file in folder.singleFiles.values where known[file] != nil { settling.note(file, at: now) }
        }
        for knownPath in known.keys where Self.isInside(knownPath, path) { settling.note(knownPath, at: now) }
    }

    /// After the kernel dropped events: every known path and everything listed now settles afresh.
    private func rescanEverything() {
        Self.logger.info("inotify queue overflowed; rescanning the watched folders")
        // Everything known, including images of folders that went while events were lost.
        let now = clock.now
        for path in known.keys { settling.note(path, at: now) }
        rescan { _ in true }
    }

    /// Lists the polled folders again (a network filesystem: other machines' changes send no events).
    private func pollIfDue() {
        guard let due = nextPoll, let interval = setup.pollInterval, clock.now >= due else { return }
        rescan(\.isPolled)
        nextPoll = folders.values.contains(where: \.isPolled) ? clock.now + interval : nil
    }

    /// Lists the folders `matching` picks again; their known images and everything listed now settle
    /// afresh, so only real differences come out.
    private func rescan(_ matching: (WatchedFolder) -> Bool) {
        let now = clock.now
        let chosen = folders.filter { matching($0.value) }
        let imageFolders = Set(chosen.values.filter(\.takesImages).map(\.path))
        let singleFiles = Set(chosen.values.flatMap(\.singleFiles.values))
        for path in known.keys where singleFiles.contains(path) || imageFolders.contains(Self.split(path).folder) {
            settling.note(path, at: now)
        }
        for (descriptor, folder) in chosen {
            // Re-adding returns the same descriptor, lists the folder again and picks up new subfolders.
            folders[descriptor] = nil
            let found = watchTree(folder.path, takesImages: folder.takesImages, descends: folder.descends,
                                  singleFiles: folder.singleFiles, isGiven: folder.isGiven)
            for path in found { settling.note(path, at: now) }
            // Gone, or another folder under that name now: the old watch may still follow the moved one.
            if folders[descriptor] == nil { inotify_rm_watch(shared.inotifyFD, descriptor) }
        }
    }

    /// Watches again the lost folders that exist again; what they hold settles and comes out present.
    private func lookForLostFoldersIfDue() {
        guard let due = nextLostCheck, clock.now >= due else { return }
        let now = clock.now
        for (path, folder) in lostFolders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let found = watchTree(path, takesImages: folder.takesImages, descends: folder.descends,
                                  singleFiles: folder.singleFiles, isGiven: true)
            guard folders.values.contains(where: { $0.path == path }) else { continue }
            lostFolders[path] = nil
            for image in found { settling.note(image, at: now) }
        }
        nextLostCheck = lostFolders.isEmpty ? nil : now + setup.reappearanceInterval
    }

    private func warnCannotWatch(_ path: String, error: Int32, isGiven: Bool) {
        let reason = error == ENOSPC
            ? "the inotify watch limit is reached (raise fs.inotify.max_user_watches)"
            : String(cString: strerror(error))
        // A subfolder that vanished before its watch was added is routine, not worth a warning.
        let vanished = !isGiven && (error == ENOENT || error == ENOTDIR)
        if !vanished, warnedErrors.insert(error).inserted {
            Self.logger.warning("cannot watch \(path) for changes: \(reason)")
        } else {
            Self.logger.debug("cannot watch \(path) for changes: \(reason)")
        }
    }

    // MARK: Events

    /// Waits for inotify, the stop signal or the next settle deadline; reads one batch of events.
    /// False when the thread should end.
    private func waitForEvents() -> Bool {
        var pollFDs = [pollfd(fd: shared.inotifyFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: shared.wakeReadFD, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&pollFDs, nfds_t(pollFDs.count), pollTimeoutMilliseconds())
        if ready < 0 {
            if errno == EINTR { return true }
            Self.logger.error("watching folders stopped: poll failed: \(String(cString: strerror(errno)))")
            return false
        }
        if pollFDs[1].revents != 0 { return false }
        let inotifyEvents = pollFDs[0].revents
        if inotifyEvents & Int16(POLLIN) != 0 {
            readEvents()
        } else if inotifyEvents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            // Would come back at once on every poll: end rather than spin.
            Self.logger.error("watching folders stopped: the inotify descriptor failed (poll revents \(inotifyEvents))")
            return false
        }
        return true
    }

    /// Until the nearest settle deadline, rounded up so a sub-millisecond rest does not spin; forever
    /// when nothing is settling.
    private func pollTimeoutMilliseconds() -> Int32 {
        let deadlines = [settling.nextDeadline, nextPoll, nextLostCheck].compactMap { $0 }
        guard let deadline = deadlines.min() else { return -1 }
        let rest = max(.zero, deadline - clock.now)
        let (seconds, attoseconds) = rest.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }

    /// One read, not until EAGAIN: a file written without pause must not keep other paths from settling.
    private func readEvents() {
        let count = read(shared.inotifyFD, readBuffer.baseAddress, readBuffer.count)
        guard count > 0 else { return }
        let headerSize = MemoryLayout<inotify_event>.size
        let maskOffset = MemoryLayout<inotify_event>.offset(of: \.mask)!
        let lengthOffset = MemoryLayout<inotify_event>.offset(of: \.len)!
        var offset = 0
        while offset + headerSize <= count {
            let descriptor = readBuffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = Int32(bitPattern: readBuffer.loadUnaligned(fromByteOffset: offset + maskOffset, as: UInt32.self))
            let nameLength = Int(readBuffer.loadUnaligned(fromByteOffset: offset + lengthOffset, as: UInt32.self))
            // The name is NUL-padded to `len` bytes.
            let nameBytes = UnsafeRawBufferPointer(rebasing: readBuffer[(offset + headerSize)..<min(count, offset + headerSize + nameLength)])
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            handle(descriptor: descriptor, mask: mask, name: name)
            offset += headerSize + nameLength
        }
    }

    private func handle(descriptor: Int32, mask: Int32, name: String) {
        if mask & IN_Q_OVERFLOW != 0 {
            rescanEverything()
            return
        }
        // Events for a watch already dropped (a folder moved away, then its own MOVE_SELF) are stale.
        guard let folder = folders[descriptor] else { return }
        if mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
            forgetTree(folder.path)
            // A subfolder comes back through its parent's events; what the user named has no parent
            // watched, so it is looked for.
            if folder.isGiven {
                lostFolders[folder.path] = folder
                if nextLostCheck == nil { nextLostCheck = clock.now + setup.reappearanceInterval }
            }
            return
        }
        guard !name.isEmpty else { return }
        let path = FolderLister.path(of: name, in: folder.path)
        let now = clock.now
        if mask & IN_ISDIR != 0 {
            guard folder.descends, !name.hasPrefix(".") else { return }
            if mask & (IN_CREATE | IN_MOVED_TO) != 0 {
                // Its images may have been written before the watch existed; listing it finds them.
                let found = watchTree(path, takesImages: true, descends: true, singleFiles: [:], isGiven: false)
                for image in found { settling.note(image, at: now) }
            } else if mask & (IN_DELETE | IN_MOVED_FROM) != 0 {
                forgetTree(path)
            }
            return
        }
        if let file = folder.singleFiles[name] { settling.note(file, at: now) }
        if folder.takesImages, FolderLister.isImageName(name) { settling.note(path, at: now) }
    }

    /// Stats every path that has been quiet for the settle delay and reports those that differ from
    /// what was known.
    private func reportSettledChanges() {
        var changes: [FolderChange] = []
        for path in settling.takeSettled(at: clock.now) {
            let version = FileVersion.ofFile(atPath: path)
            guard version != known[path] else { continue }
            known[path] = version
            changes.append(FolderChange(path: path, kind: version.map { .present($0) } ?? .removed))
        }
        guard !changes.isEmpty, !shared.isStopRequested else { return }
        setup.onChanges(changes)
    }

    // MARK: Paths

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// A file path's folder and name; "." for a bare name. (Not NSString.deletingLastPathComponent,
    /// which traps on "." in corelibs Foundation.)
    private static func split(_ file: String) -> (folder: String, name: String) {
        let file = FolderLister.withoutTrailingSlashes(file)
        guard let slash = file.lastIndex(of: "/") else { return (".", file) }
        let folder = FolderLister.withoutTrailingSlashes(String(file[...slash]))
        return (folder, String(file[file.index(after: slash)...]))
    }
}
