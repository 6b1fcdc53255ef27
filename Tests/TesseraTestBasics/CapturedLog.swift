import Logging
import Synchronization

/// Collects log messages so a test can count them.
package final class CapturedLog: Sendable {
    private let entries = Mutex<[(Logger.Level, String)]>([])

    package init() {}

    package var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    /// Messages at `warning` or above.
    package var warnings: [String] { messages(atLeast: .warning) }

    /// Messages at `level` or above, oldest first.
    package func messages(atLeast level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.0 >= level }.map(\.1) }
    }

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
