/// How the strip looks and behaves; everything has a command-line flag.
public struct CarouselConfiguration: Sendable {
    public var rows = 1
    public var cellWidth = 400.0
    public var cellHeight = 300.0
    public var spacing = 16.0
    public var inset = 16.0
    /// Items to preload beyond the visible ones, ahead of and behind the scroll direction.
    public var preload = PreloadPolicy(ahead: 2, behind: 1)
    public var fade = FadeTiming()

    public init() {}
}

/// The carousel without pixels on screen: layout, scrolling, the reuse pool of index-tagged cells, which
/// image each cell shows, and which images to load in what order. The renderer (TesseraUI) only draws
/// `visibleCells` and uploads what `cellsAwaitingUpload` lists; everything here is testable without SDL.
public final class CarouselModel {
    public let items: [CarouselItem]
    public let configuration: CarouselConfiguration
    public private(set) var layout: StripLayout
    public private(set) var scroll: ScrollModel
    public private(set) var pixelScale: Double
    public private(set) var selectedIndex = 0
    /// On-screen cells, in index order.
    public private(set) var visibleCells: [CarouselCell] = []
    public var fade: FadeTiming { configuration.fade }

    private let pool: ReusePool<CarouselCell>
    private let coordinator: LoadCoordinator
    private var lastScrollDirection = 1

    public init(items: [CarouselItem], configuration: CarouselConfiguration, coordinator: LoadCoordinator,
                viewportWidth: Double, viewportHeight: Double, pixelScale: Double = 1) {
        self.items = items
        self.configuration = configuration
        self.coordinator = coordinator
        self.pixelScale = pixelScale
        layout = StripLayout(itemCount: items.count, rows: configuration.rows,
                             cellSize: Size(width: configuration.cellWidth, height: configuration.cellHeight),
                             spacing: configuration.spacing, inset: configuration.inset,
                             viewportSize: Size(width: viewportWidth, height: viewportHeight))
        scroll = ScrollModel(contentLength: layout.contentWidth, viewportLength: viewportWidth)
        var nextID = 0
        pool = ReusePool {
            nextID += 1
            return CarouselCell(id: nextID)
        }
    }

    /// How many cells were ever made: stays near the visible count + 2 however far the user scrolls.
    public var cellsCreated: Int { pool.createdCount }

    /// The size, in device pixels, that images are decoded and scaled to for a cell (HiDPI aware).
    public var cellPixelSize: PixelSize {
        PixelSize(width: Int((configuration.cellWidth * pixelScale).rounded()),
                  height: Int((configuration.cellHeight * pixelScale).rounded()))
    }

    public func key(for index: Int) -> ImageKey { ImageKey(path: items[index].path, size: cellPixelSize) }

    // MARK: Viewport

    public func resize(viewportWidth: Double, viewportHeight: Double, pixelScale: Double) {
        self.pixelScale = pixelScale
        layout.viewportSize = Size(width: viewportWidth, height: viewportHeight)
        scroll.resize(contentLength: layout.contentWidth, viewportLength: viewportWidth)
        // Cells keyed for another pixel size must load again at the new one.
        for cell in visibleCells where cell.key != nil && cell.key?.size != cellPixelSize { recycle(cell) }
        visibleCells.removeAll { $0.index == nil }
    }

    // MARK: Input

    public func beginDrag(x: Double, time: Duration) { scroll.beginDrag(at: x, time: time) }
    public func drag(x: Double, time: Duration) { scroll.drag(to: x, time: time) }
    public func endDrag(time: Duration) { scroll.endDrag(time: time) }

    /// Wheel or touchpad motion in points (positive moves the content left, towards later items).
    public func scrollBy(_ points: Double, time: Duration) { scroll.scroll(by: points, time: time) }

    /// Selects `index` and scrolls just enough to show it.
    public func select(_ index: Int, time: Duration, animated: Bool = true) {
        guard !items.isEmpty else { return }
        selectedIndex = min(max(0, index), items.count - 1)
        let target = layout.offsetToShow(index: selectedIndex, offset: scroll.offset)
        if abs(target - scroll.offset) > 0.5 { scroll.scroll(to: target, animated: animated, time: time) }
    }

    /// Left/Right: one cell along the strip (one column in a grid).
    public func moveSelection(columns: Int, time: Duration) {
        select(selectedIndex + columns * layout.rows, time: time)
    }

    /// Up/Down inside a grid column.
    public func moveSelection(rows: Int, time: Duration) { select(selectedIndex + rows, time: time) }

    /// PageUp/PageDown: a screen of columns.
    public func moveSelection(pages: Int, time: Duration) {
        let columns = max(1, layout.columnsPerPage)
        let target = min(max(0, scroll.offset + Double(pages * columns) * layout.columnWidth), scroll.maxOffset)
        scroll.scroll(to: target, animated: true, time: time)
        selectedIndex = min(max(0, selectedIndex + pages * columns * layout.rows), items.count - 1)
    }

    public func selectFirst(time: Duration) { select(0, time: time) }
    public func selectLast(time: Duration) { select(items.count - 1, time: time) }

    /// The item under a point in viewport coordinates.
    public func index(atViewportX x: Double, y: Double) -> Int? {
        layout.index(at: Point(x: x, y: y), offset: scroll.offset)
    }

