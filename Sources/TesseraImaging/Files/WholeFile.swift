#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// A regular file read whole, with the attributes it had when it was read: what the file actions (the
/// orientation writer, the information reader) start from.
public struct WholeFile: Sendable {
    public let path: String
    public let bytes: Data
    /// Size and mtime of the descriptor that was read, so a later write can tell whether it changed since.
    public let version: FileVersion
    /// Permission bits, including set-id and sticky.
    public let mode: UInt32

    public enum Failure: Error, Sendable, Equatable {
        case missing
        /// A folder, FIFO, socket or device.
        case notARegularFile
        /// strerror's text.
        case unreadable(String)
    }

    /// Opens `path` without blocking (a FIFO would otherwise wait for a writer), refuses anything but a
    /// regular file, and reads it to the end.
    public static func read(_ path: String) -> Result<WholeFile, Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            return .failure(errno == ENOENT || errno == ENOTDIR ? .missing : .unreadable(POSIXFiles.errorText(errno)))
        }
        defer { close(descriptor) }
        var st = stat()
        guard fstat(descriptor, &st) == 0 else { return .failure(.unreadable(POSIXFiles.errorText(errno))) }
        guard st.st_mode & S_IFMT == S_IFREG else { return .failure(.notARegularFile) }

        var bytes = Data(count: Int(st.st_size))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.count += max(4096, bytes.count / 2) }  // the file grew
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(POSIXFiles.errorText(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        bytes.count = filled
        return .success(WholeFile(path: path, bytes: bytes, version: FileVersion(st), mode: UInt32(st.st_mode & 0o7777)))
    }
}
