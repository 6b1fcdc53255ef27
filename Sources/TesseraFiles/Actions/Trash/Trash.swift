#if canImport(Glibc)
import Glibc
#endif
import CTesseraFiles
import Foundation
import Logging
import TesseraCore

/// Moves files to the freedesktop Trash (specification 1.0), where file managers show them and can put
/// them back, and puts a batch back (the viewer's undo).
///
/// - A file on the same file system as the home trash (`$XDG_DATA_HOME/Trash`, by default
///   `~/.local/share/Trash`) goes there; a file on another one goes to that mount's trash
///   (`TrashFolder.onMount`), found from the mount's top folder (`MountPoints`).
/// - The record `info/NAME.trashinfo` is created first, with O_EXCL, so two programs trashing at once
///   never take the same name; a name taken in `files/` or `info/` gets a number before its extension
///   (`photo.2.jpg`).
/// - Files only ever move by `rename`, which never replaces (RENAME_NOREPLACE): nothing is unlinked or
///   copied, so a file the trash cannot take stays where it is, with the reason.
///
/// Blocking file I/O: call it from a worker.
package struct Trash: Sendable {
    /// The home trash, or nil without a home folder (then only mounts' trashes are used).
    package let homeTrash: String?
    private let now: @Sendable () -> Date
    private let userID: uid_t
    private let logger: Logger

    /// `environment` gives `XDG_DATA_HOME` and `HOME`; `now` the deletion date written in each record.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                now: @escaping @Sendable () -> Date = { Date() },
                logger: Logger = Logger(label: "tessera.trash")) {
        homeTrash = Self.homeTrashPath(environment: environment)
        self.now = now
        userID = getuid()
        self.logger = logger
    }

    /// `$XDG_DATA_HOME/Trash`, or `$HOME/.local/share/Trash` when XDG_DATA_HOME is unset, empty or
    /// relative (which the XDG base directory specification says to ignore).
    package static func homeTrashPath(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/Trash" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home == "/" ? "" : home) + "/.local/share/Trash"
    }

    // MARK: - Trashing

    /// Moves each of `paths` to the trash: for each, in order, where it went or why it stayed.
    ///
    /// `stop` is asked before each file, and once it says so no further file is touched: a batch ends
    /// between two files, never with a record written and its file not moved. Then only the files tried
    /// have a result. `progress` hears how many files are done after each one.
    package func trash(_ paths: [String], stop: () -> Bool = { false },
                      progress: (Int) -> Void = { _ in }) -> [Result<TrashEntry, TrashError>] {
        let mounts = MountPoints.current()
        var folders: [String: TrashFolder] = [:]
        var results: [Result<TrashEntry, TrashError>] = []
        for path in paths {
            if stop() { break }
            results.append(Result { () throws(TrashError) -> TrashEntry in
                do throws(TrashError.Reason) {
                    return try trashOne(path, mounts: mounts, folders: &folders)
                } catch {
                    throw TrashError(path: path, reason: error)
                }
            })
            progress(results.count)
        }
        return results
    }

    private func trashOne(_ path: String, mounts: MountPoints, folders: inout [String: TrashFolder]) throws(TrashError.Reason) -> TrashEntry {
        let absolute = FreedesktopThumbnailPath.absolutePath(path)
        var st = stat()
        guard POSIXFiles.lstat(absolute, &st) == 0 else {
            throw errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(POSIXFiles.errorText(errno))
        }
        guard st.st_mode & S_IFMT != S_IFDIR else { throw .isFolder }
        try Self.checkIsRegularFile(absolute, lstat: st)
        let (parent, name) = FileReplacement.split(absolute)
        guard let realParent = FileReplacement.resolvedPath(parent) else {
            throw .unreadable("cannot resolve \(parent): \(POSIXFiles.errorText(errno))")
        }
        // Its folder's links resolved, the file's own name kept: a symbolic link is trashed, not its target.
        let original = realParent == "/" ? "/" + name : realParent + "/" + name
        let top = mounts.topFolder(of: realParent)
        let folder: TrashFolder
        if let known = folders[top] {
            folder = known
        } else {
            folder = try trashFolder(forTop: top, mounts: mounts)
            folders[top] = folder
        }

        // Trashing what is already in the trash would only give it a second record.
        if realParent == (FileReplacement.resolvedPath(folder.files) ?? folder.files) { throw .moveFailed("it is already in the trash") }

        let (trashedName, infoPath) = try writeRecord(for: original, in: folder)
        let trashed = folder.files + "/" + trashedName
        if let error = FileReplacement.renameWithoutReplacing(original, trashed) {
            POSIXFiles.unlink(infoPath)
            throw .moveFailed(Self.explainMove(error, from: realParent, to: folder.files))
        }
        return TrashEntry(path: path, originalPath: original, trashedPath: trashed, infoPath: infoPath)
    }

    /// Refuses anything but a regular file, or a symbolic link that leads to one: a device, a FIFO or a
    /// socket named like a photo is no photo, and moving `/dev/zero` would break the system for everyone.
    /// A link is trashed itself, so it is its target that must be a photo.
    private static func checkIsRegularFile(_ path: String, lstat st: stat) throws(TrashError.Reason) {
        switch st.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFLNK:
            var target = stat()
            guard POSIXFiles.stat(path, &target) == 0 else { throw .notARegularFile("a symbolic link that leads nowhere") }
            switch target.st_mode & S_IFMT {
            case S_IFREG: return
            case S_IFDIR: throw .notARegularFile("a symbolic link to a folder")
            default: throw .notARegularFile("a symbolic link to \(kind(of: target))")
            }
        default:
            throw .notARegularFile(kind(of: st))
        }
    }

    /// What a file that is not a regular file is, in words.
    static func kind(of st: stat) -> String {
        switch st.st_mode & S_IFMT {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        default: "a file of an unknown kind"
        }
    }

    /// The home trash when it is on the file system whose top folder is `top`, else that mount's trash.
    private func trashFolder(forTop top: String, mounts: MountPoints) throws(TrashError.Reason) -> TrashFolder {
        if let homeTrash, mounts.topFolder(of: Self.nearestExistingFolder(homeTrash)) == top {
            return try TrashFolder.home(homeTrash)
        }
        return try TrashFolder.onMount(top: top, userID: userID, logger: logger)
    }

    /// Reserves a name free in both `files/` and `info/` by creating its record with O_EXCL, and writes
    /// the record. Returns the name and the record's path.
    private func writeRecord(for original: String, in folder: TrashFolder) throws(TrashError.Reason) -> (String, String) {
        let name = Self.fittingName(FileReplacement.split(original).name)
        let contents = Array(TrashInfo.contents(path: folder.recordedPath(original), deletedAt: now()).utf8)
        for number in 1...Self.maximumNameNumber {
            let candidate = Self.numbered(name, number)
            let infoPath = folder.info + "/" + candidate + ".trashinfo"
            let descriptor = POSIXFiles.open(infoPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw .infoFailed("cannot create \(infoPath): \(POSIXFiles.errorText(errno))")
            }
            var st = stat()
            if POSIXFiles.lstat(folder.files + "/" + candidate, &st) == 0 {
                // A trashed file without its record (another program's leftover): not ours to replace.
                close(descriptor)
                POSIXFiles.unlink(infoPath)
                continue
            }
            let failure = contents.withUnsafeBytes { POSIXFiles.writeAll(descriptor, $0) } ?? (fsync(descriptor) == 0 ? nil : POSIXFiles.errorText(errno))
            close(descriptor)
            if let failure {
                POSIXFiles.unlink(infoPath)
                throw .infoFailed("cannot write \(infoPath): \(failure)")
            }
            return (candidate, infoPath)
        }
        throw .infoFailed("\(Self.maximumNameNumber) names like \(name) are already taken in \(folder.root)")
    }

    static let maximumNameNumber = 10_000

    /// The longest name a trashed file is given, in bytes: its record's name adds `.trashinfo` (10 bytes)
    /// and perhaps a number (`.10000`, 6 bytes), and a name holds at most 255 bytes (NAME_MAX).
    static let longestTrashedName = 255 - 10 - 6

    /// `name`, or when it is too long to have a record beside it, its start and its extension, cut
    /// between characters to `longestTrashedName` bytes. The record's `Path=` keeps the whole name; a
    /// name taken already gets a number, as any other.
    static func fittingName(_ name: String) -> String {
        let bytes = PathText.bytes(of: name)
        guard bytes.count > longestTrashedName else { return name }
        var extensionStart = bytes.count
        if let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot > 0, bytes.count - dot <= 16 { extensionStart = dot }
        var cut = longestTrashedName - (bytes.count - extensionStart)
        // Not inside a UTF-8 sequence: its continuation bytes are 10xxxxxx.
        while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
        return PathText.text(of: bytes[..<cut] + bytes[extensionStart...])
    }

    /// `name` for the first, then `photo.2.jpg`, `photo.3.jpg`: the number before the extension, so the
    /// trashed file keeps its type in a file manager. A leading dot is not an extension.
    static func numbered(_ name: String, _ number: Int) -> String {
        guard number > 1 else { return name }
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(name[..<dot]).\(number)\(name[dot...])"
        }
        return "\(name).\(number)"
    }

    // MARK: - Restoring

    /// Puts each trashed file back where it was and removes its record: for each, in order, the entry
    /// restored or why it stayed in the trash. A file whose original path is taken stays in the trash.
    /// `stop` and `progress` as for `trash`: the entries not tried stay in the trash with their records.
    package func restore(_ entries: [TrashEntry], stop: () -> Bool = { false },
                        progress: (Int) -> Void = { _ in }) -> [Result<TrashEntry, TrashError>] {
        var results: [Result<TrashEntry, TrashError>] = []
        for entry in entries {
            if stop() { break }
            results.append(Result { () throws(TrashError) -> TrashEntry in
                do throws(TrashError.Reason) {
                    try restoreOne(entry)
                    return entry
                } catch {
                    throw TrashError(path: entry.path, reason: error)
                }
            })
            progress(results.count)
        }
        return results
    }

    private func restoreOne(_ entry: TrashEntry) throws(TrashError.Reason) {
        var st = stat()
        guard POSIXFiles.lstat(entry.trashedPath, &st) == 0 else { throw .notInTrash }
        if POSIXFiles.lstat(entry.originalPath, &st) == 0 { throw .occupied }
        let folder = FileReplacement.split(entry.originalPath).folder
        if let error = FileReplacement.renameWithoutReplacing(entry.trashedPath, entry.originalPath) {
            switch error {
            case EEXIST, ENOTEMPTY: throw .occupied
            case ENOENT: throw .restoreFailed("its folder \(folder) no longer exists")
            default: throw .restoreFailed(Self.explainMove(error, from: FileReplacement.split(entry.trashedPath).folder, to: folder))
            }
        }
        POSIXFiles.unlink(entry.infoPath)
    }

    // MARK: - Moving

    /// A failed move's errno in words a user can act on.
    static func explainMove(_ error: Int32, from source: String, to destination: String) -> String {
        switch error {
        case EXDEV: "\(destination) is on another file system, and files are only ever renamed, never copied"
        case EROFS: "\(source) is on a read-only file system"
        case EACCES, EPERM: "\(source) or \(destination) is read-only to you (\(POSIXFiles.errorText(error)))"
        default: POSIXFiles.errorText(error)
        }
    }

    /// `path` if it exists, else its nearest existing ancestor, links resolved: where a folder not yet
    /// made would live.
    static func nearestExistingFolder(_ path: String) -> String {
        var current = path
        while true {
            if let resolved = FileReplacement.resolvedPath(current) { return resolved }
            if current == "/" { return "/" }
            current = MountPoints.parent(of: current)
        }
    }
}

/// Where a trashed file is, and where it came from: what `Trash.restore` needs to put it back.
package struct TrashEntry: Sendable, Hashable, CustomStringConvertible {
    /// The path as it was given to `Trash.trash`, for the caller to recognise its item.
    package let path: String
    /// Where the file was and is restored to: absolute, its folder's symbolic links resolved.
    package let originalPath: String
    /// `TRASH/files/NAME`.
    package let trashedPath: String
    /// `TRASH/info/NAME.trashinfo`.
    package let infoPath: String

    package var description: String { "\(originalPath) -> \(trashedPath)" }
}
