#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Keeps Tessera's own disk caches within one byte limit, together: the pyramids cut from giant images
/// (`ROOT/tiles/MD5/`) and the downloads (`ROOT/remote/MD5` with its `MD5.json`), where ROOT is
/// `$XDG_CACHE_HOME/tessera`. The freedesktop thumbnail folders are shared with other programs and are
/// never looked at.
///
/// - Only Tessera's own entries are counted and removed, recognised by their exact names (32 lower-case hex
///   digits, and the sidecar and temporary names the writers use); anything else in these folders is left
///   alone and not counted.
/// - The least recently used entries go first. A pyramid's last use is its folder's modification time,
///   which a lease sets; a download's is its file's access time (set when served, or by a read), since its
///   modification time is part of the copy's version.
/// - A pyramid in use (being cut, or open in a view, in this process or another) holds a shared `flock`
///   on its folder through a `DiskCacheLease`; removal takes the exclusive lock without waiting, so an
///   entry in use is skipped, never removed under its user. A download in use is pinned in this process.
/// - Leftovers of a crashed run (a cut's hidden temporary folder, a download's temporary file) are removed
///   once nothing uses them: the cut's when its entry's lock is free and its process is gone or it is older
///   than `staleAge`, the download's when it is older than `staleAge` (a live download writes every few
///   seconds and gives up after a minute without data).
///
/// `sweep` touches the disk: it runs on the janitor's queue (`requestSweep`), never on the main thread.
package final class DiskCacheJanitor: Sendable {
    package let root: String
    package let limitBytes: Int64
    /// How old an unlocked temporary file or folder must be before it counts as a crashed run's leftover.
    package let staleAge: TimeInterval
    private let now: @Sendable () -> Date
    private let queue: DispatchQueue
    private let state = Mutex(State())

    private struct State {
        var pins: [String: Int] = [:]
        var sweepQueued = false
        /// The sizes of finished pyramids, which do not change, so that a sweep after each download does
        /// not walk every tile again; kept while the folder, its link count (a cut's temporary folder
        /// inside adds one) and its descriptor's time are the same.
        var pyramidSizes: [String: (stamp: PyramidStamp, bytes: Int64)] = [:]
    }

    private struct PyramidStamp: Equatable {
        var inode: UInt64
        var links: UInt64
        var descriptorTime: Int
        var descriptorNanoseconds: Int
    }

    package var tilesFolder: String { root + "/tiles" }
    package var remoteFolder: String { root + "/remote" }

    /// - Parameters:
    ///   - root: the folder holding `tiles` and `remote`.
    ///   - now: the clock that stamps a use and ages leftovers.
    ///   - queue: where `requestSweep` runs a sweep.
    package init(root: String, limitBytes: Int64, staleAge: TimeInterval = 3600,
                now: @escaping @Sendable () -> Date = { Date() },
                queue: DispatchQueue = DispatchQueue(label: "tessera.disk-cache", qos: .utility)) {
        self.root = root
        self.limitBytes = max(0, limitBytes)
        self.staleAge = staleAge
        self.now = now
        self.queue = queue
    }

    // MARK: - The limit

    /// The smallest default limit: room for a few cut pyramids (about 15 MB each) on a nearly full disk.
    package static let defaultFloorBytes: Int64 = 64 << 20
    /// The largest default limit: a cache this size already holds more than a session shows.
    package static let defaultCapBytes: Int64 = 2 << 30

    /// A tenth of the free space where `root` is (or would be), between the floor and the cap.
    package static func defaultLimitBytes(forCacheAt root: String) -> Int64 {
        defaultLimitBytes(freeBytes: freeBytes(at: root))
    }

    package static func defaultLimitBytes(freeBytes: Int64?) -> Int64 {
        guard let freeBytes else { return defaultFloorBytes }
        return min(defaultCapBytes, max(defaultFloorBytes, freeBytes / 10))
    }

    /// The bytes an unprivileged user may still write on the file system of `path`'s nearest existing
    /// folder; nil when none can be asked.
    package static func freeBytes(at path: String) -> Int64? {
        var candidate = path
        while true {
            var info = statvfs()
            if statvfs(candidate, &info) == 0 { return Int64(info.f_bavail) * Int64(info.f_frsize) }
            guard errno == ENOENT, let slash = candidate.lastIndex(of: "/"), candidate != "/" else { return nil }
            candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
        }
    }

    /// `$XDG_CACHE_HOME/tessera`, or `~/.cache/tessera` when the variable is unset or relative (the XDG
    /// spec says to ignore it then); nil without a home folder.
    package static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let base: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = xdg
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            base = (home.hasSuffix("/") ? home : home + "/") + ".cache"
        } else {
            return nil
        }
        return (base.hasSuffix("/") ? base : base + "/") + "tessera"
    }

    /// The janitor of the user's cache folder, `limitBytes` or else the default limit for its file system;
    /// nil without a home folder.
    package static func forUser(limitBytes: Int64?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) -> DiskCacheJanitor? {
        guard let root = defaultRoot(environment: environment) else { return nil }
        return DiskCacheJanitor(root: root, limitBytes: limitBytes ?? defaultLimitBytes(forCacheAt: root))
    }

    // MARK: - Uses

    /// Leases the pyramid folder `folder` (created if missing) for as long as the lease lives: no sweep
    /// removes it meanwhile, in this process or another. Stamps the use. Nil when the folder cannot be made
    /// or opened; the caller then works without the cache's protection.
    package func lease(pyramidFolder folder: String) -> DiskCacheLease? {
        // A sweep can remove the folder between our mkdir and our lock: then the path names a new folder
        // (or none) and we try again.
        for _ in 0..<4 {
            guard POSIXFiles.makeFolders(folder, mode: 0o755) == nil else { return nil }
            let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            // A sweep holds the exclusive lock only while it removes one entry.
            while flock(descriptor, LOCK_SH) != 0 && errno == EINTR {}
            if Self.sameFile(descriptor, folder) {
                stampUse(ofFolder: folder)
                return DiskCacheLease(descriptor: descriptor)
            }
            close(descriptor)
        }
        return nil
    }

    /// Stamps a pyramid folder as used now.
    package func stampUse(ofFolder folder: String) {
        setTimes(folder, access: nil, modification: now())
    }

    /// Stamps a download as used now: its access time, since its modification time is its version.
    package func stampUse(ofDownload path: String) {
        setTimes(path, access: now(), modification: nil)
    }

    /// Keeps the download at `path` from any sweep of this process until as many `unpin` calls.
    package func pin(_ path: String) {
        state.withLock { $0.pins[path, default: 0] += 1 }
    }

    package func unpin(_ path: String) {
        state.withLock { state in
            guard let count = state.pins[path] else { return }
            state.pins[path] = count > 1 ? count - 1 : nil
        }
    }

    // MARK: - Pyramids replaced

    /// The name of the file in a pyramid's folder that says which source (path and colour handling) it
    /// was cut from, so the next cut of that source after an edit replaces it.
    package static let sourceFileName = "source"

    /// Records that the pyramid in `folder` is complete and was cut from the source `sourceKey` names
    /// (see `TilePyramidCache.sourceKey`), removes the other pyramids of the same source (those not in use;
    /// one in use ages out), and asks for a sweep.
    package func pyramidFinished(inFolder folder: String, sourceKey: String) {
        try? Data(sourceKey.utf8).write(to: URL(fileURLWithPath: folder + "/" + Self.sourceFileName), options: .atomic)
        // Writing the pyramid and its source file set the folder's time by the system's clock; the use is
        // stamped by ours.
        stampUse(ofFolder: folder)
        let ownName = folder.split(separator: "/").last.map(String.init)
        for name in Self.names(in: tilesFolder) where Self.isEntryName(name) && name != ownName {
            let other = tilesFolder + "/" + name
            guard let data = FileManager.default.contents(atPath: other + "/" + Self.sourceFileName),
                  data == Data(sourceKey.utf8) else { continue }  // bytes: normalisation twins are two sources
            _ = removePyramid(other)
        }
        requestSweep()
    }

    // MARK: - Sweeping

    /// One of Tessera's cache entries, as a sweep sees it.
    package struct Entry: Equatable, Sendable {
        package enum Kind: Sendable { case pyramid, download }
        package let kind: Kind
        /// The pyramid's folder, or the download's file (its sidecar goes with it).
        package let path: String
        package let bytes: Int64
        package let lastUse: Date
    }

    package struct SweepResult: Equatable, Sendable {
        /// The entries' bytes before and after the sweep (leftovers of crashed runs not counted).
        package var bytesBefore: Int64 = 0
        package var bytesAfter: Int64 = 0
        /// What was removed: entries and leftovers.
        package var removed: [String] = []
    }

    /// Runs `sweep` on the janitor's queue soon; requests made before it starts make one sweep.
    package func requestSweep() {
        let queued = state.withLock { state -> Bool in
            defer { state.sweepQueued = true }
            return state.sweepQueued
        }
        if queued { return }
        queue.async { [self] in
            state.withLock { $0.sweepQueued = false }
            sweep()
        }
    }

    /// Waits until the sweeps asked for so far have run, at most `timeout`; true if they have. Quitting
    /// waits so, so that a sweep begun is seen through.
    package func waitForSweeps(timeout: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        queue.async { done.signal() }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }

    /// Removes crashed runs' leftovers, then the least recently used entries not in use until the rest
    /// fit the limit.
    @discardableResult
    package func sweep() -> SweepResult {
        var result = SweepResult()
        result.removed += removeLeftovers()
        let entries = entries()
        var total = entries.reduce(0) { $0 + $1.bytes }
        result.bytesBefore = total
        if total > limitBytes {
            let pinned = state.withLock { Set($0.pins.keys) }
            for entry in entries.sorted(by: { $0.lastUse < $1.lastUse }) {
                if total <= limitBytes { break }
                let removed: Bool
                switch entry.kind {
                case .pyramid: removed = removePyramid(entry.path)
                case .download: removed = !pinned.contains(entry.path) && removeDownload(entry.path)
                }
                if removed {
                    total -= entry.bytes
                    result.removed.append(entry.path)
                }
            }
        }
        result.bytesAfter = total
        return result
    }

    /// Every pyramid and download in the cache, with its size on disk and last use.
    package func entries() -> [Entry] {
        var entries: [Entry] = []
        var sizes: [String: (stamp: PyramidStamp, bytes: Int64)] = [:]
        let known = state.withLock { $0.pyramidSizes }
        for name in Self.names(in: tilesFolder) where Self.isEntryName(name) {
            let path = tilesFolder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
            var bytes: Int64
            var descriptor = stat()
            if lstat(path + "/pyramid.dzi", &descriptor) == 0 {
                let stamp = PyramidStamp(inode: UInt64(info.st_ino), links: UInt64(info.st_nlink),
                                         descriptorTime: descriptor.st_mtim.tv_sec,
                                         descriptorNanoseconds: descriptor.st_mtim.tv_nsec)
                if let memo = known[path], memo.stamp == stamp { bytes = memo.bytes } else { bytes = Self.bytesOnDisk(path) }
                sizes[path] = (stamp, bytes)
            } else {
                bytes = Self.bytesOnDisk(path)
            }
            entries.append(Entry(kind: .pyramid, path: path, bytes: bytes, lastUse: Self.date(info.st_mtim)))
        }
        state.withLock { $0.pyramidSizes = sizes }
        for name in Self.names(in: remoteFolder) where Self.isEntryName(name) {
            let path = remoteFolder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            var bytes = Int64(info.st_blocks) * 512
            var sidecar = stat()
            if lstat(path + ".json", &sidecar) == 0, sidecar.st_mode & S_IFMT == S_IFREG {
                bytes += Int64(sidecar.st_blocks) * 512
            }
            entries.append(Entry(kind: .download, path: path, bytes: bytes,
                                 lastUse: max(Self.date(info.st_atim), Self.date(info.st_mtim))))
        }
        return entries
    }

    // MARK: - Names

    /// An entry's name: an MD5 as the caches write it, 32 lower-case hex digits.
    static func isEntryName(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 32 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// `MD5.download-XXXXXX` or `MD5.json.tmp-XXXXXX`: a download's or a sidecar's temporary file, as
    /// `mkstemp` names them.
    static func isDownloadTemporaryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 32, isEntryName(String(decoding: bytes[..<32], as: UTF8.self)) else { return false }
        let rest = String(decoding: bytes[32...], as: UTF8.self)
        for marker in [".download-", ".json.tmp-"] where rest.hasPrefix(marker) {
            let suffix = rest.utf8.dropFirst(marker.utf8.count)
            return suffix.count == 6 && suffix.allSatisfy { isAlphanumeric($0) }
        }
        return false
    }

    /// `.pyramid.dzi.tmp-PID-N`: a cut's hidden temporary folder (see `AtomicOutput`). Returns its PID.
    static func cutTemporaryPID(_ name: String) -> pid_t? {
        let prefix = ".pyramid.dzi.tmp-"
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5a).contains(byte) || (0x61...0x7a).contains(byte)
    }

    // MARK: - Removal

    /// Crashed runs' temporary files and folders, and pyramid folders left with no pyramid nor cut in them.
    private func removeLeftovers() -> [String] {
        var removed: [String] = []
        let cutoff = now().addingTimeInterval(-staleAge)
        for name in Self.names(in: remoteFolder) where Self.isDownloadTemporaryName(name) {
            let path = remoteFolder + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Self.date(info.st_mtim) < cutoff else {
                continue
            }
            if unlink(path) == 0 { removed.append(path) }
        }
        for name in Self.names(in: tilesFolder) where Self.isEntryName(name) {
            let folder = tilesFolder + "/" + name
            let inside = Self.names(in: folder)
            // Only with the entry's lock free: a cut in progress holds it.
            withExclusiveLock(folder) {
                for item in inside {
                    guard let pid = Self.cutTemporaryPID(item) else { continue }
                    let path = folder + "/" + item
                    var info = stat()
                    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { continue }
                    let gone = pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
                    if gone || Self.date(info.st_mtim) < cutoff {
                        try? FileManager.default.removeItem(atPath: path)
                        removed.append(path)
                    }
                }
                // A folder with no finished pyramid and nothing cutting into it is a failed cut's trace.
                if !FileManager.default.fileExists(atPath: folder + "/pyramid.dzi"),
                   !Self.names(in: folder).contains(where: { Self.cutTemporaryPID($0) != nil }) {
                    try? FileManager.default.removeItem(atPath: folder)
                    removed.append(folder)
                }
            }
        }
        return removed
    }

    /// Removes a pyramid's folder unless something holds its lock. True when removed.
    private func removePyramid(_ folder: String) -> Bool {
        var removed = false
        withExclusiveLock(folder) {
            removed = (try? FileManager.default.removeItem(atPath: folder)) != nil
        }
        return removed
    }

    private func removeDownload(_ path: String) -> Bool {
        guard unlink(path) == 0 else { return false }
        unlink(path + ".json")
        return true
    }

    /// Runs `body` holding `folder`'s exclusive lock, if it can be had at once and still names the folder
    /// locked; otherwise does nothing.
    private func withExclusiveLock(_ folder: String, _ body: () -> Void) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0, Self.sameFile(descriptor, folder) else { return }
        body()
    }

    // MARK: - Helpers

    private static func sameFile(_ descriptor: Int32, _ path: String) -> Bool {
        var opened = stat()
        var named = stat()
        return fstat(descriptor, &opened) == 0 && lstat(path, &named) == 0
            && opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    private func setTimes(_ path: String, access: Date?, modification: Date?) {
        func spec(_ date: Date?) -> timespec {
            // UTIME_OMIT, a macro Swift does not import: leaves that time as it is.
            guard let date else { return timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2) }
            let seconds = date.timeIntervalSince1970.rounded(.down)
            return timespec(tv_sec: Int(seconds), tv_nsec: Int((date.timeIntervalSince1970 - seconds) * 1e9))
        }
        let times = [spec(access), spec(modification)]
        _ = utimensat(AT_FDCWD, path, times, 0)
    }

    private static func date(_ time: timespec) -> Date {
        Date(timeIntervalSince1970: Double(time.tv_sec) + Double(time.tv_nsec) / 1e9)
    }

    private static func names(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// The blocks a file or folder tree takes, as `du` counts them; symbolic links are not followed.
    static func bytesOnDisk(_ path: String) -> Int64 {
        var info = stat()
        guard lstat(path, &info) == 0 else { return 0 }
        var total = Int64(info.st_blocks) * 512
        guard info.st_mode & S_IFMT == S_IFDIR, let folder = opendir(path) else { return total }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            total += bytesOnDisk(path + "/" + name)
        }
        return total
    }
}

/// A use of a pyramid folder: a shared lock on it that keeps sweeps away until the lease is released
/// (or its process ends).
package final class DiskCacheLease: Sendable {
    private let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
