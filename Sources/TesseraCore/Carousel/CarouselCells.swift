/// The strip's cells and selection: the layout, the scrolling, the reuse pool of index-tagged cells on
/// screen, and which item is selected (the keyboard's rules and nsxiv's). What a cell shows is the load
/// driver's business; where the items come from is the item list's. Main thread only.
final class CarouselCells {
    let configuration: CarouselConfiguration
    private(set) var layout: StripLayout
    private(set) var scroll: ScrollModel
    private(set) var pixelScale: Double
    private(set) var selectedIndex = 0
    /// On-screen cells, in index order, one per index (`layoutCells` relies on both).
    private(set) var visibleCells: [CarouselCell] = []
    /// +1 when the strip last moved towards later items, -1 towards earlier ones.
    private(set) var scrollDirection = 1
    private let pool: ReusePool<CarouselCell>

    init(configuration: CarouselConfiguration, itemCount: Int, viewportWidth: Double, viewportHeight: Double,
         pixelScale: Double) {
        self.configuration = configuration
        self.pixelScale = pixelScale
        let viewport = Size(width: viewportWidth, height: viewportHeight)
        let grid = configuration.fit.grid(viewportSize: viewport, spacing: configuration.spacing,
                                          inset: configuration.inset, bottomBar: configuration.bottomBar)
        layout = StripLayout(itemCount: itemCount, rows: grid.rows, cellSize: grid.cellSize,
                             spacing: configuration.spacing, inset: configuration.inset,
                             bottomBar: configuration.bottomBar, viewportSize: viewport)
        scroll = ScrollModel(contentLength: layout.contentWidth, viewportLength: viewportWidth)
        var nextID = 0
        pool = ReusePool {
            nextID += 1
            return CarouselCell(id: nextID)
        }
    }

    private var itemCount: Int { layout.itemCount }

    /// How many cells were ever made: stays near the visible count + 2 however far the user scrolls.
    var cellsCreated: Int { pool.createdCount }

    /// The most cells on screen at once, at the current viewport.
    var maximumVisibleCells: Int { min(itemCount, layout.maximumVisibleColumns * layout.rows) }

    /// The size, in device pixels, that images are decoded and scaled to for a cell (HiDPI aware).
    var cellPixelSize: PixelSize {
        PixelSize(width: Int((layout.cellSize.width * pixelScale).rounded()),
                  height: Int((layout.cellSize.height * pixelScale).rounded()))
    }

    /// The items on screen now.
    var visibleRange: Range<Int> { itemCount == 0 ? 0..<0 : layout.visibleRange(offset: scroll.offset) }

    /// The cell showing item `index`, if it is on screen.
    func cell(showing index: Int) -> CarouselCell? { visibleCells.first { $0.index == index } }

    /// The size at which a cell draws what it shows, in pixels: a preview is drawn at the size the full
    /// image would have, a whole unscaled image is shrunk to fit.
    func displaySize(of cell: CarouselCell) -> PixelSize? {
        guard case .image(let pixels) = cell.content, let variant = cell.shownVariant else { return nil }
        switch variant {
        case .cell where cell.isForOtherCellSize:
            // Until the image decoded for the new cell size comes, the old one takes the place it will.
            return (pixels.sourceSize ?? pixels.size).aspectFit(in: cellPixelSize, allowUpscale: pixels.sourceSize == nil)
        case .cell:
            return pixels.size
        case .original:
            return pixels.size.aspectFit(in: cellPixelSize)
        case .preview:
            let source = pixels.sourceSize
                ?? PixelSize(width: pixels.width * variant.reduction, height: pixels.height * variant.reduction)
            return source.aspectFit(in: cellPixelSize)
        }
    }

    /// The cell's frame in viewport points.
    func viewportFrame(of cell: CarouselCell) -> Rect {
        guard let index = cell.index else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        let frame = layout.frame(of: index)
        return Rect(x: frame.x - scroll.offset, y: frame.y, width: frame.width, height: frame.height)
    }

    // MARK: Viewport

