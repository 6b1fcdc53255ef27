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
/// Used on the watcher thread only.
final class WatchedTrees {
    private static let logger = Logger(label: "tessera.watch")
    /// IN_MODIFY too, so that a slow copy settles only once it has finished, not at its first pause.
    private static let folderMask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB | IN_CREATE | IN_DELETE
        | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    private let inotifyFD: Int32
    /// Whether a folder is listed again every poll interval.
    private let isPolled: (String) -> Bool
    private var folders: [Int32: WatchedFolder] = [:]
    /// errno values already warned about, so a watch limit reached in a large tree warns once.
    private var warnedErrors: Set<Int32> = []
    /// Set when a polled folder is watched, until `takeAddedPolledFolder` reads it.
    private var addedPolledFolder = false

    init(inotifyFD: Int32, isPolled: @escaping (String) -> Bool) {
        self.inotifyFD = inotifyFD
        self.isPolled = isPolled
    }

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
        let descriptor = inotify_add_watch(inotifyFD, path, Self.folderMask)
        guard descriptor >= 0 else {
            warnCannotWatch(path, error: errno, isGiven: isGiven)
            return FoundImages()
        }
        var folder = WatchedFolder(path: path, takesImages: takesImages, descends: descends,
                                   singleFiles: singleFiles, isGiven: isGiven)
        if isPolled(path) {
            folder.isPolled = true
            addedPolledFolder = true
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
            for name in listing.subfolders {
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
            inotify_rm_watch(inotifyFD, descriptor)
            folders[descriptor] = nil
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
            if folders[descriptor] == nil { inotify_rm_watch(inotifyFD, descriptor) }
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
            Self.logger.warning("cannot watch \(path) for changes: \(reason)")
        } else {
            Self.logger.debug("cannot watch \(path) for changes: \(reason)")
        }
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
