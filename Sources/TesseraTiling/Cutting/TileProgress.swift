import Foundation
import TesseraCore

/// How far a cut is: tiles written so far out of all the tiles it will write.
package struct TileProgress: Sendable, Equatable {
    package var tilesWritten: Int
    package var totalTiles: Int

    package init(tilesWritten: Int, totalTiles: Int) {
        self.tilesWritten = tilesWritten
        self.totalTiles = totalTiles
    }

    /// 0...1.
    package var fraction: Double {
        totalTiles > 0 ? min(1, Double(tilesWritten) / Double(totalTiles)) : 1
    }
}

/// Renders progress as one terminal line: a bar, the percentage, tiles per second and the time left,
/// at most `minimumInterval` apart (10 times a second by default) so drawing costs nothing measurable.
///
/// Time is a parameter (seconds since any fixed origin), so tests step it. Not thread-safe: a caller
/// that receives progress on several threads keeps it behind a lock.
package struct TileProgressLine: Sendable {
    package var width: Int
    package var minimumInterval: Double
    private var start: Double?
    private var lastDrawn: Double?

    package init(width: Int = 30, minimumInterval: Double = 0.1) {
        self.width = width
        self.minimumInterval = minimumInterval
    }

    /// The line to draw for `progress` at time `now`, or nil if the last one was drawn too recently
    /// (the final update, all tiles written, is always drawn). Starts with "\r" and ends by clearing the
    /// rest of the terminal line.
    package mutating func line(for progress: TileProgress, now: Double) -> String? {
        if start == nil { start = now }
        let done = progress.tilesWritten >= progress.totalTiles
        if let lastDrawn, now - lastDrawn < minimumInterval, !done { return nil }
        lastDrawn = now
        return "\r" + text(for: progress, elapsed: now - (start ?? now)) + "\u{1B}[K"
    }

    /// "[#######.......]  45%  1234 tiles/s  0:03 left" (or "… done in 0:04" at the end).
    package func text(for progress: TileProgress, elapsed: Double) -> String {
        let filled = Int((progress.fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((progress.fraction * 100).rounded(.down))
        let rate = elapsed > 0 ? Double(progress.tilesWritten) / elapsed : 0
        var line = "[\(bar)] \(String(repeating: " ", count: max(0, 3 - String(percent).count)))\(percent)%"
        line += "  \(Int(rate.rounded())) tiles/s"
        if progress.tilesWritten >= progress.totalTiles {
            line += "  done in \(Self.clock(elapsed))"
        } else if rate > 0 {
            line += "  \(Self.clock(Double(progress.totalTiles - progress.tilesWritten) / rate)) left"
        }
        return line
    }

    /// m:ss, or h:mm:ss from an hour.
    static func clock(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded()))
        let h = total / 3600, m = total / 60 % 60, s = total % 60
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
        return "\(m):\(ss)"
    }
}
