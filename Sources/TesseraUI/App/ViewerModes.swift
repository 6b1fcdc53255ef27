import TesseraCore
import TesseraImaging
import TesseraSDL

/// Which view has the window, the strip or one image alone and zoomable, and what moves between them: the
/// image shown alone follows the selection (steps, file changes, turns), the one the slideshow shows next
/// is opened ahead, the mouse goes to the view shown, the window title names the selection. What keys do
/// is `ViewerCommands`' business. Main thread only.
final class ViewerModes {
    enum Mode { case strip, detail, compare }

    private(set) var mode = Mode.strip
    /// The image alone, zoomable; nil in the strip.
    private(set) var detail: TiledImageView?
    /// Which image of the file the single view shows (counted from 0: a multi-page TIFF's page).
    private(set) var detailPage = 0
    /// The images side by side; nil outside the compare view.
    private(set) var compare: ComparePanes?
    /// The view the compare view returns to.
    private var modeBeforeCompare = Mode.strip
    /// When the first compare of the run began, and how long after it every pane was sharp.
    private var firstCompareStart: Duration?
    private(set) var firstCompareSharpAfter: Duration?
    /// The zoomable view shown with the keys: the single view's, or the compare view's focused pane's.
    var shownView: TiledImageView? { compare?.focusedPane.view ?? detail }
    /// Set once quitting was asked for and what it waits for is over (`Quitting`).
    var wantsToQuit: Bool { quitting.isDone }

    private let host: WindowHost
    private let model: CarouselModel
    private let carouselView: CarouselView
    private let pipeline: ImagePipeline
    private let quitting: Quitting
    /// What the watcher saw, waiting for the main thread.
    private let fileChanges: Inbox<ItemChange>
    private let singleViews: SingleViewMaker
    /// Hears the run when a report is asked for.
    private let observer: (any RunObserver)?
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
    /// The single view's row of neighbouring thumbnails, and whether it is shown.
    private let filmStrip: FilmStrip
    private(set) var showsFilmStrip = false

    init(host: WindowHost, model: CarouselModel, carouselView: CarouselView, pipeline: ImagePipeline,
         quitting: Quitting, fileChanges: Inbox<ItemChange>, singleViews: SingleViewMaker,
         stripAnimation: SelectedCellAnimation, observer: (any RunObserver)?) {
        self.host = host
        self.model = model
        self.carouselView = carouselView
        self.pipeline = pipeline
        self.quitting = quitting
        self.fileChanges = fileChanges
        self.singleViews = singleViews
        self.stripAnimation = stripAnimation
        self.observer = observer
        filmStrip = FilmStrip(renderer: host.renderer)
        pointScale = host.viewportPoints.scale
        updateTitle()
    }

    /// Which bindings apply: the compare view's panes are single views.
    var view: KeyBindings.View { mode == .strip ? .strip : .single }

    /// A request to quit: the key, the window's close button, a signal, the end of a script.
    func quit() { quitting.request() }

    // MARK: Frame

