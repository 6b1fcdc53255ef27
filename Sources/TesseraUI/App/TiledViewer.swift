import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL

/// `tessera view PATH`: one `TiledImageView` in a window of its own, run by the same `FrameLoop` as the
/// strip (pacing, script, screenshot, report). Keys are the single view's bindings: closing (Esc) or quitting
/// (q) ends it, f toggles fullscreen.
public final class TiledViewer: FrameLoopScreen {
    private let options: ViewerOptions
    private let system: SDLSystem
    private let window: Window
    private let renderer: Renderer
    private let text: TextCache
    private let assets: AssetCatalog
    private let view: TiledImageView
    /// Runs the view's work: the process's one executor.
    private let executor: WorkExecutor
    private let clock: MonotonicClock
    /// Hears the run when a report is asked for; nil otherwise, and then nothing is measured.
    let recorder: RunRecorder?
    private var running = true
    private var lastTitle = ""

    /// - Parameters:
    ///   - path: a `.dzi`, a tile folder or an image.
    ///   - options: window, headless run, script, screenshot and report settings (its items are ignored).
    public init(path: String, options: ViewerOptions, view viewOptions: TiledViewOptions) throws {
        self.options = options
        let clock = MonotonicClock()
        self.clock = clock
        recorder = options.report.map { _ in RunRecorder(clock: clock, host: .tiled) }
        var viewOptions = viewOptions
        if viewOptions.diskCache == nil, let diskCache = options.diskCache {
            viewOptions.diskCache = diskCache
            // At start, off the main thread: what earlier runs left over the limit goes now.
            diskCache.requestSweep()
        }
        // Started first, so the helpers warm up and lock down while the window is made.
        if viewOptions.decodeHelpers == nil {
            viewOptions.decodeHelpers = options.decodeHelperPool(helperCount: viewOptions.workerCount,
                                                                 pixelLimit: viewOptions.pixelLimit)
        }
        system = try SDLSystem(headless: options.headless)
        let sizeFactor = options.pixelScale ?? 1
        window = try Window(system: system, title: "Tessera", width: Int(Double(options.windowWidth) * sizeFactor),
                            height: Int(Double(options.windowHeight) * sizeFactor))
        if options.fullscreen { window.switchFullscreen(true) }
        renderer = try Renderer(window: window, software: options.headless, vsync: !options.headless)
        assets = AssetCatalog(folder: ResourceLocator.resourcesFolder()?.appendingPathComponent("UI"), renderer: renderer)
        text = TextCache(renderer: renderer, fontPath: Font.defaultPath())
        viewOptions.colour = DisplayColour.conversion(for: window, enabled: options.colourManagement)
        executor = WorkExecutor(.threads(viewOptions.workerCount), priority: .background,
                                memoryBudget: viewOptions.decodeMemory)
        view = TiledImageView(path: path, renderer: renderer, text: text, assets: assets, options: viewOptions,
                              executor: executor, pixelScale: 1, now: clock.now(), waker: system.waker, observer: recorder)
        view.pixelScale = pixelScale
        updateTitle()
    }

    deinit {
        // The process exits next: a decode still running would meet its libraries torn down.
        executor.shutdown()
        _ = executor.waitForWorkersToExit(timeout: 5)
    }

    /// Device pixels per point: forced by the options, or the window's (HiDPI).
    private var pixelScale: Double {
        options.pixelScale ?? max(1, Double(renderer.outputSize.width) / Double(max(1, window.size.width)))
    }

    /// Runs until the user quits, the script ends, or the frame limit is reached. Returns the report when
    /// one was asked for (`ViewerOptions.report`), after writing it to its path if it has one.
    @discardableResult
    public func run() throws -> RunReport? {
        try FrameLoop(system: system, renderer: renderer, clock: clock, options: options, observer: recorder).run(self)
        // A sweep of the disk cache under way is seen through, within a bound: removing is quick.
        _ = options.diskCache?.waitForSweeps(timeout: .seconds(2))
        guard let recorder else { return nil }
        let report = recorder.report()
        if let path = options.report?.path { try report.write(to: path) }
        return report
    }

    // MARK: FrameLoopScreen

    var wantsToQuit: Bool { !running }

    func requestQuit() { running = false }

    func isIdle(now: Duration) -> Bool { view.isIdle(now: now) }

    func nextWake(now: Duration) -> Duration? { view.nextAnimationFrameAt }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext {
        let output = renderer.outputSize
        return ScriptContext(now: now, viewportWidth: Double(output.width) / pixelScale,
                             viewportHeight: Double(output.height) / pixelScale, isScrolling: view.isMoving, isIdle: idle,
                             isAtStart: view.isAtLeftEdge, isAtEnd: view.isAtRightEdge)
    }

    func handle(_ event: InputEvent, now: Duration) {
        switch event {
        case .quit:
            running = false
        case .resized:
            view.pixelScale = pixelScale
        case .keyDown(let combo, _):
            switch options.keyBindings.action(for: combo, in: .single) {
            case .fullscreen?: window.switchFullscreen(!window.isFullscreen)
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
            window.setTitle(title)
            lastTitle = title
        }
    }
}
