import Foundation
import TesseraCore
import TesseraSDL

/// The application: owns SDL on the main thread and runs the frame loop over the strip and the
/// single-image view. What it is made of is `ViewerWiring`'s business, which view has the window and where
/// input goes is `ViewerModes`'s; this type runs the frames and writes the report.
public final class Viewer {
    private let options: ViewerOptions
    let parts: ViewerWiring
    let modes: ViewerModes
    let commands: ViewerCommands
    private let clock: any FrameClock
    private var recorder = FrameRecorder()

    /// - Parameter clock: the time frames run at (tests step it by hand).
    public init(options: ViewerOptions, clock: any FrameClock = MonotonicClock()) throws {
        self.options = options
        self.clock = clock
        parts = try ViewerWiring(options: options)
        modes = ViewerModes(parts: parts)
        commands = ViewerCommands(parts: parts, modes: modes)
    }

    /// Runs until the user quits, the script ends, or the frame limit is reached.
    @discardableResult
    public func run() throws -> RunReport {
        let result = try FrameLoop(system: parts.system, renderer: parts.renderer, clock: clock, options: options).run(self)
        // A key-handler still running is not left behind.
        parts.keyHandler.cancel()
        let report = makeReport(result)
        if let path = options.reportPath { try report.write(to: path) }
        return report
    }

    private func makeReport(_ result: FrameLoop.Result) -> RunReport {
        let model = parts.model, view = parts.carouselView
        var report = RunReport()
        report.addFrames(result)
        report.items = model.items.count
        report.fileChanges = modes.fileChangesApplied
        report.mode = modes.mode == .strip ? "strip" : "single"
        report.selectedItem = model.selectedItem?.path
        report.markedItems = model.marks.marked(in: model.items).map(\.path)
        report.errors = model.knownFailures.map { .init(item: $0.item.path, reason: $0.failure.shortText) }
        if let remote = parts.remote {
            let counters = remote.counterValues
            report.downloads = .init(started: counters.started, completed: counters.completed,
                                     notModified: counters.notModified, failed: counters.failed,
                                     bytes: Int(counters.bytesDownloaded))
        }
        let counters = parts.pipeline.counters
        report.decodes = counters.started
        report.mainThreadDecodes = counters.mainThreadLoads
        report.decodedBytes = counters.loadedCost
        let stats = parts.pipeline.storageStats ?? CacheStats()
        report.cache = .init(hits: stats.hits, misses: stats.misses, evictions: stats.evictions,
                             peakCostBytes: stats.peakCost, costLimitBytes: options.cacheLimitBytes)
        report.cellsCreated = model.cellsCreated
        report.placeholderCellFrames = view.placeholderCellFrames
        report.visibleCellFrames = view.visibleCellFrames
        report.fadingFrames = view.fadingFrames
        report.cellTexturesMadeInFrames = view.texturesMadeInFrames
        report.strategy = model.strategy.name
        if options.recordsFrameTimes { report.frameTimes = recorder.timeline(result) }
        report.uploadBytes = view.uploadBytes
        report.peakRSSBytes = RunReport.peakResidentBytes()
        for metrics in modes.detailMetrics { report.add(metrics) }
        return report
    }
}

extension Viewer: FrameLoopScreen {
    var wantsToQuit: Bool { modes.wantsToQuit }

    func isIdle(now: Duration) -> Bool { modes.isIdle(now: now) && commands.isIdle(now: now) }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext { modes.scriptContext(now: now, idle: idle) }

    func handle(_ event: InputEvent, now: Duration) {
        if case .keyDown(let combo, let isRepeat) = event {
            commands.handle(combo, isRepeat: isRepeat, now: now)
        } else {
            modes.handle(event, now: now)
        }
    }

    func renderFrame(now: Duration) {
        modes.applyFileChanges(now: now)
        commands.update(now: now)
        let timed = options.recordsFrameTimes
        let phases = modes.drawFrame(now: now, clock: clock, timed: timed) {
            parts.overlay.draw(commands.overlayContent(now: now, information: parts.information), scale: parts.model.pixelScale)
        }
        // Every frame, the zoom view's too, so the timeline's columns stay in step with its frames.
        if timed { recorder.record(phases, placeholderCellFrames: parts.carouselView.placeholderCellFrames) }
    }
}
