import Synchronization
import TesseraCore

/// The observer behind `--report`: hears a run through `RunObserver` and assembles its `RunReport`. Frame
/// times (and with `--frame-times` each frame's row), the strip's cells and uploads, both views' loads,
/// and each zoomable view's first frames, holes and fades are its own; what the report says of the state
/// at exit (items, errors, the cache) the host adds. A host makes one only when a report is asked for.
///
/// `load(.started, ...)` comes from worker threads, the rest from the main thread: one lock guards it all.
package final class RunRecorder: RunObserver {
    private let clock: any FrameClock
    /// The view the run is about: its uploads are the report's.
    private let host: MeasuredView
    private let recordsFrameTimes: Bool
    private let startup: StartupTimeline
    private let tally = Mutex(Tally())

    private struct Tally: Sendable {
        var frameMs: [Double] = []
        var frameStart = Duration.zero
        var frameIsMoving = false
        var movingFrameMs: [Double] = []
        /// `--frame-times`: one row per frame, and this frame's placeholders and phases so far.
        var timeline: [[Double]] = []
        var framePlaceholders = 0
        var phaseStarts: [FramePhase: Duration] = [:]
        var phaseMs: [FramePhase: Double] = [:]

        var placeholderCellFrames = 0
        var visibleCellFrames = 0
        var fadingFrames = 0
        var cellTexturesMade = 0
        var fileChanges = 0
        var animationFramesShown = 0
        var uploadBytes: [MeasuredView: Int] = [:]
        var loads: [MeasuredView: LoadCounters] = [:]
        /// One per zoomable view opened, in order; the last is the one open.
        var tiledViews: [TiledViewTally] = []

        mutating func withOpenView(_ body: (inout TiledViewTally) -> Void) {
            if !tiledViews.isEmpty { body(&tiledViews[tiledViews.count - 1]) }
        }
    }

    /// - Parameters:
    ///   - clock: the frame loop's clock: frames and phases are timed by it.
    ///   - host: what the run shows: the strip (with zoomable views opened from it) or one zoomable view.
    ///   - recordsFrameTimes: keep a row per frame (`--frame-times`); only then are phases timed.
    ///   - startup: where the steps of starting up are marked; the report gives them.
    package init(clock: any FrameClock, host: MeasuredView, recordsFrameTimes: Bool = false,
                 startup: StartupTimeline = .process) {
        self.clock = clock
        self.startup = startup
        self.host = host
        self.recordsFrameTimes = recordsFrameTimes
    }

    // MARK: RunObserver

    package func frameBegan(at start: Duration) {
        tally.withLock { t in
            t.frameStart = start
            t.frameIsMoving = false
            t.framePlaceholders = 0
            t.phaseMs = [:]
        }
    }

    package func phaseBegan(_ phase: FramePhase) {
        guard recordsFrameTimes else { return }
        let now = clock.now()
        tally.withLock { $0.phaseStarts[phase] = now }
    }

    package func phaseEnded(_ phase: FramePhase) {
        guard recordsFrameTimes else { return }
        let now = clock.now()
        tally.withLock { t in
            guard let start = t.phaseStarts.removeValue(forKey: phase) else { return }
            t.phaseMs[phase, default: 0] += (now - start).seconds * 1000
        }
    }

    package func frameShowedMotion() { tally.withLock { $0.frameIsMoving = true } }

    package func frameEnded() {
        let now = clock.now()
        let recordsFrameTimes = self.recordsFrameTimes
        tally.withLock { t in
            let ms = (now - t.frameStart).seconds * 1000
            t.frameMs.append(ms)
            if t.frameIsMoving { t.movingFrameMs.append(ms) }
            if recordsFrameTimes {
                t.timeline.append([t.frameStart.seconds, ms, Double(t.framePlaceholders),
                                   t.phaseMs[.update] ?? 0, t.phaseMs[.upload] ?? 0, t.phaseMs[.draw] ?? 0])
            }
        }
    }

    package func cellsDrawn(placeholders: Int, visible: Int, fading: Bool) {
        tally.withLock { t in
            t.placeholderCellFrames += placeholders
            t.framePlaceholders += placeholders
            t.visibleCellFrames += visible
            if fading { t.fadingFrames += 1 }
        }
    }

    package func cellTextureMade() { tally.withLock { $0.cellTexturesMade += 1 } }

    package func fileChangesApplied(_ count: Int) { tally.withLock { $0.fileChanges += count } }

    package func animationFrameShown() { tally.withLock { $0.animationFramesShown += 1 } }

    package func uploaded(bytes: Int, in view: MeasuredView) { tally.withLock { $0.uploadBytes[view, default: 0] += bytes } }

    package func load(_ event: LoadEvent, in view: MeasuredView) {
        tally.withLock { $0.loads[view, default: LoadCounters()].count(event) }
    }

    package func tiledViewOpened() { tally.withLock { $0.tiledViews.append(TiledViewTally()) } }

    package func tiledFrameDrawn(complete: Bool, sharp: Bool, sinceOpening: Duration) {
        tally.withLock { $0.withOpenView { $0.frameDrawn(complete: complete, sharp: sharp, sinceOpening: sinceOpening) } }
    }

    package func tileFadeBegan(_ tile: TileID, at start: Duration) {
        tally.withLock { $0.withOpenView { $0.fadeBegan(tile, at: start) } }
    }

    package func tileShownOpaque(_ tile: TileID, at now: Duration) {
        tally.withLock { $0.withOpenView { $0.shownOpaque(tile, at: now) } }
    }

    // MARK: The report

    /// Every figure heard so far, as the report states it. The zoomable views' fields are there once one
    /// opened; each of their first-frame, sharp and fade figures is that of the first view that had one.
    package func report() -> RunReport {
        let host = self.host, recordsFrameTimes = self.recordsFrameTimes
        var report = tally.withLock { t in
            var report = RunReport()
            report.frames = t.frameMs.count
            report.frameMs = SampleSummary(samples: t.frameMs)
            report.framesOver16ms = t.frameMs.filter { $0 > 1000.0 / 60 }.count
            if !t.movingFrameMs.isEmpty { report.movingFrameMs = SampleSummary(samples: t.movingFrameMs) }
            if recordsFrameTimes { report.frameTimes = t.timeline }
            let images = t.loads[.strip] ?? LoadCounters()
            report.decodes = images.started
            report.mainThreadDecodes = images.mainThreadLoads
            report.decodedBytes = images.loadedCost
            report.placeholderCellFrames = t.placeholderCellFrames
            report.visibleCellFrames = t.visibleCellFrames
            report.fadingFrames = t.fadingFrames
            report.cellTexturesMadeInFrames = t.cellTexturesMade
            report.fileChanges = t.fileChanges
            report.animationFramesShown = t.animationFramesShown
            report.uploadBytes = t.uploadBytes[host] ?? 0
            if !t.tiledViews.isEmpty {
                let tiles = t.loads[.tiled] ?? LoadCounters()
                report.tilesRequested = tiles.requested
                report.tilesDecoded = tiles.succeeded
                report.tilesCancelled = tiles.droppedQueued
                report.tilesFailed = tiles.failed
                report.mainThreadDecodes += tiles.mainThreadLoads
                report.firstFrameMs = t.tiledViews.lazy.compactMap(\.firstFrameMs).first
                report.sharpMs = t.tiledViews.lazy.compactMap(\.sharpMs).first
                report.fadeMsObserved = t.tiledViews.lazy.compactMap(\.fadeMsObserved).first
                report.holeFrames = t.tiledViews.reduce(0) { $0 + $1.holeFrames }
            }
            return report
        }
        report.peakRSSBytes = RunReport.peakResidentBytes()
        report.startupMs = startup.figures
        return report
    }

    /// The zoomable views measured so far, in the order they opened (for tests).
    var tiledViews: [TiledViewTally] { tally.withLock { $0.tiledViews } }
}
