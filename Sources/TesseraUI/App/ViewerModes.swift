import TesseraCore
import TesseraImaging
import TesseraSDL

/// Which view has the window, the strip or one image alone and zoomable, and what moves between them: the
/// image shown alone follows the selection (steps, file changes, turns), the one the slideshow shows next
/// is opened ahead, the mouse goes to the view shown, the window title names the selection. What keys do
/// is `ViewerCommands`' business. Main thread only.
final class ViewerModes {
    enum Mode { case strip, detail }

    private(set) var mode = Mode.strip
    /// The image alone, zoomable; nil in the strip.
    private(set) var detail: TiledImageView?
    /// Set once quitting was asked for and what it waits for is over (`Quitting`).
    var wantsToQuit: Bool { parts.quitting.isDone }

    private let parts: ViewerWiring
    private var model: CarouselModel { parts.model }
    private var pointScale: Double
    /// The item `detail` shows, as it was when opened: a change to it (a new version, a turn) reopens it.
    private var detailItem: CarouselItem?
    /// The image the slideshow shows next, opened ahead (updated each frame, never drawn) so that it is
    /// decoded by the time it is shown.
    private var upcoming: (item: CarouselItem, view: TiledImageView)?
    /// The selection the window title names.
    private var titledSelection: Int?
    /// The mouse and the wheel over the strip.
    private var pointer = StripPointerInput()
    /// The strip's selected cell, playing when it is an animation.
    private let stripAnimation: SelectedCellAnimation

    init(parts: ViewerWiring) {
        self.parts = parts
        pointScale = parts.viewportPoints.scale
        stripAnimation = SelectedCellAnimation(renderer: parts.renderer, colour: parts.colour,
                                               pixelLimit: parts.options.pixelLimit, helpers: parts.decodeHelpers,
                                               waker: parts.system.waker, observer: parts.observer)
        updateTitle()
    }

    /// Which bindings apply.
    var view: KeyBindings.View { mode == .strip ? .strip : .single }

    /// A request to quit: the key, the window's close button, a signal, the end of a script.
    func quit() { parts.quitting.request() }

    // MARK: Frame