    public func selectWithoutScrolling(_ index: Int) {
        guard items.indices.contains(index) else { return }
        selectedIndex = index
    }

    // MARK: Frame

    /// Advances scrolling to `now`, reuses cells for what is visible, applies finished decodes to the
    /// cells still tagged for them, and asks for what is visible and about to be. Returns the scroll
    /// delegate events of this frame.
    @discardableResult
    public func update(now: Duration) -> [ScrollEvent] {
        let before = scroll.offset
        scroll.step(to: now)
        let events = scroll.takeEvents()
        if scroll.offset > before { lastScrollDirection = 1 } else if scroll.offset < before { lastScrollDirection = -1 }
        layoutCells()
        applyCompletions()
        requestLoads()
        return events
    }

    /// Cells whose image is decoded but not yet in a texture: images already cached first (they must
    /// appear at once), then the rest from the selected one outwards. The renderer uploads within its
    /// per-frame budget and calls `didUpload` for each.
    public var cellsAwaitingUpload: [CarouselCell] {
        visibleCells.filter(\.needsUpload).sorted { a, b in
            if a.fadesIn != b.fadesIn { return !a.fadesIn }
            return abs((a.index ?? 0) - selectedIndex) < abs((b.index ?? 0) - selectedIndex)
        }
    }

    public func didUpload(_ cell: CarouselCell, now: Duration) {
        cell.needsUpload = false
        cell.shownAt = now
    }

    /// The cell's frame in viewport points.
    public func viewportFrame(of cell: CarouselCell) -> Rect {
        guard let index = cell.index else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let frame = layout.frame(of: index)
        return Rect(x: frame.x - scroll.offset, y: frame.y, width: frame.width, height: frame.height)
    }

    /// Whether anything on screen will change without input: scrolling, fading, or waiting for decodes.
    public func isAnimating(now: Duration) -> Bool {
        if scroll.isMoving { return true }
        if coordinator.queuedCount > 0 || coordinator.runningCount > 0 || coordinator.hasPendingCompletions { return true }
        return visibleCells.contains { $0.needsUpload || $0.imageAlpha(now: now, fade: fade) < 1 && $0.shownAt != nil }
    }

    /// Drops a remembered failure for `index` and loads it again (Enter or click on an error cell).
    public func retry(_ index: Int) {
        let key = key(for: index)
        coordinator.forgetFailure(key)
        for cell in visibleCells where cell.index == index {
            cell.content = .placeholder
        }
    }

    // MARK: Private

    private func layoutCells() {
        let range = items.isEmpty ? 0..<0 : layout.visibleRange(offset: scroll.offset)
        for cell in visibleCells where !(cell.index.map(range.contains) ?? false) { recycle(cell) }
        visibleCells.removeAll { $0.index == nil }
        let shown = Set(visibleCells.compactMap(\.index))
        for index in range where !shown.contains(index) {
            let cell = pool.dequeue()
            configure(cell, for: index)
            visibleCells.append(cell)
        }
        visibleCells.sort { ($0.index ?? 0) < ($1.index ?? 0) }
    }

    private func recycle(_ cell: CarouselCell) {
        cell.prepareForReuse()
        pool.enqueue(cell)
    }

    private func configure(_ cell: CarouselCell, for index: Int) {
        let key = key(for: index)
        cell.index = index
        cell.key = key
        if let pixels = coordinator.cached(key) {
            cell.content = .image(pixels)
            cell.needsUpload = true
            cell.fadesIn = false
        } else if let failure = coordinator.failure(for: key) {
            cell.content = .failed(failure)
        } else {
            cell.content = .placeholder
        }
    }

    private func applyCompletions() {
        for completion in coordinator.takeCompletions() {
            // The tag check: only a cell still showing this very key takes the result.
            guard let cell = visibleCells.first(where: { $0.key == completion.key }),
                  case .placeholder = cell.content else { continue }
            switch completion.result {
            case .success(let pixels):
                cell.content = .image(pixels)
                cell.needsUpload = true
                cell.fadesIn = true
            case .failure(let failure):
                cell.content = .failed(failure)
            }
        }
    }

    private func requestLoads() {
        guard !items.isEmpty else { return }
        let visible = layout.visibleRange(offset: scroll.offset)
        let window = PreloadWindow(visible: visible, itemCount: items.count, rows: layout.rows,
                                   direction: lastScrollDirection, policy: configuration.preload)
        var wanted = Set<ImageKey>()
        for entry in window.items {
            let key = key(for: entry.index)
            wanted.insert(key)
            coordinator.request(key, priority: entry.priority)
        }
        coordinator.retainOnly(wanted)
    }
}

extension CarouselModel {
    /// Shows what the cache holds for visible cells still waiting, without a fade. Needed after another
    /// view (the single-image view) took this model's completions while the strip was hidden.
    public func refreshVisibleCells() {
        for cell in visibleCells where cell.content == .placeholder {
            guard let key = cell.key, let pixels = coordinator.cache.peek(key) else { continue }
            cell.content = .image(pixels)
            cell.needsUpload = true
            cell.fadesIn = false
        }
    }
}
