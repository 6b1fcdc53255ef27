/// The carousel without pixels on screen, for the view to draw and the viewer to drive. It composes three
/// rooms and runs their frame in order:
/// - `CarouselItemList`: what the strip shows (items, index by path, watcher changes, cache keys);
/// - `CarouselCells`: layout, scrolling, the reuse pool of index-tagged cells, the selection;
/// - `CarouselLoadDriver`: what to load (through its `LoadingStrategy` and the `ImagePipeline`) and which
///   cell takes each image.
/// The renderer (TesseraUI) only draws `visibleCells` and uploads what `cellsAwaitingUpload` lists;
/// everything here is testable without SDL. Main thread only.
package final class CarouselModel {
    private let list: CarouselItemList
    private let cells: CarouselCells
    private let loads: CarouselLoadDriver

    /// - Parameters:
    ///   - table: the items, as listed (their name order).
    ///   - versions: what is already known of items' files, by id (nothing, for a listed folder).
    ///   - order: the order to show them in (`--sort`), reversed or not; orders that need the files read
    ///     show what is known until `learn` brings the rest.
    ///   - shuffleSeed: the random order's seed, one per run.
    ///   - pipeline: loads the images; without storage when the strategy keeps nothing
    ///     (`ImagePipeline.strip` makes it so).
    ///   - decodeTimes: what the pipeline's loader learns of decode times (`ImagePipeline.stripLoader`).
    ///   - remote: downloads the http(s) items; nil when there are none.
    ///   - strategy: what to load when; adaptive over the configuration's preload window and the
    ///     pipeline's workers by default.
    package init(table: ItemTable, versions: [UInt32: FileVersion] = [:], order: StripOrder = .name, reversed: Bool = false,
                shuffleSeed: UInt64 = 0, configuration: CarouselConfiguration, pipeline: ImagePipeline,
                decodeTimes: DecodeTimeEstimator? = nil, remote: RemoteFetching? = nil, strategy: LoadingStrategy? = nil,
                viewportWidth: Double, viewportHeight: Double, pixelScale: Double = 1) {
        cells = CarouselCells(configuration: configuration, itemCount: table.count, viewportWidth: viewportWidth,
                              viewportHeight: viewportHeight, pixelScale: pixelScale)
        list = CarouselItemList(table: table, versions: versions, cellPixelSize: cells.cellPixelSize, order: order,
                                reversed: reversed, shuffleSeed: shuffleSeed)
        let strategy = strategy ?? AdaptiveStrategy(base: configuration.preload, decodeWorkers: pipeline.workerCount)
        loads = CarouselLoadDriver(strategy: strategy, pipeline: pipeline,
                                   decodeTimes: decodeTimes, remote: remote, items: list, cells: cells)
    }

    /// A strip of these items, in this order, with their versions as given.
    package convenience init(items: [CarouselItem], configuration: CarouselConfiguration, pipeline: ImagePipeline,
                            decodeTimes: DecodeTimeEstimator? = nil, remote: RemoteFetching? = nil,
                            strategy: LoadingStrategy? = nil, viewportWidth: Double, viewportHeight: Double,
                            pixelScale: Double = 1) {
        var versions: [UInt32: FileVersion] = [:]
        for (id, item) in items.enumerated() { versions[UInt32(id)] = item.version }
        self.init(table: ItemTable(items), versions: versions, configuration: configuration, pipeline: pipeline,
                  decodeTimes: decodeTimes, remote: remote, strategy: strategy, viewportWidth: viewportWidth,
                  viewportHeight: viewportHeight, pixelScale: pixelScale)
        for (index, item) in items.enumerated() where item.sessionOrientation != 1 {
            list.setSessionOrientation(item.sessionOrientation, at: index)
        }
    }

    // MARK: Frame

    /// Advances scrolling to `now`, stores what the workers finished, reuses cells for what is visible,
    /// applies finished decodes to the cells still tagged for them, and asks the strategy what to load.
    /// Returns this frame's scroll delegate events.
    @discardableResult
    package func update(now: Duration) -> [ScrollEvent] {
        let events = cells.step(to: now)
        let deliveries = loads.drain()
        cells.layoutCells(fill: loads.fill)
        cells.notePlacement(now: now)
        loads.apply(deliveries, now: now)
        loads.upgradeFromCache()
        loads.requestLoads(now: now, events: events)
        return events
    }

    /// Asks for the pictures of the cells on screen before the first frame (at start, while the window and
    /// renderer are made), so that frame shows those decoded meanwhile. No cell counts as seen until a frame
    /// draws it: what lands before then appears without a fade.
    package func requestFirstScreen(now: Duration) {
        cells.layoutCells(fill: loads.fill)
        loads.requestLoads(now: now, events: [])
    }

    /// Whether anything on screen will change without input: scrolling, fading, or waiting for decodes.
    package func isAnimating(now: Duration) -> Bool { cells.isAnimating(now: now) || loads.isWaiting }

    /// Whether the screen changes without input or a worker's wake: scrolling, an upload waiting, a fade.
    /// Decodes on their way change nothing until they land, and each landing wakes the frame loop.
    package func changesOnScreen(now: Duration) -> Bool { cells.isAnimating(now: now) }

    /// Whether the screen is filling: decodes for it under way, nothing scrolling.
    package func isFilling(now: Duration) -> Bool { loads.isWaiting && !cells.isScrolling }

    /// Applies what the folder watcher saw: a changed file reloads its cell (the old image stays until
    /// the new one is decoded), a deleted file leaves the strip, a new file takes its place in sort order.
    /// What the user looks at does not move: the selected item (or the first visible one) keeps its place
    /// on screen, a fling in progress carries on, and the selection stays on its item (or, if that item
    /// went, on the one that took its place).
    package func apply(_ changes: [ItemChange]) {
        let placement = cells.placement(in: list)
        let update = list.apply(changes)
        loads.itemsRemoved(update.removed)
        guard let previous = update.previousItems else {
            for path in update.changedContent { loads.contentChanged(at: path) }
            return
        }
        cells.itemsMoved(from: previous, to: list, keeping: placement)
        for path in update.changedContent { loads.contentChanged(at: path) }
        cells.layoutCells(fill: loads.fill)
    }

    /// Puts the items in `order` (reversed or not: by default as they are), with what is known of their
    /// files. The cells follow their items, the selection stays on its item and keeps its place on screen
    /// where it can, and is scrolled into view where it cannot.
    package func sort(by order: StripOrder, reversed: Bool? = nil, time: Duration) {
        let reversed = reversed ?? list.isReversed
        guard order != list.order || reversed != list.isReversed else { return }
        rearrange(time: time) { list.sort(by: order, reversed: reversed) }
    }

    /// The order the items are in.
    package var sortOrder: StripOrder { list.order }
    /// Moves whenever the items, their order or what is known of them changes.
    package var itemsRevision: Int { list.generation }
    /// Whether that order is reversed (`--reverse`).
    package var isReversed: Bool { list.isReversed }

    /// The ids of the items whose files must still be read for the order shown (`StripOrder.needs`), and
    /// the table their paths are in: for a worker to read, its readings coming back through `learn`.
    package var itemsToRead: (kind: ItemFacts.Kind, ids: [UInt32], table: ItemTable)? {
        guard let (kind, ids) = list.factsNeeded else { return nil }
        return (kind, ids, list.table)
    }

    /// Which images are shown by their rating.
    package var ratingFilter: RatingFilter { list.filter }

    /// Shows only the images `filter` admits (their ratings read in the background where not known: an
    /// image not read yet counts as unrated meanwhile), keeping the order and the selection where it can.
    package func filter(by filter: RatingFilter, time: Duration) {
        guard filter != list.filter else { return }
        rearrange(time: time) { list.filter(by: filter) }
    }

    /// The rating of the item at `index` (-1 rejected, 0 none, 1 to 5 stars); nil while not read.
    package func rating(of index: Int) -> Int? {
        guard items.indices.contains(index) else { return nil }
        return list.facts.rating(list.id(at: index))
    }

    /// The items at `paths` are rated `rating` now (Tessera wrote it). They stay shown until the filter
    /// or the order is applied again (the next key that changes either), so that an image does not
    /// vanish under the key that rated it.
    package func setRating(_ rating: Int, ofPaths paths: [String]) {
        for path in paths { if let id = list.listedID(of: path) { list.setRating(rating, of: id) } }
    }

    /// The ids of the items on or near the screen whose rating is not read yet, for a worker to read.
    package var ratingsToRead: (ids: [UInt32], table: ItemTable)? {
        let near = cells.visibleCells.compactMap(\.index)
        guard let first = near.min(), let last = near.max() else { return nil }
        let margin = max(8, last - first + 1)
        let ids = (max(0, first - margin)...min(items.count - 1, last + margin)).map { list.id(at: $0) }
            .filter { list.facts.rating($0) == nil && !list.table.isRemote($0) }
        return ids.isEmpty ? nil : (ids, list.table)
    }

    /// Takes in what a worker read of the items' files; with `resort`, puts the items in their order again
    /// with it, keeping the selection on screen as `sort` does. With `showingStart` (the order the strip
    /// opened in, `--sort size`), a strip still at its start with its first image selected stays at the
    /// start of the order: nobody chose an image to keep there.
    package func learn(_ readings: [ItemFacts.Reading], resort: Bool, showingStart: Bool = false, time: Duration) {
        list.learn(readings)
        guard resort else { return }
        let order = list.order, reversed = list.isReversed
        let atStart = showingStart && cells.selectedIndex == 0 && cells.scroll.offset <= 0.5 && !cells.scroll.isMoving
        rearrange(time: time, toStart: atStart) { list.sort(by: order, reversed: reversed) }
    }

    /// Changes the order with `body`, the cells and the selection following their items, or, `toStart`,
    /// showing the start of the new order with its first item selected.
    private func rearrange(time: Duration, toStart: Bool = false, _ body: () -> CarouselItems) {
        let placement = cells.placement(in: list)
        let previous = body()
        cells.itemsMoved(from: previous, to: list, keeping: placement)
        if toStart { cells.showStart(time: time) }
        cells.layoutCells(fill: loads.fill)
        cells.select(cells.selectedIndex, time: time, animated: false)
    }

    /// Turns the picture of the item at `path` for the session (an EXIF orientation applied after the
    /// file's own; 1 for none): its cell reloads, keeping the old picture until the turned one arrives.
    package func setSessionOrientation(_ orientation: Int, of path: String) {
        guard let index = list.index(of: path), list.sessionOrientation(at: index) != orientation else { return }
        list.setSessionOrientation(orientation, at: index)
        loads.contentChanged(at: path)
    }

    package func resize(viewportWidth: Double, viewportHeight: Double, pixelScale: Double) {
        cells.resize(viewportWidth: viewportWidth, viewportHeight: viewportHeight, pixelScale: pixelScale)
        list.cellPixelSize = cells.cellPixelSize
    }

    // MARK: What the view draws

    /// What the strip shows, in order. Changes when watched folders do (see `apply(_:)`).
    package var items: CarouselItems { list.items }
    /// The images the user marked, by path.
    package var marks = ItemMarks()
    /// Why the picture the strip shows for item `index` is only part of its image (its decoder's words);
    /// nil when it is whole or not on screen.
    package func damage(of index: Int) -> String? {
        guard case .image(let pixels)? = cells.cell(showing: index)?.content else { return nil }
        return pixels.damage
    }

    /// Whether item `index` is marked.
    package func isMarked(_ index: Int) -> Bool {
        !marks.isEmpty && list.indices.contains(index) && marks.contains(list.path(at: index))
    }
    /// How many of the items are marked (marks of files no longer shown do not count). Kept until the marks
    /// or the items change: the overlay asks every frame.
    package var markedCount: Int {
        if let cached = markedCountCache, cached.marks == marks.revision, cached.items == list.generation { return cached.count }
        let count = marks.paths.lazy.filter { self.list.index(of: $0) != nil }.count
        markedCountCache = (marks.revision, list.generation, count)
        return count
    }
    private var markedCountCache: (marks: Int, items: Int, count: Int)?
    /// The indices of the marked items shown, in strip order (found by path, however many items there are).
    package var markedIndices: [Int] { marks.paths.compactMap { list.index(of: $0) }.sorted() }
    /// The paths of the marked items shown, in strip order.
    package var markedPaths: [String] { markedIndices.map(list.path(at:)) }
    /// The nearest marked item after (`forward`) or before `index`; nil when there is none that way
    /// (nsxiv's `N` and `P` do not wrap around).
    package func nearestMarked(from index: Int, forward: Bool) -> Int? {
        let marked = markedIndices
        return forward ? marked.first { $0 > index } : marked.last { $0 < index }
    }
    /// Marks what is unmarked among the items shown and unmarks the rest; marks of files no longer shown go.
    package func invertMarks() {
        let marked = Set(markedIndices)
        marks.replace(with: list.indices.lazy.filter { !marked.contains($0) }.map(list.path(at:)))
    }
    /// The item selected; nil when the strip is empty.
    package var selectedItem: CarouselItem? { list.indices.contains(selectedIndex) ? list[selectedIndex] : nil }
    /// The path of the item selected, without the rest of its value.
    package var selectedPath: String? { list.indices.contains(selectedIndex) ? list.path(at: selectedIndex) : nil }
    /// Whether item `index` is an http(s) URL.
    package func isRemote(_ index: Int) -> Bool { list.isRemote(at: index) }
    /// The index of the item at `path`.
    package func index(of path: String) -> Int? { list.index(of: path) }
    package var configuration: CarouselConfiguration { cells.configuration }
    package var strategy: LoadingStrategy { loads.strategy }
    package var layout: StripLayout { cells.layout }
    package var scroll: ScrollModel { cells.scroll }
    package var pixelScale: Double { cells.pixelScale }
    package var selectedIndex: Int { cells.selectedIndex }
    /// On-screen cells, in index order, one per index.
    package var visibleCells: [CarouselCell] { cells.visibleCells }
    package var fade: FadeTiming { cells.configuration.fade }
    /// How many cells were ever made: stays near the visible count + 2 however far the user scrolls.
    package var cellsCreated: Int { cells.cellsCreated }
    /// The most cells on screen at once, at the current viewport.
    package var maximumVisibleCells: Int { cells.maximumVisibleCells }
    /// The size, in device pixels, that images are decoded and scaled to for a cell (HiDPI aware).
    package var cellPixelSize: PixelSize { cells.cellPixelSize }

    package func key(for index: Int, variant: ImageVariant = .cell) -> ImageKey { list.key(for: index, variant: variant) }
    package func displaySize(of cell: CarouselCell) -> PixelSize? { cells.displaySize(of: cell) }
    package func viewportFrame(of cell: CarouselCell) -> Rect { cells.viewportFrame(of: cell) }
    /// The item under a point in viewport coordinates.
    package func index(atViewportX x: Double, y: Double) -> Int? { cells.index(atViewportX: x, y: y) }

    /// Cells whose image is decoded but not yet in a texture: images that appear at once first, then the
    /// rest from the selected one outwards. The renderer uploads within its budget and calls `didUpload`.
    package var cellsAwaitingUpload: [CarouselCell] { cells.cellsAwaitingUpload }
    package func didUpload(_ cell: CarouselCell, now: Duration) { cells.didUpload(cell, now: now) }

    /// The cell-sized image of item `index` if the cache holds it (a picture to show while a larger view
    /// of the item loads).
    package func cachedImage(for index: Int) -> PixelBuffer? { loads.cachedImage(for: index) }

    /// Shows what the cache holds for visible cells still waiting, without a fade: after another view (the
    /// single-image view) was shown instead of the strip.
    package func refreshVisibleCells() { loads.refreshVisibleCells() }

    /// Every item known not to load, with why: for the run report.
    package var knownFailures: [(item: CarouselItem, failure: LoadFailure)] {
        loads.knownFailures.map { (list[$0.index], $0.failure) }
    }

    // MARK: Input

    package func beginDrag(x: Double, time: Duration) { cells.beginDrag(x: x, time: time) }
    package func drag(x: Double, time: Duration) { cells.drag(x: x, time: time) }
    package func endDrag(time: Duration) { cells.endDrag(time: time) }
    /// Wheel or touchpad motion in points (positive moves the content left, towards later items).
    package func scrollBy(_ points: Double, time: Duration) { cells.scrollBy(points, time: time) }
    /// Selects `index` and scrolls just enough to show it.
    package func select(_ index: Int, time: Duration, animated: Bool = true) { cells.select(index, time: time, animated: animated) }
    /// Left/Right: one cell along the strip (one column in a grid).
    package func moveSelection(columns: Int, time: Duration) { cells.moveSelection(columns: columns, time: time) }
    /// Up/Down inside a grid column.
    package func moveSelection(rows: Int, time: Duration) { cells.moveSelection(rows: rows, time: time) }
    /// PageUp/PageDown: a screen of columns.
    package func moveSelection(pages: Int, time: Duration) { cells.moveSelection(pages: pages, time: time) }
    package func selectFirst(time: Duration) { cells.select(0, time: time) }
    package func selectLast(time: Duration) { cells.select(list.count - 1, time: time) }
    package func selectWithoutScrolling(_ index: Int) { cells.selectWithoutScrolling(index) }
    /// Drops a remembered failure for `index` and loads it again (Enter or click on an error cell).
    package func retry(_ index: Int) { loads.retry(index) }
}
