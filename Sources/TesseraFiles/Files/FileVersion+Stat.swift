#if canImport(Glibc)
import Glibc
#endif
import TesseraCore

extension FileVersion {
    /// The version of the regular file at `path` (symlinks followed), nil when there is none.
    package static func ofFile(atPath path: String) -> FileVersion? {
        var st = stat()
        guard POSIXFiles.stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileVersion(st)
    }

    /// The version `stat` describes.
    package init(_ st: stat) {
        self.init(size: Int64(st.st_size),
                  modifiedNanoseconds: Int64(st.st_mtim.tv_sec) * 1_000_000_000 + Int64(st.st_mtim.tv_nsec))
    }
}
