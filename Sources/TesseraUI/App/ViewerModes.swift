import TesseraCore
import TesseraSDL

/// Which view has the window, the strip or one image alone and zoomable (Enter), and where input goes:
/// keys and the mouse to the view shown, file changes to the strip (the single view follows its image),
/// the window title to what is selected. Main thread only.
final class ViewerModes {
    enum Mode { case strip, detail }

    private(set) var mode = Mode.strip
    /// The image alone, zoomable; nil in the strip.
    private(set) var detail: TiledImageView?
    /// Figures of the zoomable views closed so far, for the report.
    private(set) var closedDetailMetrics: [TiledViewMetrics] = []
    /// File changes handed to the strip so far, for the report.
    private(set) var fileChangesApplied = 0
    /// Set when the user or the script asked to quit.
    private(set) var wantsToQuit = false

    private let parts: ViewerWiring
    private var model: CarouselModel { parts.model }
    private var pointScale: Double
    /// The selection the window title names.
    private var titledSelection: Int?
    /// Mouse press bookkeeping to tell a click from a drag.
    private var press: (x: Double, y: Double, moved: Bool)?

    init(parts: ViewerWiring) {
        self.parts = parts
        pointScale = parts.viewportPoints.scale
        updateTitle()
    }

    /// The figures of every zoomable view shown, the open one included.
    var detailMetrics: [TiledViewMetrics] { closedDetailMetrics + (detail.map { [$0.metrics] } ?? []) }

    // MARK: Frame

    /// Updates and draws the view shown; when `timed`, returns how long each phase took by `clock`.
    func drawFrame(now: Duration, clock: MonotonicClock, timed: Bool) -> FramePhases {
        switch mode {
        case .strip:
            let started = timed ? clock.now() : now
            model.update(now: now)
            // A scroll that came to rest can have moved the selection on screen.
            if model.selectedIndex != titledSelection { updateTitle() }
            // Read whether timed or not: the upload budget may follow the time the frame has taken so far.
            let updated = clock.now()
            parts.carouselView.uploadPending(now: now, frameElapsedMs: (updated - now).seconds * 1000)
            let uploaded = timed ? clock.now() : updated
            parts.carouselView.render(now: now)
            guard timed else { return FramePhases() }
            return FramePhases(updateMs: (updated - started).seconds * 1000, uploadMs: (uploaded - updated).seconds * 1000,
                               drawMs: (clock.now() - uploaded).seconds * 1000)
        case .detail:
            // The strip's finished decodes wait in its pipeline's inbox for its next update.
            detail?.pixelScale = pointScale
            let started = timed ? clock.now() : now
            detail?.update(now: now)
            let updated = timed ? clock.now() : now
            detail?.render(now: now)
            guard timed else { return FramePhases() }
            return FramePhases(updateMs: (updated - started).seconds * 1000, uploadMs: 0,
                               drawMs: (clock.now() - updated).seconds * 1000)
        }
    }

    func isIdle(now: Duration) -> Bool {
        switch mode {
        case .strip: return !model.isAnimating(now: now)
        case .detail: return detail?.isIdle(now: now) ?? true
        }
    }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext {
        let viewport = model.layout.viewportSize
        if mode == .detail, let detail {
            return ScriptContext(now: now, viewportWidth: viewport.width, viewportHeight: viewport.height,
                                 isScrolling: detail.isMoving, isIdle: idle, isAtStart: detail.isAtLeftEdge,
                                 isAtEnd: detail.isAtRightEdge)
        }
        return ScriptContext(now: now, viewportWidth: viewport.width, viewportHeight: viewport.height,
                             isScrolling: model.scroll.isMoving || model.scroll.isTracking, isIdle: idle,
                             isAtStart: model.scroll.offset <= 0.5, isAtEnd: model.scroll.offset >= model.scroll.maxOffset - 0.5)
    }

    // MARK: File changes

    /// Hands what the watcher saw to the strip; the single-image view follows its image: reloaded when it
    /// changed, the next image when it was deleted.
    func applyFileChanges(now: Duration) {
        let changes = parts.fileChanges.drain()
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

    // MARK: Input

    func handle(_ event: InputEvent, now: Duration) {
        if case .quit = event { wantsToQuit = true; return }
        if case .resized = event {
            let points = parts.viewportPoints
            pointScale = points.scale
            model.resize(viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
            parts.carouselView.prepareCellTextures()
            return
        }
        if case .keyDown(let combo, _) = event {
            let view: KeyBindings.View = mode == .strip ? .strip : .single
            guard let action = parts.options.keyBindings.action(for: combo, in: view) else { return }
            perform(action, now: now)
            return
        }
        switch mode {
        case .strip: handleStrip(event, now: now)
        case .detail: handleDetail(event, now: now)
        }
    }

    private func handleStrip(_ event: InputEvent, now: Duration) {
        switch event {
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

    private func perform(_ action: ViewerAction, now: Duration) {
        if action == .fullscreen {
            parts.window.switchFullscreen(!parts.window.isFullscreen)
            return
        }
        switch mode {
        case .strip:
            switch action {
            case .left: model.moveSelection(columns: -1, time: now)
            case .right: model.moveSelection(columns: 1, time: now)
            case .up: model.moveSelection(rows: -1, time: now)
            case .down: model.moveSelection(rows: 1, time: now)
            case .next: model.select(model.selectedIndex + 1, time: now)
            case .previous: model.select(model.selectedIndex - 1, time: now)
            case .pageBack: model.moveSelection(pages: -1, time: now)
            case .pageForward: model.moveSelection(pages: 1, time: now)
            case .first: model.selectFirst(time: now)
            case .last: model.selectLast(time: now)
            case .open: openSelected(now: now)
            case .quit: wantsToQuit = true
            case .info: parts.carouselView.showsOverlay.toggle()
            default: break
            }
            updateTitle()
        case .detail:
            act(on: detail?.perform(action, now: now), now: now)
        }
    }

    private func handleDetail(_ event: InputEvent, now: Duration) {
        act(on: detail?.handle(event, now: now), now: now)
    }

    private func act(on request: TiledViewAction?, now: Duration) {
        switch request {
        case .close: closeDetail(now: now)
        case .quit: wantsToQuit = true
        case .showPrevious: stepDetail(by: -1, now: now)
        case .showNext: stepDetail(by: 1, now: now)
        case nil: break
        }
    }

    // MARK: Modes

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
            guard case .ready(let localPath, _)? = parts.remote?.state(of: item.path) else { return false }
            path = localPath
        }
        if let old = detail { closedDetailMetrics.append(old.metrics) }
        parts.pipeline.retainOnly([])
        var tiled = TiledViewOptions()
        tiled.fade = model.fade
        tiled.pixelLimit = parts.options.pixelLimit
        detail = TiledImageView(path: path, displayName: item.displayName, renderer: parts.renderer, text: parts.text,
                                assets: parts.assets, options: tiled, pixelScale: pointScale, now: now,
                                preview: model.cachedImage(for: index), waker: parts.system.waker)
        return true
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
            parts.window.setTitle("No images - Tessera")
            return
        }
        let item = model.items[model.selectedIndex]
        parts.window.setTitle("\(item.displayName) (\(model.selectedIndex + 1)/\(model.items.count)) - Tessera")
    }
}
