#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraImaging

enum FileStat {
    /// Permission bits of a file or folder.
    static func mode(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int(st.st_mode & 0o7777)
    }

    static func modificationTime(_ path: String) -> Int64? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return Int64(st.st_mtim.tv_sec)
    }

    /// Sets the modification (and access) time to whole `seconds` since the epoch.
    static func setModificationTime(_ path: String, _ seconds: Int64) {
        var times = [timespec(tv_sec: Int(seconds), tv_nsec: 0), timespec(tv_sec: Int(seconds), tv_nsec: 0)]
        precondition(utimensat(AT_FDCWD, path, &times, 0) == 0, "utimensat \(path)")
    }
}
