import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraRemote
import TesseraSDL

/// The application: owns SDL on the main thread, runs the frame loop, routes input to the strip or the
/// single-image view, and collects the run report.
public final class Viewer {
    private enum Mode { case strip, detail }

    private let options: ViewerOptions
    private let system: SDLSystem
    private let window: Window
    private let renderer: Renderer
    private let coordinator: LoadCoordinator
    /// From the images' colour spaces to the display's; nil with colour management off.
    private let colour: ColourConversion?
    /// Downloads of remote items; nil when every item is a file.
    private let remote: RemoteImageStore?
    /// Watches the browsed folders; nil when not asked for or inotify is unavailable.
    private var watcher: FolderWatcher?
    /// What the watcher saw, waiting for the main thread.
    private let fileChanges = Inbox<ItemChange>()
    private var fileChangesApplied = 0
    private let model: CarouselModel
    private let carouselView: CarouselView
    private let assets: AssetCatalog
    private let text: TextCache
    /// The image alone, zoomable (Enter in the strip); nil in the strip.
    private var detail: TiledImageView?
    /// Figures of the zoomable views closed so far, for the report.
    private var closedDetailMetrics: [TiledViewMetrics] = []
    private var mode = Mode.strip
    private let clock = MonotonicClock()
    private let logger = Logger(label: "tessera.viewer")
    private var running = true
    private var frameSamples: [Double] = []
    /// (seconds since start, frame ms) per frame, kept only when the report asks for them.
    private var frameTimeline: [[Double]] = []
    /// Placeholder cell-frames counted so far, after each frame (for the timeline's third column).
    private var placeholdersAfterFrame: [Int] = []
    /// Milliseconds of each frame's model update, uploads and draw calls (the timeline's last columns):
    /// what the frame time is made of, so a slow frame can be told apart as ours or SDL's.
    private var phasesOfFrame: [FramePhases] = []
    private var pointScale = 1.0
    /// The selection the window title names.
    private var titledSelection: Int?
    // Mouse press bookkeeping to tell a click from a drag.
    private var press: (x: Double, y: Double, moved: Bool)?

