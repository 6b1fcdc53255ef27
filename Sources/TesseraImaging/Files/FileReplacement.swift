#if canImport(Glibc)
import Glibc
#endif
import TesseraCore

/// Replaces a file's content all at once: the new bytes go to a temporary file in the same folder (so the
/// rename cannot cross file systems), which takes the old file's permissions and owner, is flushed to
/// disk, and is renamed over the old one. A crash or a full disk at any point leaves the old file whole;
/// readers see either the old content or the new, never a mix. The temporary file's name says it is
/// one, so that a crashed run's is removed by a later one (`ReplacementLeftovers`).
///
/// What a rename cannot carry over: extended attributes and ACLs stay with the old inode, and other hard
/// links to it keep the old content.
public enum FileReplacement {
    /// Replaces the regular file at `path` (symbolic links are followed: the link stays, its target is
    /// replaced) with `bytes`, provided it is still at `expected` (its size and mtime when it was read).
    /// Throws why it did not; returns once the new content is in place.
    public static func replace(_ path: String, with bytes: UnsafeRawBufferPointer, expected: FileVersion) throws(Failure) {
        guard let target = resolvedPath(path) else { throw Failure("cannot resolve the path") }
        var st = stat()
        guard POSIXFiles.stat(target, &st) == 0 else { throw Failure("cannot read its attributes") }
        guard st.st_mode & S_IFMT == S_IFREG else { throw Failure("not a regular file", code: 0) }

        let folder = split(target).folder
        guard let (descriptor, temporary) = POSIXFiles.makeTemporaryFile(ReplacementLeftovers.template(in: folder)) else {
            throw Failure("cannot create a file in \(folder)")
        }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var committed = false
        defer {
            if !committed { POSIXFiles.unlink(temporary) }
        }

        var failure: Failure? = nil
        if fchmod(descriptor, st.st_mode & 0o7777) != 0 {
            failure = Failure("cannot give the new file the old one's permissions")
        } else if !hasOwner(descriptor, of: st), fchown(descriptor, st.st_uid, st.st_gid) != 0 {
            failure = Failure("cannot give the new file the old one's owner")
        } else if let why = POSIXFiles.writeAll(descriptor, bytes) {
            failure = Failure("cannot write: \(why)", code: errno)
        } else if fsync(descriptor) != 0 {
            failure = Failure("cannot flush to disk")
        }
        close(descriptor)
        if let failure { throw failure }

        // A program that saved the file since it was read wins: its content is not overwritten.
        guard FileVersion.ofFile(atPath: target) == expected else {
            throw Failure("the file changed while it was being rewritten", code: 0)
        }
        guard POSIXFiles.rename(temporary, target) == 0 else { throw Failure("cannot replace the file") }
        committed = true
        syncFolder(folder)
    }

    /// Why a replacement did not happen: what failed, and errno (0 when no system call failed).
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: Int32
        public let description: String

        /// `what` failed with the current errno, whose text is appended.
        init(_ what: String) {
            code = errno
            description = "\(what): \(POSIXFiles.errorText(code))"
        }

        init(_ description: String, code: Int32) {
            self.code = code
            self.description = description
        }
    }

    /// Whether the file open as `descriptor` already has the owner and group in `st` (a new file takes
    /// the user's, or a set-group-ID folder's group).
    private static func hasOwner(_ descriptor: Int32, of st: stat) -> Bool {
        var own = stat()
        return fstat(descriptor, &own) == 0 && own.st_uid == st.st_uid && own.st_gid == st.st_gid
    }

    /// `path` with symbolic links resolved, so the link itself is never replaced by a regular file.
    static func resolvedPath(_ path: String) -> String? {
        POSIXFiles.realpath(path)
    }

    /// The folder and the name of an absolute path.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Flushes a folder's entries (a rename), so the new name survives a power cut.
    static func syncFolder(_ folder: String) {
        let descriptor = POSIXFiles.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
