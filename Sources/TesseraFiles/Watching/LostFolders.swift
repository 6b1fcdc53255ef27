import Foundation

/// Given folders (or a given file's folder) that were deleted or moved away, looked for again every
/// `interval` until they exist again. Build scripts often delete an output folder and make it anew
/// (`rm -rf out && mkdir out`); a subfolder needs none of this, it comes back through its parent's events.
struct LostFolders {
    typealias Instant = ContinuousClock.Instant

    let interval: Duration
    private var folders: [String: WatchedFolder] = [:]
    /// nil while none is lost.
    private(set) var nextCheck: Instant?

    init(interval: Duration) { self.interval = interval }

    mutating func lose(_ folder: WatchedFolder, at now: Instant) {
        folders[folder.path] = folder
        if nextCheck == nil { nextCheck = now + interval }
    }

    func isDue(at now: Instant) -> Bool { nextCheck.map { now >= $0 } ?? false }

    /// The lost folders that are folders again (still listed as lost until `found`).
    var reappeared: [WatchedFolder] {
        folders.values.filter { folder in
            var status = stat()
            return POSIXFiles.stat(folder.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        }
    }

    /// `path` is watched again.
    mutating func found(_ path: String) { folders[path] = nil }

    /// After a look: the next one, if any is still lost.
    mutating func looked(at now: Instant) {
        nextCheck = folders.isEmpty ? nil : now + interval
    }
}
