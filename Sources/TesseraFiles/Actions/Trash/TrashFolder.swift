#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging

/// One trash directory of the freedesktop Trash specification: `files/` holds the trashed files,
/// `info/` a `NAME.trashinfo` for each.
struct TrashFolder: Sendable, Equatable {
    let root: String
    /// Nil for the home trash, whose records hold absolute paths; the mount's top folder otherwise, which
    /// the records' paths are relative to.
    let topFolder: String?

    var files: String { root + "/files" }
    var info: String { root + "/info" }

    /// The text `Path=` holds for a file at `original` (absolute, its folder's links resolved).
    func recordedPath(_ original: String) -> String {
        guard let topFolder else { return original }
        return topFolder == "/" ? String(original.dropFirst()) : String(original.dropFirst(topFolder.count + 1))
    }

    // MARK: - Finding and making

    /// The home trash at `root`, its folders made (mode 0700) if missing.
    static func home(_ root: String) throws(TrashError.Reason) -> TrashFolder {
        if let why = POSIXFiles.makeFolders(root + "/files") ?? POSIXFiles.makeFolders(root + "/info") {
            throw .noTrash(why)
        }
        return TrashFolder(root: root, topFolder: nil)
    }

    /// The trash of the file system whose top folder is `top`, as the specification orders it:
    /// `$top/.Trash/$uid` when `$top/.Trash` is a real folder with the sticky bit (an administrator made
    /// it for everyone), else `$top/.Trash-$uid`, made with mode 0700 if missing.
    static func onMount(top: String, userID: uid_t, logger: Logger) throws(TrashError.Reason) -> TrashFolder {
        let base = top == "/" ? "" : top
        let shared = base + "/.Trash"
        var st = stat()
        if POSIXFiles.lstat(shared, &st) == 0 {
            let isFolder = st.st_mode & S_IFMT == S_IFDIR
            if isFolder && st.st_mode & S_ISVTX != 0 {
                let mine = TrashFolder(root: "\(shared)/\(userID)", topFolder: top)
                do {
                    try mine.prepare(userID: userID)
                    return mine
                } catch {
                    logger.warning("\(shared)/\(userID) cannot be used (\(error.text)); using \(base)/.Trash-\(userID)")
                }
            } else {
                // The specification asks that a failed check be reported and the folder left alone.
                let why = isFolder ? "has no sticky bit" : (st.st_mode & S_IFMT == S_IFLNK ? "is a symbolic link" : "is not a folder")
                logger.warning("\(shared) \(why), so it is not used as a trash (freedesktop Trash specification)")
            }
        }
        let own = TrashFolder(root: "\(base)/.Trash-\(userID)", topFolder: top)
        try own.prepare(userID: userID)
        return own
    }

    /// Makes the trash and its two folders (mode 0700) where missing, and checks each is a real folder
    /// owned by the user: a symbolic link or another user's folder could send files elsewhere.
    private func prepare(userID: uid_t) throws(TrashError.Reason) {
        for folder in [root, files, info] {
            if POSIXFiles.mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw .noTrash("cannot create \(folder): \(POSIXFiles.errorText(errno))")
            }
            var st = stat()
            guard POSIXFiles.lstat(folder, &st) == 0 else { throw .noTrash("cannot look at \(folder): \(POSIXFiles.errorText(errno))") }
            guard st.st_mode & S_IFMT == S_IFDIR else { throw .noTrash("\(folder) is not a folder") }
            guard st.st_uid == userID else { throw .noTrash("\(folder) belongs to another user") }
        }
    }
}
