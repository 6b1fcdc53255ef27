#if canImport(Glibc)
import Glibc
#endif
import Logging

/// A folder with an inotify watch and what to report from it.
struct WatchedFolder {
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

/// The inotify watches, by watch descriptor, and the folders they stand for: adds them on a folder and
/// its subfolders, listing each through `FolderLister` for what it holds, and drops them when a folder
/// goes. Which paths then settle is the loop's business; this only says which paths it found.
///
/// Past the inotify watch limit (ENOSPC, common in a large tree), a folder that cannot be watched is
/// polled instead, as a network folder is, when polling is on: it is kept under a descriptor of its own
/// below zero, which no event carries, and each poll tries a real watch again. That is said once.
///
/// Used on the watcher thread only.
final class WatchedTrees {
    /// IN_MODIFY too, so that a slow copy settles only once it has finished, not at its first pause.
    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE
        | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let inotifyFD: Int32
    /// Whether a folder is listed again every poll interval.
    private let isPolled: (String) -> Bool
    /// Whether folders that cannot be watched for the watch limit are polled instead.
    private let pollsPastLimit: Bool
    private let addWatch: @Sendable (Int32, String, UInt32) -> Int32
    /// Whether the watcher is stopping: a walk of a large or slow tree ends at the next folder.
    private let isStopping: () -> Bool
    private let logger: Logger
    private var folders: [Int32: WatchedFolder] = [:]
    /// The descriptors (below zero) of folders polled because the watch limit was reached, by path.
    private var unwatched: [String: Int32] = [:]
    private var lastUnwatched: Int32 = -1
    /// The paths of the polled folders.
    private var polledPaths: Set<String> = []
    /// errno values already warned about, so a watch limit reached in a large tree warns once.
    private var warnedErrors: Set<Int32> = []
    /// Set when a polled folder is watched, until `takeAddedPolledFolder` reads it.
    private var addedPolledFolder = false

    /// - Parameters:
    ///   - pollsPastLimit: poll the folders the watch limit leaves unwatched.
    ///   - addWatch: adds an inotify watch (`inotify_add_watch`); a test makes it fail.
    ///   - isStopping: true once the watcher is asked to stop.
    init(inotifyFD: Int32, pollsPastLimit: Bool, logger: Logger,
         addWatch: @escaping @Sendable (Int32, String, UInt32) -> Int32, isStopping: @escaping () -> Bool = { false },
         isPolled: @escaping (String) -> Bool) {
        self.inotifyFD = inotifyFD
        self.isStopping = isStopping
        self.pollsPastLimit = pollsPastLimit
        self.logger = logger
        self.addWatch = addWatch
        self.isPolled = isPolled
    }

    /// Whether the images of `folder` are found by polling (its version read when first listed).
    func isPolled(folder: String) -> Bool { polledPaths.contains(folder) }

    func folder(watchedBy descriptor: Int32) -> WatchedFolder? { folders[descriptor] }

    func isWatched(_ path: String) -> Bool { folders.values.contains { $0.path == path } }

    var hasPolledFolders: Bool { folders.values.contains(where: \.isPolled) }

    /// Whether a polled folder was watched since the last call.
    func takeAddedPolledFolder() -> Bool {
        defer { addedPolledFolder = false }
        return addedPolledFolder
    }