    /// Updates and draws the view shown, then `overlay` over it, telling a measured run's observer where
    /// the frame's time goes. `clock` is the frame loop's: the strip's upload budget may follow the time
    /// the frame has taken.
    func drawFrame(now: Duration, clock: any FrameClock, overlay: () -> Void) {
        switch mode {
        case .strip:
            observer?.phaseBegan(.update)
            model.update(now: now)
            // A scroll that came to rest can have moved the selection on screen.
            if model.selectedIndex != titledSelection { updateTitle() }
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.upload)
            carouselView.uploadPending(now: now, frameElapsedMs: (clock.now() - now).seconds * 1000)
            carouselView.animatedCell = stripAnimation.update(model: model, now: now)
            observer?.phaseEnded(.upload)
            observer?.phaseBegan(.draw)
            carouselView.render(now: now)
            overlay()
            observer?.phaseEnded(.draw)
        case .detail:
            // The strip's finished decodes wait in its pipeline's inbox for its next update, unless the
            // film strip shows its pictures around the selection.
            detail?.pixelScale = pointScale
            upcoming?.view.pixelScale = pointScale
            let output = host.renderer.outputSize
            detail?.pane = showsFilmStrip
                ? PixelRect(x: 0, y: 0, width: output.width, height: max(1, output.height - FilmStrip.reservedHeight(scale: pointScale)))
                : nil
            observer?.phaseBegan(.update)
            if showsFilmStrip { model.update(now: now) }
            detail?.update(now: now)
            upcoming?.view.update(now: now)
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.draw)
            if showsFilmStrip { host.renderer.clear(Theme.background) }
            detail?.render(now: now)
            if showsFilmStrip { filmStrip.draw(model: model, selected: model.selectedIndex, in: output, scale: pointScale) }
            overlay()
            observer?.phaseEnded(.draw)
        case .compare:
            guard let compare else { return }
            observer?.phaseBegan(.update)
            compare.update(output: host.renderer.outputSize, pixelScale: pointScale, now: now)
            followFocusedPane(now: now)
            if firstCompareSharpAfter == nil, let start = firstCompareStart, compare.isSharp {
                firstCompareSharpAfter = now - start
            }
            observer?.phaseEnded(.update)
            observer?.phaseBegan(.draw)
            compare.render(renderer: host.renderer, text: host.text,
                           rating: { [model] item in model.index(of: item.path).flatMap(model.rating(of:)) },
                           now: now)
            overlay()
            observer?.phaseEnded(.draw)
        }
    }

    /// The strip fills, nothing moving: its frames only show pictures landing and fades while decodes run
    /// (see `FrameLoopScreen.mayPaceFrames`).
    func mayPaceFrames(now: Duration) -> Bool { mode == .strip && model.isFilling(now: now) }

    /// Nothing on screen changes until input or a worker's wake (see `FrameLoopScreen.isStill`).
    func isStill(now: Duration) -> Bool {
        switch mode {
        case .strip: return !model.changesOnScreen(now: now)
        case .detail: return detail?.isStill(now: now) ?? true
        case .compare: return compare?.isStill(now: now) ?? true
        }
    }

    func isIdle(now: Duration) -> Bool {
        switch mode {
        case .strip: return !model.isAnimating(now: now)
        case .detail: return (detail?.isIdle(now: now) ?? true) && (upcoming?.view.isIdle(now: now) ?? true)
        case .compare: return compare?.isIdle(now: now) ?? true
        }
    }

    /// Frames the strip's selected cell has put up since it was selected (for tests).
    var stripAnimationFramesShown: Int { stripAnimation.framesShown }

    /// When the animation shown must move on by itself (the loop sleeps until then when idle).
    func nextWake(now: Duration) -> Duration? {
        switch mode {
        case .strip: return stripAnimation.nextWake
        case .detail: return detail?.nextWake(now: now)
        case .compare: return compare?.nextWake(now: now)
        }
    }

    /// Pauses or resumes the animation shown; nil when what is shown is not an animation, else whether it
    /// is paused now.
    func togglePause(now: Duration) -> Bool? {
        guard mode != .strip, let view = shownView, view.toggleAnimationPause(now: now) else { return nil }
        return view.isAnimationPaused
    }

    func scriptContext(now: Duration, idle: Bool) -> ScriptContext {
        let viewport = model.layout.viewportSize
        if mode != .strip, let detail = shownView {
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
        let changes = fileChanges.drain()
        guard !changes.isEmpty else { return }
        observer?.fileChangesApplied(changes.count)
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
        if mode == .compare { compareItemsChanged(now: now) }
        guard mode == .detail else { return }
        if model.items.isEmpty {
            close(now: now)
        } else if model.selectedItem != detailItem {
            // A turn of the same file keeps the page shown; another file, or a changed one, starts at its first.
            let page = model.selectedItem.map { $0.path == detailItem?.path && $0.version == detailItem?.version } == true
                ? detailPage : 0
            showDetail(model.selectedIndex, now: now)
            if page > 0 { showPage(page, now: now) }
        }
    }

    // MARK: Input

    /// Everything but keys, which `ViewerCommands` reads: the window, the mouse and the wheel.
    func handle(_ event: InputEvent, now: Duration) {
        if case .quit = event { quit(); return }
        if case .resized = event {
            let points = host.viewportPoints
            pointScale = points.scale
            model.resize(viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
            carouselView.prepareCellTextures()
            return
        }
        switch mode {
        case .strip:
            if pointer.handle(event, model: model, now: now) == .open { open(now: now) }
            updateTitle()
        case .detail:
            if showsFilmStrip, case .mouseDown(.left, let x, let y, _) = event,
               let index = filmStrip.index(atX: x, y: y, scale: pointScale) {
                go(to: index, now: now)
                return
            }
            _ = detail?.handle(event, now: now)
        case .compare:
            _ = compare?.handle(event, now: now)
            followFocusedPane(now: now)
        }
    }

    /// A key's action that belongs to the view shown: moving in the strip, zooming and panning alone. In
    /// the single view, returns what the view asks of its host (a step, closing, quitting).
    func perform(_ action: ViewerAction, now: Duration) -> TiledViewAction? {
        if mode == .compare { return compare?.perform(action, now: now) }
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
            carouselView.animatedCell = nil
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
        case .compare:
            showInFocusedPane(index, now: now)
        }
        updateTitle()
    }

    /// Back to the strip, scrolled to show the image that was shown alone.
    func close(now: Duration) {
        mode = .strip
        detail = nil
        detailItem = nil
        detailPage = 0
        upcoming = nil
        model.select(model.selectedIndex, time: now, animated: false)
        model.refreshVisibleCells()
        // Made here when the single view came first; nothing to do once made.
        carouselView.prepareIcons()
        carouselView.prepareCellTextures()
        updateTitle()
    }

    /// The zoomable view of item `index`, starting from the strip's cell image while tiles load (or the
    /// slideshow's view of it, opened ahead). The strip's queued decodes are dropped meanwhile, so tile
    /// loads get the workers.
    @discardableResult
    private func showDetail(_ index: Int, now: Duration) -> Bool {
        guard model.items.indices.contains(index) else { return false }
        let item = model.items[index]
        pipeline.retainOnly([])
        if let upcoming, upcoming.item == item {
            detail = upcoming.view
            detail?.playsAnimation = true
            // Shown now: its tiles go before the strip's and any other image's.
            detail?.rank = .visible
            self.upcoming = nil
        } else {
            guard let view = makeView(of: index, now: now, observer: observer) else { return false }
            detail = view
        }
        detailItem = item
        detailPage = 0
        return true
    }

    /// Image `page` (counted from 0) of the file the single view shows: a multi-page TIFF's page, a HEIF
    /// collection's image. A later page's view starts without a preview (the strip's is of the first).
    func showPage(_ page: Int, now: Duration) {
        guard mode == .detail, page >= 0, page != detailPage, let item = detailItem,
              let view = singleViews.makeView(of: item, page: page, rank: .visible, fade: model.fade,
                                              preview: page == 0 ? model.cachedImage(for: model.selectedIndex) : nil,
                                              pixelScale: pointScale, now: now, observer: observer) else { return }
        detail = view
        detailPage = page
    }

    /// A zoomable view of item `index`, its work at `rank`, heard by `observer` when measured; nil for a
    /// download not here yet.
    private func makeView(of index: Int, rank: WorkRank = .visible, now: Duration,
                          observer: (any RunObserver)?) -> TiledImageView? {
        singleViews.makeView(of: model.items[index], rank: rank, fade: model.fade,
                             preview: model.cachedImage(for: index), pixelScale: pointScale, now: now,
                             observer: observer)
    }

    // MARK: Film strip

    /// Shows or hides the single view's film strip; nil outside the single view, else whether it shows.
    func toggleFilmStrip() -> Bool? {
        guard mode == .detail else { return nil }
        showsFilmStrip.toggle()
        return showsFilmStrip
    }

    // MARK: Compare

    /// Items `indices` (2 to `ComparePanes.maximum`) side by side, item `focus` focused (else the first);
    /// false when fewer than two of them can be shown (downloads not here yet).
    @discardableResult
    func startCompare(_ indices: [Int], focusing focus: Int? = nil, now: Duration) -> Bool {
        let count = min(indices.count, ComparePanes.maximum)
        let panes = indices.prefix(ComparePanes.maximum).compactMap { makePane(of: $0, among: count, now: now) }
        guard panes.count >= 2 else { return false }
        if mode != .compare { modeBeforeCompare = mode }
        pipeline.retainOnly([])
        stripAnimation.stop()
        carouselView.animatedCell = nil
        detail = nil
        detailItem = nil
        detailPage = 0
        upcoming = nil
        compare = ComparePanes(panes)
        // Panes not made (a download not here yet) shift the rest: the focus goes by item.
        if let focus, model.items.indices.contains(focus),
           let pane = panes.firstIndex(where: { $0.item.path == model.items[focus].path }) {
            compare?.focus(pane)
        }
        mode = .compare
        if firstCompareStart == nil { firstCompareStart = now }
        followFocusedPane(now: now)
        return true
    }

    /// Leaves the compare view for the view it was entered from, at the focused pane's image.
    func endCompare(now: Duration) {
        guard mode == .compare else { return }
        compare = nil
        if modeBeforeCompare == .detail, !model.items.isEmpty, showDetail(model.selectedIndex, now: now) {
            mode = .detail
        } else {
            close(now: now)
        }
    }

    /// Switches the compare view's panes between zooming and panning together and each alone; nil
    /// outside it, else whether they are locked now.
    func toggleCompareLock() -> Bool? {
        guard let compare else { return nil }
        compare.isLocked.toggle()
        return compare.isLocked
    }

    /// Gives the keys to the compare view's next pane; false outside it.
    func focusNextPane(now: Duration) -> Bool {
        guard let compare else { return false }
        compare.focusNext()
        followFocusedPane(now: now)
        return true
    }

    /// The items the compare view shows, in pane order.
    var comparedIndices: [Int] {
        compare?.panes.compactMap { model.index(of: $0.item.path) } ?? []
    }

    /// Item `index` in the focused pane; when another pane shows it already, that pane takes the focus.
    func showInFocusedPane(_ index: Int, now: Duration) {
        guard let compare, model.items.indices.contains(index) else { return }
        let item = model.items[index]
        if let shown = compare.panes.firstIndex(where: { $0.item.path == item.path }) {
            compare.focus(shown)
        } else if let pane = makePane(of: index, now: now) {
            compare.replaceFocused(with: pane, now: now)
        }
        followFocusedPane(now: now)
    }

    /// The next (or previous) item after the focused pane's that no pane shows, in strip order; nil at
    /// the end.
    func nextUncompared(forward: Bool) -> Int? {
        guard let compare, let from = model.index(of: compare.focusedPane.item.path) else { return nil }
        let shown = Set(compare.panes.map { PathText.Key($0.item.path) })
        var index = from + (forward ? 1 : -1)
        while model.items.indices.contains(index) {
            if !shown.contains(PathText.Key(model.items[index].path)) { return index }
            index += forward ? 1 : -1
        }
        return nil
    }

    /// A pane's view of item `index`, opened for the size a pane of `count` has.
    private func makePane(of index: Int, among count: Int? = nil, now: Duration) -> ComparePanes.Pane? {
        guard model.items.indices.contains(index) else { return nil }
        let rect = ComparePanes.layout(count: count ?? compare?.panes.count ?? 2, in: host.renderer.outputSize,
                                       gap: ComparePanes.gap(pixelScale: pointScale)).first
        let viewport = rect.map { Size(width: Double($0.width) / pointScale, height: Double($0.height) / pointScale) }
        guard let view = singleViews.makeView(of: model.items[index], rank: .visible, fade: model.fade,
                                              preview: model.cachedImage(for: index), pixelScale: pointScale,
                                              viewport: viewport, now: now, observer: observer) else { return nil }
        view.pane = rect
        return ComparePanes.Pane(item: model.items[index], view: view)
    }

    /// The selection (and so the overlay, the title and what keys act on) is the focused pane's image.
    private func followFocusedPane(now: Duration) {
        guard let compare, let index = model.index(of: compare.focusedPane.item.path) else { return }
        if index != model.selectedIndex { model.select(index, time: now, animated: false) }
        if titledSelection != index { updateTitle() }
    }

    /// After the items changed: a pane whose image left the strip closes, one whose file changed (a turn,
    /// a new version) reopens; with fewer than two panes left, the compare view ends.
    private func compareItemsChanged(now: Duration) {
        guard let compare else { return }
        compare.removePanes { model.index(of: $0.item.path) == nil }
        guard compare.panes.count >= 2 else {
            endCompare(now: now)
            return
        }
        for (position, pane) in compare.panes.enumerated() {
            guard let index = model.index(of: pane.item.path), model.items[index] != pane.item,
                  let reopened = makePane(of: index, now: now) else { continue }
            compare.replacePane(at: position, with: reopened)
        }
        followFocusedPane(now: now)
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
            host.window.setTitle("No images - Tessera")
            return
        }
        host.window.setTitle("\(item.displayName) (\(model.selectedIndex + 1)/\(model.items.count)) - Tessera")
    }
}
