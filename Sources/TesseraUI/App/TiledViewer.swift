import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL

/// `tessera view PATH`: one `TiledImageView` in a window of its own, run by the same `FrameLoop` as the
/// strip (pacing, script, screenshot, report). Keys are the single view's bindings: closing (Esc) or quitting
/// (q) ends it, f toggles fullscreen.
package final class TiledViewer: FrameLoopScreen {
    private let options: ViewerOptions
    private let host: WindowHost
    private let view: TiledImageView
    /// Runs the view's work: the process's one executor.
    private let executor: WorkExecutor
    /// Where the view's images are decoded.
    private let decoding: any DecodingService
    private let clock: MonotonicClock
    /// Hears the run when a report is asked for; nil otherwise, and then nothing is measured.
    let recorder: RunRecorder?
    private var running = true
    private var lastTitle = ""
    private let logger = Logger(label: "tessera.view")

    /// - Parameters:
    ///   - path: a `.dzi`, a tile folder or an image.
    ///   - options: the viewer's options, as for the strip (its items are ignored): the window, the run's
    ///     script, screenshot and report, the shared cache and decode settings, and `singleView`.
    package init(path: String, options: ViewerOptions) throws {
        self.options = options
        let clock = MonotonicClock()
        self.clock = clock
        recorder = options.report.map { RunRecorder(clock: clock, host: .tiled, recordsFrameTimes: $0.frameTimes) }
        // At start, off the main thread: what earlier runs left over the limit goes now.
        options.diskCache?.requestSweep()
        // Started first, so the helpers warm up and lock down while the window is made.
        let decoding = options.decodingService(helperCount: options.workerCount, pixelLimit: options.pixelLimit)
        self.decoding = decoding
        let executor = WorkExecutor(.threads(options.workerCount), priority: StartPriority.atStart,
                                    memoryBudget: DecodeMemoryBudget(limitBytes: options.decodeMemoryBytes))
        self.executor = executor
        // The image opens, and its first screen of tiles is read, while the renderer is made.
        var opening: TiledOpening?
        host = try WindowHost(options: options, logger: logger) { early in
            opening = TiledOpening.atStart(path: path, early: early, options: options, decoding: decoding, executor: executor)
        }
        view = TiledImageView(path: path, renderer: host.renderer, text: host.text, assets: host.assets,
                              options: options.singleViewOptions(colour: host.colour, decoding: decoding),
                              executor: executor, pixelScale: host.pixelScale, now: clock.now(), waker: host.system.waker,
                              observer: recorder, opening: opening)
        view.pixelScale = host.pixelScale
        updateTitle()
    }

    deinit {
        // The process exits next: a decode still running would meet its libraries torn down.
        executor.shutdown()
        _ = executor.waitForWorkersToExit(timeout: 5)
    }

    /// Runs until the user quits, the script ends, or the frame limit is reached. Returns the report when
    /// one was asked for (`ViewerOptions.report`), after writing it to its path if it has one.
    @discardableResult
    package func run() throws -> RunReport? {
        try FrameLoop(system: host.system, renderer: host.renderer, clock: clock, options: options, observer: recorder).run(self)
        // A sweep of the disk cache under way is seen through, within a bound: removing is quick.
        _ = options.diskCache?.waitForSweeps(timeout: .seconds(2))
        guard let recorder else { return nil }
        var report = recorder.report()
        host.addDisplay(to: &report)
        if let path = options.report?.path { try report.write(to: path) }
        return report
    }

    // MARK: FrameLoopScreen

    var wantsToQuit: Bool { !running }

    func requestQuit() { running = false }

    func isIdle(now: Duration) -> Bool { view.isIdle(now: now) }

    func isStill(now: Duration) -> Bool { view.isStill(now: now) }
    func firstScreenShown() { StartPriority.stepBack(executor: executor, decoding: decoding) }
    func nextWake(now: Duration) -> Duration? { view.nextWake(now: now) }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext {
        let viewport = host.viewportPoints
        return ScriptContext(now: now, viewportWidth: viewport.width, viewportHeight: viewport.height, isScrolling: view.isMoving, isIdle: idle,
                             isAtStart: view.isAtLeftEdge, isAtEnd: view.isAtRightEdge)
    }

    func handle(_ event: InputEvent, now: Duration) {
        switch event {
        case .quit:
            running = false
        case .resized:
            view.pixelScale = host.pixelScale
        case .keyDown(let combo, _):
            switch options.keyBindings.action(for: combo, in: .single) {
            case .fullscreen?: host.window.switchFullscreen(!host.window.isFullscreen)
            case .pause?, .pauseOrNext?: view.toggleAnimationPause(now: now)
            case let action?: act(on: view.perform(action, now: now))
            case nil: break
            }
        default:
            act(on: view.handle(event, now: now))
        }
    }

    private func act(on request: TiledViewAction?) {
        switch request {
        case .close, .quit: running = false
        case .showPrevious, .showNext, nil: break
        }
    }


    func renderFrame(now: Duration) {
        view.update(now: now)
        view.render(now: now)
        // The panning frames, singled out in the report.
        if view.isMoving { recorder?.frameShowedMotion() }
        updateTitle()
    }

    private func updateTitle() {
        let title = "\(view.title) - Tessera"
        if title != lastTitle {
            host.window.setTitle(title)
            lastTitle = title
        }
    }
}
