import Foundation
import TesseraCore
import TesseraSDL

/// The application: owns SDL on the main thread and runs the frame loop over the strip and the
/// single-image view. What it is made of is `ViewerWiring`'s business, which view has the window is
/// `ViewerModes`'s and what keys do `ViewerCommands`'; this type runs the frames and, when a report is
/// asked for, makes the run's observer (`RunRecorder`) and adds the state at exit to what it heard.
package final class Viewer {
    private let options: ViewerOptions
    /// Hears the run when a report is asked for; nil otherwise, and then nothing is measured.
    let recorder: RunRecorder?
    let parts: ViewerWiring
    let modes: ViewerModes
    let commands: ViewerCommands
    private let clock: any FrameClock

    /// - Parameter clock: the time frames run at (tests step it by hand).
    package init(options: ViewerOptions, clock: any FrameClock = MonotonicClock()) throws {
        self.options = options
        self.clock = clock
        recorder = options.report.map { RunRecorder(clock: clock, host: .strip, recordsFrameTimes: $0.frameTimes) }
        parts = try ViewerWiring(options: options, observer: recorder, clock: clock)
        modes = ViewerModes(host: parts.host, model: parts.model, carouselView: parts.carouselView,
                            pipeline: parts.pipeline, quitting: parts.quitting, fileChanges: parts.fileChanges,
                            singleViews: parts.singleViews, stripAnimation: parts.stripAnimation, observer: recorder)
        commands = ViewerCommands(model: parts.model, modes: modes, window: parts.host.window,
                                  fileActions: parts.fileActions, keyHandler: parts.keyHandler, quitting: parts.quitting,
                                  information: parts.information, sorting: parts.sorting, cellRatings: parts.cellRatings, imageCopier: parts.imageCopier, droppedFiles: parts.droppedFiles, remote: parts.remote,
                                  options: options)
    }

    /// Runs until the user quits, the script ends, or the frame limit is reached. Returns the report when
    /// one was asked for (`ViewerOptions.report`), after writing it to its path if it has one.
    @discardableResult
    package func run() throws -> RunReport? {
        try FrameLoop(system: parts.host.system, renderer: parts.host.renderer, clock: clock, options: options, observer: recorder)
            .run(self)
        // The loop ends once quitting found nothing running; this stops a key-handler only when the loop
        // ended by an error.
        parts.keyHandler.cancel()
        // A sweep of the disk cache under way is seen through, within a bound: removing is quick.
        _ = options.diskCache?.waitForSweeps(timeout: .seconds(2))
        guard let recorder else { return nil }
        var report = recorder.report()
        addStateAtExit(to: &report)
        if let path = options.report?.path { try report.write(to: path) }
        return report
    }

    /// The paths of the marked images, in strip order: what `-o` writes when the viewer quits.
    package var markedPaths: [String] { parts.model.markedPaths }

    /// What the report says of the viewer as the run ends, beside what the recorder heard during it.
    private func addStateAtExit(to report: inout RunReport) {
        let model = parts.model
        report.items = model.items.count
        report.listingMs = parts.listingDuration.map { $0.seconds * 1000 }
        report.mode = switch modes.mode {
        case .strip: "strip"
        case .detail: "single"
        case .compare: "compare"
        }
        report.compareSharpMs = modes.firstCompareSharpAfter.map { $0.seconds * 1000 }
        report.selectedItem = model.selectedItem?.path
        report.selectedName = model.selectedItem?.displayName
        report.markedItems = markedPaths
        report.errors = model.knownFailures.map { .init(item: $0.item.path, reason: $0.failure.shortText) }
        if let remote = parts.remote {
            let counters = remote.counterValues
            report.downloads = .init(started: counters.started, completed: counters.completed,
                                     notModified: counters.notModified, failed: counters.failed,
                                     bytes: Int(counters.bytesDownloaded))
        }
        let stats = parts.pipeline.storageStats ?? CacheStats()
        report.cache = .init(hits: stats.hits, misses: stats.misses, evictions: stats.evictions,
                             peakCostBytes: stats.peakCost, costLimitBytes: options.cacheLimitBytes)
        report.cellsCreated = model.cellsCreated
        report.strategy = model.strategy.name
        parts.host.addDisplay(to: &report)
    }
}

extension Viewer: FrameLoopScreen {
    var wantsToQuit: Bool { modes.wantsToQuit }

    func requestQuit() { modes.quit() }

    func isIdle(now: Duration) -> Bool { modes.isIdle(now: now) && commands.isIdle(now: now) }

    func isStill(now: Duration) -> Bool { modes.isStill(now: now) && commands.isIdle(now: now) }

    func mayPaceFrames(now: Duration) -> Bool { modes.mayPaceFrames(now: now) }

    func nextWake(now: Duration) -> Duration? { modes.nextWake(now: now) }
    func firstScreenShown() {
        StartPriority.stepBack(executor: parts.executor, decoding: parts.decoding)
        // Behind a photo opened alone, the strip's first screen is decoded now, so Esc finds it ready.
        if modes.mode == .detail { parts.model.requestFirstScreen(now: clock.now()) }
    }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext { modes.scriptContext(now: now, idle: idle) }

    func handle(_ event: InputEvent, now: Duration) {
        if case .keyDown(let combo, let isRepeat) = event {
            commands.handle(combo, isRepeat: isRepeat, now: now)
        } else if case .dropped(let path) = event {
            commands.open(dropped: path, now: now)
        } else {
            modes.handle(event, now: now)
        }
    }

    func renderFrame(now: Duration) {
        modes.applyFileChanges(now: now)
        commands.update(now: now)
        modes.drawFrame(now: now, clock: clock) {
            parts.overlay.draw(commands.overlayContent(now: now, information: parts.information), scale: parts.model.pixelScale)
        }
    }
}
