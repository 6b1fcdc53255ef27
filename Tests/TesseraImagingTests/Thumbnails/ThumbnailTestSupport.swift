#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraImaging

/// Collects log messages so a test can count warnings.
final class CapturedLog: Sendable {
    private let entries = Mutex<[(Logger.Level, String)]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    var warnings: [String] { entries.withLock { $0.filter { $0.0 >= .warning }.map(\.1) } }

    fileprivate func add(_ level: Logger.Level, _ message: String) { entries.withLock { $0.append((level, message)) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            log.add(event.level, "\(event.message) \(event.metadata ?? [:])")
        }
    }
}

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
