import Foundation

/// What `tessera bench thumbs` prints: the pass with the median wall time, every pass's wall time, and
/// with `--quality` how close shrink-on-load comes to a full decode.
package struct ThumbsReport: Codable, Sendable {
    package var size: Int
    package var workers: Int
    package var cache: ThumbnailCacheMode
    /// Wall time of every run, seconds, in the order they ran.
    package var runs: [Double]
    /// The run with the median wall time.
    package var result: ThumbsRun
    /// With --quality: PSNR of each format's thumbnails against full decode + the same scaler.
    package var quality: [ScaledDecodeQuality]?

    /// Whether not one file could be thumbnailed in the reported run.
    package var everyFileFailed: Bool { result.failures.count == result.files }

    package func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    package var text: String {
        var lines = [
            "\(result.files) files to \(size) px, \(workers) workers, thumbnail cache: \(cache.rawValue)",
            String(format: "wall %.2f s (median of %d: %@)", result.wallSeconds, runs.count,
                   runs.map { String(format: "%.2f", $0) }.joined(separator: ", ")),
            String(format: "%.1f thumbnails/s; per image p50 %.1f ms, p90 %.1f ms, max %.1f ms",
                   result.thumbnailsPerSecond, result.imageMs.p50, result.imageMs.p90, result.imageMs.max),
        ]
        for q in quality ?? [] {
            lines.append(String(format: "%@: PSNR vs full decode + same scaler over %d files: min %.1f dB, median %.1f dB",
                                q.format, q.files, q.minimumDB, q.medianDB))
        }
        if !result.failures.isEmpty {
            lines.append("\(result.failures.count) failed:")
            lines += result.failures.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}