    /// Follows the window. The rows and the cell size follow it too where the configuration does not fix
    /// them; the selected item keeps its place on screen as far as it can, and stays in view. Cells
    /// showing images decoded for another pixel scale go back to the pool, so they load again at the new
    /// one; cells of another size keep their image until one decoded for the new size replaces it, so a
    /// window made larger shows sharp thumbnails rather than blurry enlarged ones. Returns whether the
    /// size in pixels that images are decoded at changed.
    @discardableResult
    func resize(viewportWidth: Double, viewportHeight: Double, pixelScale: Double) -> Bool {
        let oldPixelSize = cellPixelSize
        let scaleChanged = pixelScale != self.pixelScale
        let viewport = Size(width: viewportWidth, height: viewportHeight)
        let grid = configuration.fit.grid(viewportSize: viewport, spacing: configuration.spacing,
                                          inset: configuration.inset, bottomBar: configuration.bottomBar)
        let anchor = resizeAnchor()
        self.pixelScale = pixelScale
        layout.viewportSize = viewport
        layout.rows = grid.rows
        layout.cellSize = grid.cellSize
        scroll.resize(contentLength: layout.contentWidth, viewportLength: viewportWidth)
        if let anchor {
            // The anchor item's cell keeps its x on screen; a motion in progress moves with the content.
            let kept = layout.frame(of: anchor.index).x - anchor.x
            scroll.shiftContent(by: kept - scroll.offset, contentLength: layout.contentWidth)
        }
        if anchor?.index == selectedIndex {
            let shown = layout.offsetToShow(index: selectedIndex, offset: scroll.offset)
            scroll.shiftContent(by: shown - scroll.offset, contentLength: layout.contentWidth)
        }
        if scaleChanged {
            for cell in visibleCells { recycle(cell) }
            visibleCells.removeAll()
        } else if cellPixelSize != oldPixelSize {
            for cell in visibleCells { cell.cellSizeChanged() }
        }
        return cellPixelSize != oldPixelSize
    }

    /// The item whose cell keeps its place on screen as the grid changes, with its x on screen: the
    /// selected item when it is in view, else the first item in view.
    private func resizeAnchor() -> (index: Int, x: Double)? {
        guard itemCount > 0 else { return nil }
        let visible = visibleRange
        guard let index = visible.contains(selectedIndex) ? selectedIndex : visible.first else { return nil }
        return (index, layout.frame(of: index).x - scroll.offset)
    }

    // MARK: Scrolling and selection

    func beginDrag(x: Double, time: Duration) { scroll.beginDrag(at: x, time: time) }
    func drag(x: Double, time: Duration) { scroll.drag(to: x, time: time) }
    func endDrag(time: Duration) { scroll.endDrag(time: time) }

    /// Wheel or touchpad motion in points (positive moves the content left, towards later items).
    func scrollBy(_ points: Double, time: Duration) {
        scroll.scroll(by: points, time: time)
        bringSelectionOnScreen()
    }

    /// Selects `index` and scrolls just enough to show it.
    func select(_ index: Int, time: Duration, animated: Bool = true) {
        guard itemCount > 0 else { return }
        selectedIndex = min(max(0, index), itemCount - 1)
        let target = layout.offsetToShow(index: selectedIndex, offset: scroll.offset)
        if abs(target - scroll.offset) > 0.5 { scroll.scroll(to: target, animated: animated, time: time) }
    }

    /// Left/Right: one cell along the strip (one column in a grid).
    func moveSelection(columns: Int, time: Duration) {
        select(selectedIndex + columns * layout.rows, time: time)
    }

    /// Up/Down inside a grid column.
    func moveSelection(rows: Int, time: Duration) { select(selectedIndex + rows, time: time) }

    /// PageUp/PageDown: a screen of columns.
    func moveSelection(pages: Int, time: Duration) {
        guard itemCount > 0 else { return }
        let columns = max(1, layout.columnsPerPage)
        let target = min(max(0, scroll.offset + Double(pages * columns) * layout.columnWidth), scroll.maxOffset)
        scroll.scroll(to: target, animated: true, time: time)
        selectedIndex = min(max(0, selectedIndex + pages * columns * layout.rows), itemCount - 1)
    }

    /// Selects the first item and scrolls to the start at once.
    func showStart(time: Duration) {
        selectedIndex = 0
        scroll.scroll(to: 0, animated: false, time: time)
    }

    func selectWithoutScrolling(_ index: Int) {
        guard index >= 0, index < itemCount else { return }
        selectedIndex = index
    }

    /// The item under a point in viewport coordinates.
    func index(atViewportX x: Double, y: Double) -> Int? {
        layout.index(at: Point(x: x, y: y), offset: scroll.offset)
    }

    /// Advances scrolling to `now`; returns this frame's scroll delegate events.
    func step(to now: Duration) -> [ScrollEvent] {
        let before = scroll.offset
        scroll.step(to: now)
        let events = scroll.takeEvents()
        if scroll.offset > before { scrollDirection = 1 } else if scroll.offset < before { scrollDirection = -1 }
        if events.contains(where: { $0 == .didEndDecelerating || $0 == .didEndDragging(willDecelerate: false) }) {
            bringSelectionOnScreen()
        }
        return events
    }

    /// When the user's own scrolling (a drag, a fling, the wheel) has left the selection wholly off screen,
    /// it moves to the nearest whole image on screen, in its row, as in nsxiv's thumbnail mode: the arrow
    /// keys then carry on from what is shown instead of scrolling back to where browsing started, and Enter,
    /// the overlay and the title name an image the user can see. Only at rest: a key's animated scroll
    /// towards a new selection is not undone on its way, and a partly shown selection (a click on an edge
    /// cell) stays.
    private func bringSelectionOnScreen() {
        guard itemCount > 0, scroll.phase == .idle else { return }
        let visible = layout.visibleRange(offset: scroll.offset)
        guard !visible.isEmpty, !visible.contains(selectedIndex) else { return }
        let columns = layout.wholeColumns(offset: scroll.offset)
            ?? layout.column(of: visible.lowerBound)...layout.column(of: visible.upperBound - 1)
        let column = selectedIndex < visible.lowerBound ? columns.lowerBound : columns.upperBound
        selectedIndex = min(column * layout.rows + layout.row(of: selectedIndex), itemCount - 1)
    }

