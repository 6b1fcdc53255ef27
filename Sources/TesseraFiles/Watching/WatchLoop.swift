#if canImport(Glibc)
import Glibc
#endif
import Logging
import TesseraCore

/// The watcher thread's loop: waits on inotify (and the stop signal) until the next deadline, turns each
/// event into paths that settle, and reports the settled ones that differ from what it knew. Everything
/// here is made and used on that thread only.
final class WatchLoop {
    private static let readBufferSize = 64 * 1024

    private let setup: WatchSetup
    private let shared: WatchShared
    private let clock = ContinuousClock()
    private let trees: WatchedTrees
    /// What was last reported (or found at start) of each watched image.
    private var known = KnownFiles()
    private var settling: SettlingPaths
    private var polling: PollSchedule
    private var lost: LostFolders
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readBufferSize,
                                                                      alignment: MemoryLayout<inotify_event>.alignment)

    init(setup: WatchSetup, shared: WatchShared) {
        self.setup = setup
        self.shared = shared
        settling = SettlingPaths(delay: setup.settleDelay)
        polling = PollSchedule(interval: setup.pollInterval)
        lost = LostFolders(interval: setup.reappearanceInterval)
        let polls = setup.polls
        let pollsAtAll = setup.pollInterval != nil
        trees = WatchedTrees(inotifyFD: shared.inotifyFD, pollsPastLimit: pollsAtAll, logger: setup.logger,
                             addWatch: setup.addWatch, isStopping: { [shared] in shared.isStopRequested }) {
            pollsAtAll && polls($0)
        }
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
        baseline = setup.baseline.take()
        defer { baseline = nil }
        switch baseline {
        case .versions(let versions)?:
            // Start from what the caller knows; everything listed, and everything it knew, settles
            // against it and differences come out as changes.
            known = KnownFiles(versions)
            let now = clock.now
            for path in versions.keys { settling.note(path, at: now) }
        case .listed(let table)?:
            known = KnownFiles(listed: table)
            seen = Array(repeating: false, count: table.count)
        case nil:
            break
        }
        for folder in setup.folders {
            let found = watch(FolderLister.withoutTrailingSlashes(folder), takesImages: true,
                              descends: setup.recursive, singleFiles: [:], isGiven: true)
            learnInitial(found)
            if shared.isStopRequested { return }
        }
        var filesByFolder: [String: [String: String]] = [:]
        for file in setup.files {
            let (folder, name) = WatchedTrees.split(file)
            filesByFolder[folder, default: [:]][name] = file
        }
        for (folder, files) in filesByFolder {
            let found = watch(folder, takesImages: false, descends: false, singleFiles: files, isGiven: true)
            learnInitial(found)
        }
        if let unseen = seen {
            // Listed by the caller, not found now: gone in between, unless a stat still finds it. A file the
            // caller took by its content (no image's name) is not in a folder's images: still there, it is
            // as it was.
            let now = clock.now
            for id in known.presentIDs where Int(id) < unseen.count && !unseen[Int(id)] {
                let path = known.path(of: id)
                let name = WatchedTrees.split(path).name
                if !FolderLister.isImageName(name), FileVersion.ofFile(atPath: path) != nil { continue }
                settling.note(path, at: now)
            }
            seen = nil
        }
    }

    /// What the caller knew, while the first listing is compared with it.
    private var baseline: WatchSetup.Baseline?
    /// The images of the caller's listing the first listing found (`Baseline.listed`), by id.
    private var seen: [Bool]?

    /// Paths found by the first listing. Without a baseline they are known as they are: there, their
    /// versions read only in folders that are polled (a poll finds a change by comparing versions; inotify
    /// sends an event). Against versions, everything settles and differences come out; against a listing,
    /// only what the listing did not have settles, as new.
    private func learnInitial(_ found: FoundImages) {
        let now = clock.now
        var polled: (folder: String, polls: Bool)?
        /// The version to know `path` by: read in a folder that is polled only.
        func initialVersion(_ path: String) -> FileVersion? {
            let folder = WatchedTrees.split(path).folder
            if polled?.folder != folder { polled = (folder, trees.isPolled(folder: folder)) }
            return polled!.polls ? FileVersion.ofFile(atPath: path) : nil
        }
        switch baseline {
        case .versions?:
            found.forEach { settling.note($0, at: now) }
        case .listed?:
            for path in found.singleFiles {
                if let id = known.id(of: path), known.isPresent(path) { seen?[Int(id)] = true } else { settling.note(path, at: now) }
            }
            for (folder, names) in found.folders {
                let polls = trees.isPolled(folder: folder)
                var versions: [(String, FileVersion)] = []
                known.sort(names, in: folder, stop: { shared.isStopRequested }, known: { id in
                    seen?[Int(id)] = true
                    if polls, let version = FileVersion.ofFile(atPath: known.path(of: id)) { versions.append((known.path(of: id), version)) }
                }, unknown: { settling.note($0, at: now) })
                for (path, version) in versions { known[path] = .present(version) }
                if shared.isStopRequested { return }
            }
        case nil:
            found.forEach { known[$0] = .present(initialVersion($0)) }
        }
    }

    /// `WatchedTrees.watch`, starting the poll schedule when a polled folder joins.
    private func watch(_ path: String, takesImages: Bool, descends: Bool, singleFiles: [String: String],
                       isGiven: Bool) -> FoundImages {
        let found = trees.watch(path, takesImages: takesImages, descends: descends, singleFiles: singleFiles,
                                isGiven: isGiven)
        if trees.takeAddedPolledFolder() { polling.start(at: clock.now) }
        return found
    }

    /// Drops the watches on `path` and below (deleted or moved away) and lets its images settle, which
    /// reports them removed.
    private func forget(_ path: String) {
        let now = clock.now
        for file in trees.forget(path) where known.isPresent(file) { settling.note(file, at: now) }
        let inside = path.hasSuffix("/") ? path : path + "/"
        for knownPath in known.presentPaths(inFolders: { $0.hasPrefix(inside) }) { settling.note(knownPath, at: now) }
    }

    /// After the kernel dropped events: every known path and everything listed now settles afresh.
    private func rescanEverything() {
        setup.logger.info("inotify queue overflowed; rescanning the watched folders")
        // Everything known, including images of folders that went while events were lost.
        let now = clock.now
        for path in known.presentPaths(inFolders: { _ in true }) { settling.note(path, at: now) }
        rescan { _ in true }
    }

    /// Lists the folders `matching` picks again; their known images and everything listed now settle
    /// afresh, so only real differences come out.
    private func rescan(_ matching: (WatchedFolder) -> Bool) {
        let now = clock.now
        let (found, imageFolders, singleFiles) = trees.rewatch(matching)
        if trees.takeAddedPolledFolder() { polling.start(at: now) }
        for path in singleFiles where known.isPresent(path) { settling.note(path, at: now) }
        for path in known.presentPaths(inFolders: { imageFolders.contains(FolderLister.withoutTrailingSlashes($0)) }) {
            settling.note(path, at: now)
        }
        found.forEach { settling.note($0, at: now) }
    }

    /// Lists the polled folders again (a network filesystem: other machines' changes send no events).
    private func pollIfDue() {
        guard polling.isDue(at: clock.now) else { return }
        rescan(\.isPolled)
        polling.polled(at: clock.now, stillNeeded: trees.hasPolledFolders)
    }

    /// Watches again the lost folders that exist again; what they hold settles and comes out present.
    private func lookForLostFoldersIfDue() {
        let now = clock.now
        guard lost.isDue(at: now) else { return }
        for folder in lost.reappeared {
            let found = watch(folder.path, takesImages: folder.takesImages, descends: folder.descends,
                              singleFiles: folder.singleFiles, isGiven: true)
            guard trees.isWatched(folder.path) else { continue }
            lost.found(folder.path)
            found.forEach { settling.note($0, at: now) }
        }
        lost.looked(at: now)
    }

    // MARK: Events

    /// Waits for inotify, the stop signal or the next deadline; reads one batch of events. False when the
    /// thread should end.
    private func waitForEvents() -> Bool {
        var pollFDs = [pollfd(fd: shared.inotifyFD, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: shared.wakeReadFD, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&pollFDs, nfds_t(pollFDs.count), pollTimeoutMilliseconds())
        if ready < 0 {
            if errno == EINTR { return true }
            setup.logger.error("watching folders stopped: poll failed: \(String(cString: strerror(errno)))")
            return false
        }
        if pollFDs[1].revents != 0 { return false }
        let inotifyEvents = pollFDs[0].revents
        if inotifyEvents & Int16(POLLIN) != 0 {
            readEvents()
        } else if inotifyEvents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
            // Would come back at once on every poll: end rather than spin.
            setup.logger.error("watching folders stopped: the inotify descriptor failed (poll revents \(inotifyEvents))")
            return false
        }
        return true
    }

    /// Until the nearest deadline (settling, polling, looking for lost folders), rounded up so a
    /// sub-millisecond rest does not spin; forever when none is set.
    private func pollTimeoutMilliseconds() -> Int32 {
        let deadlines = [settling.nextDeadline, polling.next, lost.nextCheck].compactMap { $0 }
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
            let name = PathText.text(of: nameBytes.prefix { $0 != 0 })
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
        guard let folder = trees.folder(watchedBy: descriptor) else { return }
        if mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED) != 0 {
            forget(folder.path)
            // A subfolder comes back through its parent's events; what the user named has no parent
            // watched, so it is looked for.
            if folder.isGiven { lost.lose(folder, at: clock.now) }
            return
        }
        guard !name.isEmpty else { return }
        let path = FolderLister.path(of: name, in: folder.path)
        let now = clock.now
        if mask & IN_ISDIR != 0 {
            guard folder.descends, !name.hasPrefix(".") else { return }
            if mask & (IN_CREATE | IN_MOVED_TO) != 0 {
                // Its images may have been written before the watch existed; listing it finds them.
                let found = watch(path, takesImages: true, descends: true, singleFiles: [:], isGiven: false)
                found.forEach { settling.note($0, at: now) }
            } else if mask & (IN_DELETE | IN_MOVED_FROM) != 0 {
                forget(path)
            }
            return
        }
        if let file = folder.singleFiles[name] { settling.note(file, at: now) }
        // A file the listing took by its content has no image's name; it is followed as the others are.
        if folder.takesImages, FolderLister.isImageName(name) || known.isPresent(path) { settling.note(path, at: now) }
    }

    /// Stats every path that has been quiet for the settle delay and reports those that differ from
    /// what was known.
    private func reportSettledChanges() {
        var changes: [ItemChange] = []
        for path in settling.takeSettled(at: clock.now) {
            let version = FileVersion.ofFile(atPath: path)
            let now: KnownFiles.State = version.map { .present($0) } ?? .absent
            // A version not read before counts as changed: the file settled because something happened.
            guard now != known[path] else { continue }
            known[path] = now
            changes.append(version.map { .present(path: path, version: $0) } ?? .removed(path: path))
        }
        guard !changes.isEmpty else { return }
        shared.deliver { setup.onChanges(changes) }
    }
}
