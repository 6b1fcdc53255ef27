#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX file chores several caches share (thumbnails, downloads, tiles), done once and right:
/// writes that survive EINTR and short writes, folders made with a private mode, errno as text.
package enum POSIXFiles {
    /// Writes all of `bytes`, retrying on EINTR and short writes; returns why it failed, or nil.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var done = 0
        while done < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if written < 0 {
                if errno == EINTR { continue }
                return errorText(errno)
            }
            done += written
        }
        return nil
    }

    /// Creates `folder` (absolute) and its missing parents with `mode`; returns why it failed, or nil.
    package static func makeFolders(_ folder: String, mode: mode_t = 0o700) -> String? {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            if POSIXFiles.mkdir(path, mode) != 0 && errno != EEXIST { return "cannot create \(path): \(errorText(errno))" }
        }
        return nil
    }

    package static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}