    /// Adds a watch on `path`, and on its subfolders when it descends, and returns the reportable paths
    /// in them (not yet stat'ed: a listed name may be gone or not a file).
    func watch(_ path: String, takesImages: Bool, descends: Bool, singleFiles: [String: String],
               isGiven: Bool) -> FoundImages {
        if isStopping() { return FoundImages() }
        var descriptor = addWatch(inotifyFD, path, Self.folderMask)
        if descriptor >= 0 {
            unwatched[path] = nil
        } else {
            let error = errno
            guard error == ENOSPC, pollsPastLimit else {
                warnCannotWatch(path, error: error, isGiven: isGiven)
                return FoundImages()
            }
            if warnedErrors.insert(error).inserted {
                logger.warning("""
                    the inotify watch limit is reached at \(path): folders past it are listed every few seconds \
                    instead (raise fs.inotify.max_user_watches to watch them)
                    """)
            }
            descriptor = unwatched[path] ?? nextUnwatchedDescriptor()
            unwatched[path] = descriptor
        }
        var folder = WatchedFolder(path: path, takesImages: takesImages, descends: descends,
                                   singleFiles: singleFiles, isGiven: isGiven)
        if descriptor < 0 || isPolled(path) {
            folder.isPolled = true
            addedPolledFolder = true
            polledPaths.insert(path)
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
            guard widens else { return FoundImages(singleFiles: Array(singleFiles.values)) }
            folder = existing
        }
        folders[descriptor] = folder

        var found = FoundImages(singleFiles: Array(singleFiles.values))
        guard folder.takesImages || folder.descends else { return found }
        let listing = FolderLister.names(in: folder.path)
        if folder.takesImages { found.folders.append((folder.path, listing.images)) }
        if folder.descends {
            for name in listing.subfolders where !isStopping() {
                found += watch(FolderLister.path(of: name, in: folder.path), takesImages: true, descends: true,
                               singleFiles: [:], isGiven: false)
            }
        }
        return found
    }

    /// Drops the watches on `path` and below (the folder was deleted or moved away) and returns the single
    /// files they reported.
    func forget(_ path: String) -> [String] {
        var files: [String] = []
        for (descriptor, folder) in folders where folder.path == path || Self.isInside(folder.path, path) {
            // A moved folder keeps its watch wherever it went; harmless EINVAL when the kernel dropped it.
            if descriptor >= 0 { inotify_rm_watch(inotifyFD, descriptor) }
            folders[descriptor] = nil
            unwatched[folder.path] = nil
            polledPaths.remove(folder.path)
            files += folder.singleFiles.values
        }
        return files
    }

    /// Lists the folders `matching` picks again, watching new subfolders, and returns what they report:
    /// the paths listed now, the folders whose images they take and the single files they report.
    func rewatch(_ matching: (WatchedFolder) -> Bool) -> (found: FoundImages, imageFolders: Set<String>, singleFiles: Set<String>) {
        let chosen = folders.filter { matching($0.value) }
        let imageFolders = Set(chosen.values.filter(\.takesImages).map(\.path))
        let singleFiles = Set(chosen.values.flatMap(\.singleFiles.values))
        var found = FoundImages()
        for (descriptor, folder) in chosen {
            // Re-adding returns the same descriptor and lists the folder again.
            folders[descriptor] = nil
            found += watch(folder.path, takesImages: folder.takesImages, descends: folder.descends,
                           singleFiles: folder.singleFiles, isGiven: folder.isGiven)
            // Gone, or another folder under that name now: the old watch may still follow the moved one.
            if folders[descriptor] == nil {
                if descriptor >= 0 { inotify_rm_watch(inotifyFD, descriptor) }
                if !folders.values.contains(where: { $0.path == folder.path }) { polledPaths.remove(folder.path) }
            }
        }
        return (found, imageFolders, singleFiles)
    }

    private func warnCannotWatch(_ path: String, error: Int32, isGiven: Bool) {
        let reason = error == ENOSPC
            ? "the inotify watch limit is reached (raise fs.inotify.max_user_watches)"
            : String(cString: strerror(error))
        // A subfolder that vanished before its watch was added is routine, not worth a warning.
        let vanished = !isGiven && (error == ENOENT || error == ENOTDIR)
        if !vanished, warnedErrors.insert(error).inserted {
            logger.warning("cannot watch \(path) for changes: \(reason)")
        } else {
            logger.debug("cannot watch \(path) for changes: \(reason)")
        }
    }

    private func nextUnwatchedDescriptor() -> Int32 {
        lastUnwatched -= 1
        return lastUnwatched
    }

    // MARK: Paths

    static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// A file path's folder and name; "." for a bare name. (Not NSString.deletingLastPathComponent,
    /// which traps on "." in corelibs Foundation.)
    static func split(_ file: String) -> (folder: String, name: String) {
        let file = FolderLister.withoutTrailingSlashes(file)
        guard let slash = file.lastIndex(of: "/") else { return (".", file) }
        let folder = FolderLister.withoutTrailingSlashes(String(file[...slash]))
        return (folder, String(file[file.index(after: slash)...]))
    }
}