    // MARK: Cells

    /// Gives the cells that left the screen back to the pool and tags one for each item that came on,
    /// handing each new cell to `fill` to put in what is known for its item.
    func layoutCells(fill: (CarouselCell) -> Void) {
        let range = visibleRange
        for cell in visibleCells where !(cell.index.map(range.contains) ?? false) { recycle(cell) }
        visibleCells.removeAll { $0.index == nil }
        // The cells left are in order and inside `range`: walk both together for the indices without a
        // cell (no set built every frame).
        let kept = visibleCells.count
        var next = 0
        for index in range {
            if next < kept, visibleCells[next].index == index {
                next += 1
                continue
            }
            let cell = pool.dequeue()
            cell.index = index
            fill(cell)
            visibleCells.append(cell)
        }
        if visibleCells.count > kept { visibleCells.sort { ($0.index ?? 0) < ($1.index ?? 0) } }
    }

    private func recycle(_ cell: CarouselCell) {
        cell.prepareForReuse()
        pool.enqueue(cell)
    }

    /// Cells whose image is decoded but not yet in a texture: images that appear at once first, then the
    /// rest from the selected one outwards.
    var cellsAwaitingUpload: [CarouselCell] {
        visibleCells.filter(\.needsUpload).sorted { a, b in
            if a.fadesIn != b.fadesIn { return !a.fadesIn }
            return abs((a.index ?? 0) - selectedIndex) < abs((b.index ?? 0) - selectedIndex)
        }
    }

    /// Notes when each cell new on screen came: how long its placeholder has been seen.
    func notePlacement(now: Duration) {
        for cell in visibleCells where cell.placedAt == nil { cell.placedAt = now }
    }

    func didUpload(_ cell: CarouselCell, now: Duration) {
        cell.needsUpload = false
        cell.shownAt = now
    }

    var isScrolling: Bool { scroll.isMoving }

    /// Whether the cells will change without input: scrolling, waiting for an upload, or fading in.
    func isAnimating(now: Duration) -> Bool {
        if scroll.isMoving { return true }
        return visibleCells.contains {
            $0.needsUpload || ($0.shownAt != nil && $0.imageAlpha(now: now, fade: configuration.fade) < 1)
        }
    }

    // MARK: Changes to the items

    /// What must keep its place on screen while items come and go: the selected item, and the item whose
    /// place on screen must not move (the selected one if shown, else the first shown) with its x in
    /// content coordinates. Items by id: an id names one item for the whole run.
    struct Placement {
        var selectedID: UInt32?
        var anchor: (id: UInt32, x: Double)?
    }

    func placement(in items: CarouselItemList) -> Placement {
        let selectedID = items.indices.contains(selectedIndex) ? items.id(at: selectedIndex) : nil
        let shown = visibleCells.compactMap(\.index)
        guard let index = shown.contains(selectedIndex) ? selectedIndex : shown.first, items.indices.contains(index) else {
            return Placement(selectedID: selectedID)
        }
        return Placement(selectedID: selectedID, anchor: (items.id(at: index), layout.frame(of: index).x))
    }

    /// Items came, went or moved: cells follow their items to their new indices (cells of removed items go
    /// back to the pool), the selection stays on its item (or, if that went, on the one that took its
    /// place), and the anchor keeps its place on screen, a fling in progress carrying on.
    func itemsMoved(from previous: CarouselItems, to items: CarouselItemList, keeping placement: Placement) {
        layout.itemCount = items.count
        for cell in visibleCells {
            if let old = cell.index, previous.indices.contains(old), let index = items.index(ofID: previous.ids[old]) {
                cell.index = index
            } else {
                recycle(cell)
            }
        }
        visibleCells.removeAll { $0.index == nil }
        visibleCells.sort { ($0.index ?? 0) < ($1.index ?? 0) }

        if let id = placement.selectedID, let index = items.index(ofID: id) {
            selectedIndex = index
        } else if !previous.isEmpty {
            // The selected item went: select the next surviving one, as file managers do.
            let next = previous.ids[min(selectedIndex, previous.count - 1)...].lazy.compactMap { items.index(ofID: $0) }.first
            selectedIndex = max(0, min(next ?? items.count - 1, items.count - 1))
        } else {
            selectedIndex = 0
        }

        var shift = 0.0
        if let anchor = placement.anchor, let index = items.index(ofID: anchor.id) {
            shift = layout.frame(of: index).x - anchor.x
        }
        scroll.shiftContent(by: shift, contentLength: layout.contentWidth)
    }
}
