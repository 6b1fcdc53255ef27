import Foundation
import Synchronization

/// When each step of starting up was reached, in ms since the process was started (its `exec`): what a
/// user waits for between opening a photo in a file manager and seeing it, split where the time goes.
/// `--report` gives it as `startup_ms`. Each phase is kept at its first mark; marks come from any thread.
package final class StartupTimeline: Sendable {
    package enum Phase: String, CaseIterable, Sendable {
        /// The program's own code began: the dynamic loader, the libraries' constructors and Swift's
        /// runtime before it.
        case main
        /// SDL's video subsystem is up (the display connection made).
        case sdl
        /// The window exists and was asked to show; on X11 it shows, in the views' background, from here.
        case window
        /// The renderer is made (a GL context, or SDL's software renderer).
        case renderer
        /// The first frame was presented.
        case firstFrame = "first_frame"
        /// The first frame presented with nothing left to load, fade or move: the photo fully shown, or
        /// every cell on the strip's first screen.
        case settled
    }

    /// The process's own: its origin is the process's start, read once.
    package static let process = StartupTimeline(msSinceStart: StartupTimeline.msSinceProcessStart)

    private let msSinceStart: @Sendable () -> Double
    private let marks = Mutex<[Phase: Double]>([:])

    /// - Parameter msSinceStart: how long ago, in ms, what is timed began (tests pass their own).
    package init(msSinceStart: @escaping @Sendable () -> Double) {
        self.msSinceStart = msSinceStart
    }

    /// Notes that `phase` is reached now, unless it was reached before.
    package func mark(_ phase: Phase) {
        let ms = msSinceStart()
        marks.withLock { marks in
            if marks[phase] == nil { marks[phase] = ms }
        }
    }

    /// The phases reached so far, by name, in ms since the start.
    package var figures: [String: Double] {
        marks.withLock { marks in
            Dictionary(uniqueKeysWithValues: marks.map { ($0.key.rawValue, ($0.value * 10).rounded() / 10) })
        }
    }

    /// Time since the kernel started this process: its start time in `/proc/self/stat` (clock ticks since
    /// boot, so to 10 ms) against the boot-time clock now. Nil when /proc cannot say.
    private static let processStartSinceBoot: Double? = {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command's closing parenthesis start at field 3 (state); starttime is field 22.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK))) * 1000
    }()

    private static let msSinceProcessStart: @Sendable () -> Double = {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let boot = Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1_000_000
        return processStartSinceBoot.map { boot - $0 } ?? 0
    }
}
