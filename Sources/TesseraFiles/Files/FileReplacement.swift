#if canImport(Glibc)
import Glibc
#endif
import CTesseraFiles
import TesseraCore

/// Changes a file's content so that a crash, a full disk or a reader never meets it half changed, in one
/// of two ways:
///
/// - `patch` writes a few bytes in place, on the same inode, within one disk sector (which reaches the
///   disk whole or not at all): hard links, extended attributes and ACLs stay as they are.
/// - `replace` writes all of the new content to a temporary file in the same folder (so the rename cannot
///   cross file systems), which takes the old file's permissions, owner (where permitted) and extended
///   attributes (ACLs included), is flushed to disk, and is renamed over the old one. Readers see either
///   the old content or the new. Other hard links to the old file keep the old content, which is why
///   `patch` is preferred where it can do. The temporary file's name says it is one, so that a crashed
///   run's is removed by a later one (`ReplacementLeftovers`).
/// - `create` writes a file that does not exist yet the same way, through a flushed temporary file,
///   renamed into place only if nothing has taken the name meanwhile.
package enum FileReplacement {
    /// Whether `count` bytes at `offset` lie within one 512-byte sector, the unit a disk writes whole.
    package static func canPatch(at offset: Int, count: Int) -> Bool {
        count > 0 && offset >= 0 && offset % 512 + count <= 512
    }

    /// Writes `new` over `old` at `offset` of the regular file at `path` (symbolic links followed), in
    /// place, provided it is still at `expected` and `old` is still there; flushed to disk before it
    /// returns. Throws why it did not write.
    package static func patch(_ path: String, at offset: Int, replacing old: [UInt8], with new: [UInt8],
                             expected: FileVersion) throws(Failure) {
        precondition(old.count == new.count && canPatch(at: offset, count: new.count), "a patch within one sector")
        let descriptor = POSIXFiles.open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure("cannot open the file for writing") }
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { throw Failure("cannot read its attributes") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw Failure("not a regular file", code: 0) }
        var there = [UInt8](repeating: 0, count: old.count)
        let read = there.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        // A program that saved the file since it was read wins: its content is not overwritten.
        guard FileVersion(st) == expected, read == old.count, there == old else { throw .changedMeanwhile }
        let written = new.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        guard written == new.count else { throw Failure(written < 0 ? "cannot write" : "cannot write: short write") }
        guard fsync(descriptor) == 0 else { throw Failure("cannot flush to disk") }
    }

    /// Replaces the regular file at `path` (symbolic links are followed: the link stays, its target is
    /// replaced) with `bytes`, provided it is still at `expected` (its size and mtime when it was read).
    /// Throws why it did not; returns once the new content is in place. `syncingFolder: false` leaves the
    /// flush of the folder's entries to the caller (`syncFolder`), for a batch that flushes each folder once.
    package static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, expected: FileVersion,
                                syncingFolder: Bool = true) throws(Failure) {
        guard let target = resolvedPath(path) else { throw Failure("cannot resolve the path") }
        let original = POSIXFiles.open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard original >= 0 else { throw Failure("cannot open the file") }
        defer { close(original) }
        var st = stat()
        guard fstat(original, &st) == 0 else { throw Failure("cannot read its attributes") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw Failure("not a regular file", code: 0) }

        let folder = split(target).folder
        let temporary = try writeTemporaryFile(in: folder, bytes) { descriptor in
            if fchmod(descriptor, st.st_mode & 0o7777) != 0 {
                return Failure("cannot give the new file the old one's permissions")
            } else if !hasOwner(descriptor, of: st), fchown(descriptor, st.st_uid, st.st_gid) != 0, errno != EPERM {
                // Another user's file in a folder the user may write: the new file stays the user's (EPERM).
                return Failure("cannot give the new file the old one's owner")
            } else if let why = copyExtendedAttributes(from: original, to: descriptor) {
                return Failure("cannot copy its extended attributes: \(why)", code: 0)
            }
            return nil
        }
        var committed = false
        defer {
            if !committed { POSIXFiles.unlink(temporary) }
        }
        // A program that saved the file since it was read wins: its content is not overwritten.
        guard FileVersion.ofFile(atPath: target) == expected else { throw .changedMeanwhile }
        guard POSIXFiles.rename(temporary, target) == 0 else { throw Failure("cannot replace the file") }
        committed = true
        if syncingFolder { syncFolder(folder) }
    }

    /// Creates the file `path` (in an existing folder) holding `bytes`, with the permission bits `mode`;
    /// returns once it is in place. Throws `alreadyExists` when something has the name by then (a program
    /// that created it meanwhile wins), or why it could not; nothing is left behind either way.
    /// `syncingFolder` as for `replace`.
    package static func create(_ path: String, with bytes: UnsafeRawBufferPointer, mode: mode_t,
                               syncingFolder: Bool = true) throws(Failure) {
        let folder = split(path).folder
        let temporary = try writeTemporaryFile(in: folder, bytes) { descriptor in
            fchmod(descriptor, mode & 0o7777) == 0 ? nil : Failure("cannot give the new file its permissions")
        }
        var committed = false
        defer {
            if !committed { POSIXFiles.unlink(temporary) }
        }
        if let error = renameWithoutReplacing(temporary, path) {
            if error == EEXIST { throw .alreadyExists }
            throw Failure("cannot give the new file its name: \(POSIXFiles.errorText(error))", code: error)
        }
        committed = true
        if syncingFolder { syncFolder(folder) }
    }

    /// Writes `bytes` to a new temporary file in `folder`, after `prepare` (permissions, owner) has had the
    /// open descriptor, and flushes it to disk; returns its path. On any failure the file is removed.
    private static func writeTemporaryFile(in folder: String, _ bytes: UnsafeRawBufferPointer,
                                           prepare: (Int32) -> Failure?) throws(Failure) -> String {
        guard let (descriptor, temporary) = POSIXFiles.makeTemporaryFile(ReplacementLeftovers.template(in: folder)) else {
            throw Failure("cannot create a file in \(folder)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var failure = prepare(descriptor)
        if failure == nil {
            if let why = POSIXFiles.writeAll(descriptor, bytes) {
                failure = Failure("cannot write: \(why)", code: errno)
            } else if fsync(descriptor) != 0 {
                failure = Failure("cannot flush to disk")
            }
        }
        close(descriptor)
        if let failure {
            POSIXFiles.unlink(temporary)
            throw failure
        }
        return temporary
    }

    /// rename(2) that never replaces what is at `to` (RENAME_NOREPLACE); errno on failure. On a file
    /// system without it, a plain rename after checking that `to` is free.
    static func renameWithoutReplacing(_ from: String, _ to: String) -> Int32? {
        if POSIXFiles.renameWithoutReplacing(from, to) == 0 { return nil }
        let error = errno
        guard error == EINVAL || error == ENOSYS else { return error }
        var st = stat()
        if POSIXFiles.lstat(to, &st) == 0 { return EEXIST }
        return POSIXFiles.rename(from, to) == 0 ? nil : errno
    }

    /// Why a replacement did not happen: what failed, and errno (0 when no system call failed).
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package let code: Int32
        package let description: String

        /// `what` failed with the current errno, whose text is appended.
        init(_ what: String) {
            code = errno
            description = "\(what): \(POSIXFiles.errorText(code))"
        }

        init(_ description: String, code: Int32) {
            self.code = code
            self.description = description
        }

        /// Another program saved the file after it was read: its content is not overwritten.
        package static let changedMeanwhile = Failure("the file changed while it was being rewritten", code: 0)
        /// `create` found the name taken: another program created the file meanwhile.
        package static let alreadyExists = Failure("the file was created meanwhile", code: EEXIST)
    }

    /// Copies every extended attribute of the file open as `source` to the file open as `destination`, the
    /// ACLs (`system.posix_acl_access`) among them; the failure's words, or nil. An attribute of the
    /// `security` namespace that cannot be set (an SELinux label) is left to the system, which labels the
    /// new file itself; a file system without extended attributes has none to copy.
    static func copyExtendedAttributes(from source: Int32, to destination: Int32) -> String? {
        var size = tessera_flistxattr(source, nil, 0)
        if size < 0 { return errno == ENOTSUP ? nil : "cannot list them: \(POSIXFiles.errorText(errno))" }
        guard size > 0 else { return nil }
        var list = [CChar](repeating: 0, count: size)
        size = tessera_flistxattr(source, &list, UInt(list.count))
        if size < 0 { return "cannot list them: \(POSIXFiles.errorText(errno))" }
        var start = 0
        while start < size {
            let end = list[start..<size].firstIndex(of: 0) ?? size
            let name = Array(list[start..<end]) + [0]
            start = end + 1
            let text = String(decoding: name.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var valueSize = tessera_fgetxattr(source, name, nil, 0)
            if valueSize < 0 { return "cannot read \(text): \(POSIXFiles.errorText(errno))" }
            var value = [UInt8](repeating: 0, count: max(1, valueSize))
            valueSize = tessera_fgetxattr(source, name, &value, UInt(value.count))
            if valueSize < 0 { return "cannot read \(text): \(POSIXFiles.errorText(errno))" }
            if tessera_fsetxattr(destination, name, value, UInt(valueSize)) != 0 {
                if text.hasPrefix("security.") { continue }
                return "cannot set \(text): \(POSIXFiles.errorText(errno))"
            }
        }
        return nil
    }

    /// Whether the file open as `descriptor` already has the owner and group in `st` (a new file takes
    /// the user's, or a set-group-ID folder's group).
    private static func hasOwner(_ descriptor: Int32, of st: stat) -> Bool {
        var own = stat()
        return fstat(descriptor, &own) == 0 && own.st_uid == st.st_uid && own.st_gid == st.st_gid
    }

    /// `path` with symbolic links resolved, so the link itself is never replaced by a regular file.
    package static func resolvedPath(_ path: String) -> String? {
        POSIXFiles.realpath(path)
    }

    /// The folder and the name of an absolute path. Split at the last slash byte: a name that starts
    /// with a combining mark makes one `Character` of the slash and the mark.
    static func split(_ path: String) -> (folder: String, name: String) {
        let scalars = path.unicodeScalars
        guard let slash = scalars.lastIndex(of: "/") else { return (".", path) }
        let folder = String(scalars[..<slash])
        return (folder.isEmpty ? "/" : folder, String(scalars[scalars.index(after: slash)...]))
    }

    /// Flushes a folder's entries (a rename), so the new name survives a power cut.
    package static func syncFolder(_ folder: String) {
        let descriptor = POSIXFiles.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