    public init(options: ViewerOptions) throws {
        self.options = options
        system = try SDLSystem(headless: options.headless)
        let forcedScale = options.pixelScale ?? 1
        // With a forced scale the window is made in pixels and points are derived from it.
        let sizeFactor = options.pixelScale == nil ? 1 : forcedScale
        window = try Window(system: system, title: "Tessera", width: Int(Double(options.windowWidth) * sizeFactor),
                            height: Int(Double(options.windowHeight) * sizeFactor))
        if options.fullscreen { window.switchFullscreen(true) }
        renderer = try Renderer(window: window, software: options.headless, vsync: !options.headless)
        assets = AssetCatalog(folder: ResourceLocator.resourcesFolder()?.appendingPathComponent("UI"), renderer: renderer)
        text = TextCache(renderer: renderer, fontPath: Font.defaultPath())
        if !text.hasFont { logger.warning("no TrueType font found (install fonts-dejavu-core); text is hidden") }

        colour = DisplayColour.conversion(for: window, enabled: options.colourManagement)
        let imageLoader = ImageLoader(decoders: ImageDecoders.viewer, pixelLimit: options.pixelLimit, colour: colour)
        let loader = ThumbnailingLoader(loader: imageLoader, store: options.useThumbnailCache ? ThumbnailStore() : nil)
        let logger = self.logger
        let cache = CostCache<ImageKey, PixelBuffer>(countLimit: options.cacheCountLimit,
                                                     totalCostLimit: options.cacheLimitBytes)
        let waker = system.waker
        let remote = options.items.contains(where: \.isRemote)
            ? RemoteImageStore(configuration: options.downloads, onChange: { waker.wake() }) : nil
        self.remote = remote
        coordinator = LoadCoordinator(
            cache: cache,
            scheduler: WorkScheduler(workerCount: options.workerCount, priority: .background),
            cancellableLoader: { key, cancellation in
                do {
                    guard CarouselItem.isRemote(key.path) else {
                        return try loader.load(path: key.path, fitting: key.fittingBox, cancellation: cancellation)
                    }
                    // A download is decoded from its cached copy, without the shared thumbnail cache (that
                    // is for the user's files, not for our private downloads).
                    guard case .ready(let localPath, _)? = remote?.state(of: key.path) else {
                        throw LoadFailure(shortText: "Not downloaded", detail: "\(key.path): not downloaded yet")
                    }
                    return try imageLoader.load(path: localPath, fitting: key.fittingBox, cancellation: cancellation)
                } catch let error as ImageLoadError where error.reason == .cancelled {
                    throw DecodeCancelled()  // nobody wants it any more: not a failure
                } catch let error as ImageLoadError {
                    logger.warning("cannot show \(key.path): \(error.reason.shortText)")
                    throw LoadFailure(shortText: error.reason.shortText, detail: error.description)
                }
            },
            onCompletion: { waker.wake() })

        let points = Self.viewportPoints(window: window, renderer: renderer, forcedScale: options.pixelScale)
        pointScale = points.scale
        model = CarouselModel(items: options.items, configuration: options.carousel, coordinator: coordinator,
                              remote: remote, strategy: LoadingStrategies.make(options.strategy, preload: options.carousel.preload),
                              viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
        carouselView = CarouselView(model: model, renderer: renderer, assets: assets, text: text,
                                    uploadBudgetBytes: options.uploadBudgetBytes)
        // Named UI images and the overlay font load once here, not inside the first frames.
        carouselView.prepareIcons()
        carouselView.prepareCellTextures()
        _ = text.texture("0123456789 / ", size: Int(16 * points.scale), color: Theme.dimText)
        updateTitle()
        startWatching()
    }

    deinit {
        watcher?.stop()
        remote?.shutdown()
        coordinator.shutdown()
    }

    /// Watches the browsed folders. A folder that cannot be watched (no inotify, watch limit reached)
    /// costs a warning, not the run: the strip just does not follow changes.
    private func startWatching() {
        guard let targets = options.watch, !(targets.folders.isEmpty && targets.files.isEmpty) else { return }
        let inbox = fileChanges
        let waker = system.waker
        do {
            // What the strip was built from: a file changed before the watches are in place still counts.
            var baseline: [String: FileVersion] = [:]
            for item in options.items where !item.isRemote { if let version = item.version { baseline[item.path] = version } }
            watcher = try FolderWatcher(folders: targets.folders, files: targets.files, recursive: targets.recursive,
                                        baseline: baseline) { changes in
                for change in changes { inbox.push(change) }
                waker.wake()
            }
            logger.info("watching \(targets.folders.count) folder(s) and \(targets.files.count) file(s) for changes")
        } catch {
            logger.warning("not watching for changes: \(error)")
        }
    }

    /// Hands what the watcher saw to the strip; the single-image view follows its image: reloaded when it
    /// changed, the next image when it was deleted.
    private func applyFileChanges(now: Duration) {
        let changes = fileChanges.drain()
        guard !changes.isEmpty else { return }
        fileChangesApplied += changes.count
        let shownItem = model.items.indices.contains(model.selectedIndex) ? model.items[model.selectedIndex] : nil
        model.apply(changes)
        updateTitle()
        guard mode == .detail else { return }
        if model.items.isEmpty {
            closeDetail(now: now)
        } else if model.items[model.selectedIndex] != shownItem {
            showDetail(model.selectedIndex, now: now)
        }
    }

    /// The viewport in points and the device pixels per point.
    private static func viewportPoints(window: Window, renderer: Renderer, forcedScale: Double?)
        -> (width: Double, height: Double, scale: Double) {
        let output = renderer.outputSize
        let scale = forcedScale ?? max(1, Double(output.width) / Double(max(1, window.size.width)))
        return (Double(output.width) / scale, Double(output.height) / scale, scale)
    }

    /// Runs until the user quits, the script ends, or the frame limit is reached.
    @discardableResult
    public func run() throws -> RunReport {
        let result = try FrameLoop(system: system, renderer: renderer, clock: clock, options: options).run(self)
        frameSamples = result.frameSamples
        if options.recordsFrameTimes {
            frameTimeline = zip(result.frameStarts, result.frameSamples).enumerated().map { i, sample in
                let before = i > 0 && i - 1 < placeholdersAfterFrame.count ? placeholdersAfterFrame[i - 1] : 0
                let after = i < placeholdersAfterFrame.count ? placeholdersAfterFrame[i] : before
                let phases = i < phasesOfFrame.count ? phasesOfFrame[i] : FramePhases()
                return [sample.0, sample.1, Double(after - before), phases.updateMs, phases.uploadMs, phases.drawMs]
            }
        }
        let report = makeReport(frames: result.frames)
        if let path = options.reportPath { try report.write(to: path) }
        return report
    }

    // MARK: Frame

    func renderFrame(now: Duration) {
        applyFileChanges(now: now)
        let records = options.recordsFrameTimes
        var phases = FramePhases()
        switch mode {
        case .strip:
            let started = records ? clock.now() : now
            model.update(now: now)
            // A scroll that came to rest can have moved the selection on screen.
            if model.selectedIndex != titledSelection { updateTitle() }
            let updated = clock.now()
            carouselView.uploadPending(now: now, frameElapsedMs: (updated - now).seconds * 1000)
            let uploaded = records ? clock.now() : updated
            carouselView.render(now: now)
            if records {
                phases = FramePhases(updateMs: (updated - started).seconds * 1000,
                                     uploadMs: (uploaded - updated).seconds * 1000,
                                     drawMs: (clock.now() - uploaded).seconds * 1000)
            }
        case .detail:
            // The strip's finished decodes wait in the coordinator's inbox for its next update.
            detail?.pixelScale = pointScale
            let started = records ? clock.now() : now
            detail?.update(now: now)
            let updated = records ? clock.now() : now
            detail?.render(now: now)
            if records {
                phases = FramePhases(updateMs: (updated - started).seconds * 1000, uploadMs: 0,
                                     drawMs: (clock.now() - updated).seconds * 1000)
            }
        }
        // Every frame, the zoom view's too, so the timeline's columns stay in step with its frames.
        if records {
            phasesOfFrame.append(phases)
            placeholdersAfterFrame.append(carouselView.placeholderCellFrames)
        }
    }

    func isIdle(now: Duration) -> Bool {
        switch mode {
        case .strip: return !model.isAnimating(now: now)
        case .detail: return detail?.isIdle(now: now) ?? true
        }
    }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext {
        if mode == .detail, let detail {
            return ScriptContext(now: now, viewportWidth: model.layout.viewportSize.width,
                                 viewportHeight: model.layout.viewportSize.height, isScrolling: detail.isMoving,
                                 isIdle: idle, isAtStart: detail.isAtLeftEdge, isAtEnd: detail.isAtRightEdge)
        }
        return ScriptContext(now: now, viewportWidth: model.layout.viewportSize.width, viewportHeight: model.layout.viewportSize.height,
                             isScrolling: model.scroll.isMoving || model.scroll.isTracking, isIdle: idle,
                             isAtStart: model.scroll.offset <= 0.5, isAtEnd: model.scroll.offset >= model.scroll.maxOffset - 0.5)
    }

    // MARK: Input

    func handle(_ event: InputEvent, now: Duration) {
        if case .quit = event { running = false; return }
        if case .resized = event {
            let points = Self.viewportPoints(window: window, renderer: renderer, forcedScale: options.pixelScale)
            pointScale = points.scale
            model.resize(viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
            carouselView.prepareCellTextures()
            return
        }
        if case .keyDown(.character("f"), _) = event {
            window.switchFullscreen(!window.isFullscreen)
            return
        }
        switch mode {
        case .strip: handleStrip(event, now: now)
        case .detail: handleDetail(event, now: now)
        }
    }

    private func handleStrip(_ event: InputEvent, now: Duration) {
        switch event {
        case .keyDown(let key, _):
            switch key {
            case .left, .character("h"): model.moveSelection(columns: -1, time: now)
            case .right, .character("l"), .space: model.moveSelection(columns: 1, time: now)
            case .up, .character("k"): model.moveSelection(rows: -1, time: now)
            case .down, .character("j"): model.moveSelection(rows: 1, time: now)
            case .pageUp: model.moveSelection(pages: -1, time: now)
            case .pageDown: model.moveSelection(pages: 1, time: now)
            case .home, .character("g"): model.selectFirst(time: now)
            case .end, .character("G"): model.selectLast(time: now)
            case .enter: openSelected(now: now)
            case .escape, .character("q"): running = false
            case .character("i"): carouselView.showsOverlay.toggle()
            default: break
            }
        case .mouseDown(.left, let x, let y, let clicks):
            if clicks >= 2, let index = model.index(atViewportX: x, y: y) {
                model.selectWithoutScrolling(index)
                openSelected(now: now)
                return
            }
            press = (x, y, false)
            model.beginDrag(x: x, time: now)
        case .mouseMotion(let x, let y, let isLeftDown):
            guard isLeftDown, var current = press else { return }
            if abs(x - current.x) > 4 || abs(y - current.y) > 4 { current.moved = true }
            press = current
            model.drag(x: x, time: now)
        case .mouseUp(.left, let x, let y):
            guard let current = press else { return }
            press = nil
            model.endDrag(time: now)
            if !current.moved, let index = model.index(atViewportX: x, y: y) {
                model.selectWithoutScrolling(index)
                // A click on an error cell tries again (a download that failed, a file since fixed).
                if let cell = model.visibleCells.first(where: { $0.index == index }), case .failed = cell.content { model.retry(index) }
            }
        case .wheel(let dx, let dy, _, _):
            // One wheel notch moves about a third of a cell; touchpads send fractions.
            model.scrollBy((dx - dy) * 120, time: now)
        default:
            break
        }
        updateTitle()
    }

    private func openSelected(now: Duration) {
        guard !model.items.isEmpty else { return }
        let index = model.selectedIndex
        if let cell = model.visibleCells.first(where: { $0.index == index }), case .failed = cell.content {
            model.retry(index)
            return
        }
        if showDetail(index, now: now) { mode = .detail }
    }

    /// The zoomable view of item `index`, starting from the strip's cell image while tiles load. The
    /// strip's queued decodes are dropped meanwhile, so tile loads get the workers.
    @discardableResult
    private func showDetail(_ index: Int, now: Duration) -> Bool {
        let item = model.items[index]
        var path = item.path
        if item.isRemote {
            // A download opens from its cached copy; one not here yet is not opened.
            guard case .ready(let localPath, _)? = remote?.state(of: item.path) else { return false }
            path = localPath
        }
        if let old = detail { closedDetailMetrics.append(old.metrics) }
        coordinator.retainOnly([])
        var tiled = TiledViewOptions()
        tiled.fade = model.fade
        tiled.pixelLimit = options.pixelLimit
        tiled.colour = colour
        detail = TiledImageView(path: path, displayName: item.displayName, renderer: renderer, text: text,
                                assets: assets, options: tiled,
                                pixelScale: pointScale, now: now, preview: coordinator.cache.peek(model.key(for: index)),
                                waker: system.waker)
        return true
    }

    private func handleDetail(_ event: InputEvent, now: Duration) {
        switch detail?.handle(event, now: now) {
        case .close: closeDetail(now: now)
        case .quit: running = false
        case .showPrevious: stepDetail(by: -1, now: now)
        case .showNext: stepDetail(by: 1, now: now)
        case nil: break
        }
    }

    private func stepDetail(by delta: Int, now: Duration) {
        let index = min(max(0, model.selectedIndex + delta), model.items.count - 1)
        guard index != model.selectedIndex else { return }
        model.select(index, time: now, animated: false)
        showDetail(index, now: now)
        updateTitle()
    }

    private func closeDetail(now: Duration) {
        mode = .strip
        if let detail { closedDetailMetrics.append(detail.metrics) }
        detail = nil
        model.refreshVisibleCells()
        updateTitle()
    }

    private func updateTitle() {
        titledSelection = model.selectedIndex
        guard !model.items.isEmpty else {
            window.setTitle("No images - Tessera")
            return
        }
        let item = model.items[model.selectedIndex]
        window.setTitle("\(item.displayName) (\(model.selectedIndex + 1)/\(model.items.count)) - Tessera")
    }

    // MARK: Report

    private func makeReport(frames: Int) -> RunReport {
        var report = RunReport()
        report.frames = frames
        report.items = model.items.count
        report.fileChanges = fileChangesApplied
        report.errors = model.knownFailures.map { .init(item: $0.item.path, reason: $0.failure.shortText) }
        if let remote {
            let counters = remote.counterValues
            report.downloads = .init(started: counters.started, completed: counters.completed,
                                     notModified: counters.notModified, failed: counters.failed,
                                     bytes: Int(counters.bytesDownloaded))
        }
        report.frameMs = SampleSummary(samples: frameSamples)
        report.framesOver16ms = frameSamples.filter { $0 > 1000.0 / 60 }.count
        let counters = coordinator.counterValues
        report.decodes = counters.decodes
        report.mainThreadDecodes = counters.mainThreadDecodes
        let stats = coordinator.cache.stats
        report.cache = .init(hits: stats.hits, misses: stats.misses, evictions: stats.evictions,
                             peakCostBytes: stats.peakCost, costLimitBytes: options.cacheLimitBytes)
        report.cellsCreated = model.cellsCreated
        report.placeholderCellFrames = carouselView.placeholderCellFrames
        report.visibleCellFrames = carouselView.visibleCellFrames
        report.fadingFrames = carouselView.fadingFrames
        report.cellTexturesMadeInFrames = carouselView.texturesMadeInFrames
        report.decodedBytes = counters.decodedBytes
        report.strategy = model.strategy.name
        if options.recordsFrameTimes { report.frameTimes = frameTimeline }
        report.uploadBytes = carouselView.uploadBytes
        report.peakRSSBytes = RunReport.peakResidentBytes()
        for metrics in closedDetailMetrics + (detail.map { [$0.metrics] } ?? []) { report.add(metrics) }
        return report
    }
}

extension Viewer: FrameLoopScreen {
    var wantsToQuit: Bool { !running }
}

/// Where one frame's main-thread time went before SDL drew it (`--frame-times`). The draw calls only queue
/// work for SDL's software renderer, which does the copies and fills when the frame is presented: that
/// and the event poll are the frame time these leave out.
struct FramePhases {
    var updateMs = 0.0
    var uploadMs = 0.0
    var drawMs = 0.0
}