    /// Updates and draws the view shown, then `overlay` over it, telling a measured run's observer where
    /// the frame's time goes. `clock` is the frame loop's: the strip's upload budget may follow the time
    /// the frame has taken.
    func drawFrame(now: Duration, clock: any FrameClock, overlay: () -> Void) {
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
            parts.carouselView.animatedCell = stripAnimation.update(model: model, now: now)
            observer?.phaseEnded(.upload)
            observer?.phaseBegan(.draw)
            parts.carouselView.render(now: now)
            overlay()
            observer?.phaseEnded(.draw)
        case .detail:
            // The strip's finished decodes wait in its pipeline's inbox for its next update.
            detail?.pixelScale = pointScale
            upcoming?.view.pixelScale = pointScale
            observer?.phaseBegan(.update)
            detail?.update(now: now)
            upcoming?.view.update(now: now)
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.draw)
            detail?.render(now: now)
            overlay()
            observer?.phaseEnded(.draw)
        }
    }

    func isIdle(now: Duration) -> Bool {
        switch mode {
        case .strip: return !model.isAnimating(now: now)
        case .detail: return (detail?.isIdle(now: now) ?? true) && (upcoming?.view.isIdle(now: now) ?? true)
        }
    }

    /// Frames the strip's selected cell has put up since it was selected (for tests).
    var stripAnimationFramesShown: Int { stripAnimation.framesShown }

    /// When the animation shown must move on by itself (the loop sleeps until then when idle).
    var nextWake: Duration? {
        switch mode {
        case .strip: return stripAnimation.nextWake
        case .detail: return detail?.nextAnimationFrameAt
        }
    }

    /// Pauses or resumes the animation shown; nil when what is shown is not an animation, else whether it
    /// is paused now.
    func togglePause(now: Duration) -> Bool? {
        guard mode == .detail, let detail, detail.toggleAnimationPause(now: now) else { return nil }
        return detail.isAnimationPaused
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

    // MARK: Changes to the items

    /// Hands what the watcher saw to the strip.
    func applyFileChanges(now: Duration) {
        let changes = parts.fileChanges.drain()
        guard !changes.isEmpty else { return }
        parts.observer?.fileChangesApplied(changes.count)
        apply(changes, now: now)
    }

    /// Applies changes to the items, from the watcher or from the viewer's own actions (which do not wait
    /// for the watcher: it may be off, or late); the single view follows its image.
    func apply(_ changes: [ItemChange], now: Duration) {
        guard !changes.isEmpty else { return }
        model.apply(changes)
        itemsChanged(now: now)
    }

    /// After the items changed (in content, turn, order or number): the single view follows the selected
    /// image, reloaded when it changed, the next one when it went; the title follows too.
    func itemsChanged(now: Duration) {
        updateTitle()
        guard mode == .detail else { return }
        if model.items.isEmpty {
            close(now: now)
        } else if model.selectedItem != detailItem {
            showDetail(model.selectedIndex, now: now)
        }
    }

    // MARK: Input

    /// Everything but keys, which `ViewerCommands` reads: the window, the mouse and the wheel.
    func handle(_ event: InputEvent, now: Duration) {
        if case .quit = event { quit(); return }
        if case .resized = event {
            let points = parts.viewportPoints
            pointScale = points.scale
            model.resize(viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
            parts.carouselView.prepareCellTextures()
            return
        }
        switch mode {
        case .strip:
            if pointer.handle(event, model: model, now: now) == .open { open(now: now) }
            updateTitle()
        case .detail:
            _ = detail?.handle(event, now: now)
        }
    }

    /// A key's action that belongs to the view shown: moving in the strip, zooming and panning alone. In
    /// the single view, returns what the view asks of its host (a step, closing, quitting).
    func perform(_ action: ViewerAction, now: Duration) -> TiledViewAction? {
        guard mode == .strip else { return detail?.perform(action, now: now) }
        switch action {
        case .left: model.moveSelection(columns: -1, time: now)
        case .right: model.moveSelection(columns: 1, time: now)
        case .up: model.moveSelection(rows: -1, time: now)
        case .down: model.moveSelection(rows: 1, time: now)
        case .pageBack: model.moveSelection(pages: -1, time: now)
        case .pageForward: model.moveSelection(pages: 1, time: now)
        case .open: open(now: now)
        default: break
        }
        updateTitle()
        return nil
    }

    // MARK: Modes

    /// The selected image alone (Enter); on an error cell, tries it again instead.
    func open(now: Duration) {
        guard !model.items.isEmpty else { return }
        let index = model.selectedIndex
        if let cell = model.visibleCells.first(where: { $0.index == index }), case .failed = cell.content {
            model.retry(index)
            return
        }
        if showDetail(index, now: now) {
            mode = .detail
            stripAnimation.stop()
            parts.carouselView.animatedCell = nil
        }
    }

    /// Selects item `index`: in the single view, shows it there (from the strip's cell image while it
    /// loads); in the strip, scrolls to it.
    func go(to index: Int, now: Duration) {
        guard model.items.indices.contains(index) else { return }
        switch mode {
        case .strip:
            model.select(index, time: now)
        case .detail:
            guard index != model.selectedIndex || detail == nil else { return }
            model.select(index, time: now, animated: false)
            showDetail(index, now: now)
        }
        updateTitle()
    }

    /// Back to the strip, scrolled to show the image that was shown alone.
    func close(now: Duration) {
        mode = .strip
        detail = nil
        detailItem = nil
        upcoming = nil
        model.select(model.selectedIndex, time: now, animated: false)
        model.refreshVisibleCells()
        updateTitle()
    }

    /// The zoomable view of item `index`, starting from the strip's cell image while tiles load (or the
    /// slideshow's view of it, opened ahead). The strip's queued decodes are dropped meanwhile, so tile
    /// loads get the workers.
    @discardableResult
    private func showDetail(_ index: Int, now: Duration) -> Bool {
        let item = model.items[index]
        parts.pipeline.retainOnly([])
        if let upcoming, upcoming.item == item {
            detail = upcoming.view
            detail?.playsAnimation = true
            // Shown now: its tiles go before the strip's and any other image's.
            detail?.rank = .visible
            self.upcoming = nil
        } else {
            guard let view = makeView(of: index, now: now, observer: parts.observer) else { return false }
            detail = view
        }
        detailItem = item
        return true
    }

    /// A zoomable view of item `index`, its work at `rank`, heard by `observer` when measured; nil for a
    /// download not here yet.
    private func makeView(of index: Int, rank: WorkRank = .visible, now: Duration,
                          observer: (any RunObserver)?) -> TiledImageView? {
        let item = model.items[index]
        var path = item.path
        if item.isRemote {
            // A download opens from its cached copy; one not here yet is not opened.
            guard case .ready(let localPath, _)? = parts.remote?.state(of: item.path) else { return nil }
            path = localPath
        }
        var tiled = TiledViewOptions()
        tiled.fade = model.fade
        tiled.pixelLimit = parts.options.pixelLimit
        tiled.turn = ImageOrientation(rawValue: item.sessionOrientation) ?? .up
        tiled.colour = parts.colour
        tiled.decodeHelpers = parts.decodeHelpers
        tiled.diskCache = parts.options.diskCache
        return TiledImageView(path: path, displayName: item.displayName, renderer: parts.renderer, text: parts.text,
                              assets: parts.assets, options: tiled, executor: parts.executor, rank: rank,
                              pixelScale: pointScale, now: now,
                              preview: model.cachedImage(for: index), waker: parts.system.waker, observer: observer)
    }

    // MARK: Slideshow

    /// Opens item `index` ahead, unless it is open already: the slideshow's next image.
    func prepareUpcoming(_ index: Int, now: Duration) {
        guard mode == .detail, model.items.indices.contains(index) else { return }
        let item = model.items[index]
        if upcoming?.item == item || (index == model.selectedIndex && detailItem == item) { return }
        // Not measured: a report's zoomable views are those opened to be seen.
        // Its opening and tiles wait behind the image shown.
        upcoming = makeView(of: index, rank: .preload, now: now, observer: nil).map { (item, $0) }
        // Opened ahead to be decoded, not seen: an animation waits until it is shown.
        upcoming?.view.playsAnimation = false
    }

    /// Whether item `index` is opened ahead and shows sharp (or failed, which the slideshow shows too).
    func isReadyToShow(_ index: Int) -> Bool {
        guard let upcoming, model.items.indices.contains(index), upcoming.item == model.items[index] else { return false }
        return upcoming.view.isSharp || upcoming.view.errorText != nil
    }

    /// The slideshow stopped: its next image need not load.
    func dropUpcoming() { upcoming = nil }

    private func updateTitle() {
        titledSelection = model.selectedIndex
        guard let item = model.selectedItem else {
            parts.window.setTitle("No images - Tessera")
            return
        }
        parts.window.setTitle("\(item.displayName) (\(model.selectedIndex + 1)/\(model.items.count)) - Tessera")
    }
}
