#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore

/// A file opened to be read as an image: the one place that opens, stats and sniffs one, for the loader,
/// the thumbnail store, the tile cutter and the tiled view's probe.
///
/// Opening refuses what must not be read: a missing path, an empty file, and anything that is not a
/// regular file. A FIFO would block a worker forever waiting for a writer (it is opened with `O_NONBLOCK`,
/// which changes nothing for regular files, and refused by `fstat` next), a device could be endless, a
/// folder has no bytes. The file is stat'ed once, on the open descriptor, so its size and version describe
/// the bytes read afterwards, not whatever the path names a moment later.
///
/// Reads use `pread`, retry on EINTR and short reads, and stop at the end of the file: a file that shrank
/// since it was opened reads as what there is.
package final class ImageFile {
    /// Why a file cannot be read as an image. Each caller words it in its own error type.
    package enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// No such file, or a component of the path is not a folder.
        case missing
        /// Opening, stat-ing or reading failed; the text is strerror's.
        case unreadable(String)
        /// Something other than a regular file.
        case notARegularFile(Kind)
        /// Zero bytes.
        case empty

        package var description: String {
            switch self {
            case .missing: "no such file"
            case .unreadable(let why): why
            case .notARegularFile(let kind): "\(kind.rawValue), not a regular file"
            case .empty: "empty file"
            }
        }
    }

    /// What a path that is not a regular file names.
    package enum Kind: String, Sendable {
        case folder = "a folder"
        case fifo = "a FIFO"
        case device = "a device"
        case socket = "a socket"
    }

    package let path: String
    /// Bytes, as `fstat` gave them when the file was opened (always more than zero).
    package let size: Int
    package let version: FileVersion
    /// The modification time as `FileManager` reports it (`.modificationDate`), for callers keyed by a `Date`.
    package let modificationDate: Date
    /// Permission bits, set-id and sticky included: what a rewrite of the file keeps.
    package let mode: UInt32
    private var descriptor: Int32

    /// Opens `path` for reading and stats it; see the type's description for what is refused.
    package convenience init(path: String) throws(Failure) {
        let fd = POSIXFiles.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .missing : .unreadable(POSIXFiles.errorText(code))
        }
        try self.init(descriptor: fd, path: path)
    }

    /// Takes over `fd`, an open descriptor of the file `path` names (one a decode helper was handed), and
    /// stats it; refuses what `init(path:)` refuses, closing `fd` then.
    package init(descriptor fd: Int32, path: String) throws(Failure) {
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(POSIXFiles.errorText(code))
        }
        if let kind = Self.kind(of: st) {
            close(fd)
            throw .notARegularFile(kind)
        }
        guard st.st_size > 0 else {
            close(fd)
            throw .empty
        }
        self.path = path
        descriptor = fd
        size = Int(st.st_size)
        version = FileVersion(st)
        mode = UInt32(st.st_mode & 0o7777)
        // FileManager's own arithmetic, so a key made from this date matches one made from its attributes.
        modificationDate = Date(timeIntervalSinceReferenceDate: TimeInterval(st.st_mtim.tv_sec)
            - Date.timeIntervalBetween1970AndReferenceDate + TimeInterval(st.st_mtim.tv_nsec) / 1_000_000_000.0)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The first `count` bytes at most (fewer for a shorter file).
    package func head(_ count: Int) throws(Failure) -> Data {
        let length = min(count, size)
        guard let buffer = malloc(max(length, 1)) else { throw .unreadable(POSIXFiles.errorText(ENOMEM)) }
        let got: Int
        do {
            got = try read(into: buffer, from: 0, to: length)
        } catch {
            free(buffer)
            throw error
        }
        return Data(bytesNoCopy: buffer, count: got, deallocator: .free)
    }

    /// The whole file (as `size` said; less if it shrank since).
    package func readAll() throws(Failure) -> Data {
        try head(size)
    }

    /// Reads bytes `[start, end)` into `buffer`, which must hold `end - start` bytes. Returns the offset
    /// reached: `end`, or less at the end of the file.
    package func read(into buffer: UnsafeMutableRawPointer, from start: Int, to end: Int) throws(Failure) -> Int {
        precondition(descriptor >= 0, "the descriptor was handed over")
        var done = start
        while done < end {
            let n = pread(descriptor, buffer + (done - start), end - done, off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(POSIXFiles.errorText(errno))
            }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Lends the open descriptor to `body` (to hand a duplicate to another process), keeping it.
    package func withDescriptor<T, E: Error>(_ body: (Int32) throws(E) -> T) throws(E) -> T {
        precondition(descriptor >= 0, "the descriptor was handed over")
        return try body(descriptor)
    }

    /// Gives up the descriptor (in blocking mode, at offset 0) to a reader that closes it, such as the tile
    /// cutter's C readers. The file can no longer be read through this object.
    package func takeDescriptor() -> Int32 {
        precondition(descriptor >= 0, "the descriptor was handed over")
        let fd = descriptor
        descriptor = -1
        // Blocking again: irrelevant for a regular file, but the C side reads through stdio.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The first `count` bytes of the file at `path`, or nil when it cannot be opened as an image file.
    package static func head(ofFileAt path: String, count: Int) -> Data? {
        try? ImageFile(path: path).head(count)
    }

    private static func kind(of st: stat) -> Kind? {
        switch st.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: .folder
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        default: .device
        }
    }
}
