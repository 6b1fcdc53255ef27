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

    // MARK: Frame

    /// Updates and draws the view shown, telling a measured run's observer where the frame's time goes.
    /// `clock` is the frame loop's: the strip's upload budget may follow the time the frame has taken.
    func drawFrame(now: Duration, clock: any FrameClock) {
        let observer = parts.observer
        switch mode {
        case .strip:
            observer?.phaseBegan(.update)
            model.update(now: now)
            // A scroll that came to rest can have moved the selection on screen.
            if model.selectedIndex != titledSelection { updateTitle() }
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.upload)
            parts.carouselView.uploadPending(now: now, frameElapsedMs: (clock.now() - now).seconds * 1000)
            observer?.phaseEnded(.upload)
            observer?.phaseBegan(.draw)
            parts.carouselView.render(now: now)
            observer?.phaseEnded(.draw)
        case .detail:
            // The strip's finished decodes wait in its pipeline's inbox for its next update.
            detail?.pixelScale = pointScale
            observer?.phaseBegan(.update)
            detail?.update(now: now)
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.draw)
            detail?.render(now: now)
            observer?.phaseEnded(.draw)
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
        parts.observer?.fileChangesApplied(changes.count)
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
        if case .keyDown(.character("f"), _) = event {
            parts.window.switchFullscreen(!parts.window.isFullscreen)
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
            case .escape, .character("q"): wantsToQuit = true
            case .character("i"): parts.carouselView.showsOverlay.toggle()
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

    private func handleDetail(_ event: InputEvent, now: Duration) {
        switch detail?.handle(event, now: now) {
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
        parts.pipeline.retainOnly([])
        var tiled = TiledViewOptions()
        tiled.fade = model.fade
        tiled.pixelLimit = parts.options.pixelLimit
        tiled.colour = parts.colour
        detail = TiledImageView(path: path, displayName: item.displayName, renderer: parts.renderer, text: parts.text,
                                assets: parts.assets, options: tiled, pixelScale: pointScale, now: now,
                                preview: model.cachedImage(for: index), waker: parts.system.waker, observer: parts.observer)
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
