/// How the strip looks and behaves; everything has a command-line flag.
public struct CarouselConfiguration: Sendable {
    public var rows = 1
    public var cellWidth = 400.0
    public var cellHeight = 300.0
    public var spacing = 16.0
    public var inset = 16.0
    /// Columns to preload beyond the visible ones, ahead of and behind the scroll direction.
    public var preload = PreloadPolicy(ahead: 2, behind: 1)
    public var fade = FadeTiming()

    public init() {}
}

/// The carousel without pixels on screen: layout, scrolling, the reuse pool of index-tagged cells, which
/// image each cell shows, and — through its `LoadingStrategy` — what to load in what order. The renderer
/// (TesseraUI) only draws `visibleCells` and uploads what `cellsAwaitingUpload` lists; everything here
/// is testable without SDL.
public final class CarouselModel {
    /// What the strip shows, in order. Changes when watched folders do (see `apply(_:)`).
    public private(set) var items: [CarouselItem] { didSet { keysChanged() } }
    public let configuration: CarouselConfiguration
    public let strategy: LoadingStrategy
    public private(set) var layout: StripLayout
    public private(set) var scroll: ScrollModel
    public private(set) var pixelScale: Double {
        didSet { if pixelScale != oldValue { keysChanged() } }
    }
    public private(set) var selectedIndex = 0
    /// On-screen cells, in index order, one per index (`layoutCells` relies on both).
    public private(set) var visibleCells: [CarouselCell] = []
    public var fade: FadeTiming { configuration.fade }

    private let pool: ReusePool<CarouselCell>
    private let pipeline: ImagePipeline
    /// What the strip's decodes cost so far, for strategies that plan; nil when nothing learns it.
    private let decodeTimes: DecodeTimeEstimator?
    /// Downloads remote items; nil when there are none.
    private let remote: RemoteFetching?
    /// Item index by path.
    private var itemIndex: [String: Int]
    private var lastScrollDirection = 1

    /// - Parameters:
    ///   - pipeline: loads the images; without storage when the strategy keeps nothing.
    ///   - decodeTimes: what the pipeline's loader learns of decode times (`ImagePipeline.stripLoader`).
    public init(items: [CarouselItem], configuration: CarouselConfiguration, pipeline: ImagePipeline,
                decodeTimes: DecodeTimeEstimator? = nil, remote: RemoteFetching? = nil, strategy: LoadingStrategy? = nil,
                viewportWidth: Double, viewportHeight: Double, pixelScale: Double = 1) {
        self.items = items
        self.configuration = configuration
        self.pipeline = pipeline
        self.decodeTimes = decodeTimes
        self.remote = remote
        let strategy = strategy ?? AdaptiveStrategy(base: configuration.preload)
        precondition(strategy.cachePolicy != .none || !pipeline.hasStorage,
                     "a strategy that keeps nothing needs a pipeline without storage")
        self.strategy = strategy
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
        itemIndex = Self.indexByPath(items)
    }

    /// How many cells were ever made: stays near the visible count + 2 however far the user scrolls.
    public var cellsCreated: Int { pool.createdCount }

    /// The most cells on screen at once, at the current viewport.
    public var maximumVisibleCells: Int { min(items.count, layout.maximumVisibleColumns * layout.rows) }

    /// The size, in device pixels, that images are decoded and scaled to for a cell (HiDPI aware).
    public var cellPixelSize: PixelSize {
        PixelSize(width: Int((configuration.cellWidth * pixelScale).rounded()),
                  height: Int((configuration.cellHeight * pixelScale).rounded()))
    }

    public func key(for index: Int, variant: ImageVariant = .cell) -> ImageKey {
        if keys.isEmpty { keys = Array(repeating: nil, count: items.count * Self.variantCount) }
        let slot = index * Self.variantCount + variant.rawValue
        if let key = keys[slot] { return key }
        let cell = cellPixelSize
        let r = variant.reduction
        let box = PixelSize(width: (cell.width + r - 1) / r, height: (cell.height + r - 1) / r)
        let key = ImageKey(path: items[index].path, size: box, variant: variant, version: items[index].version)
        keys[slot] = key
        return key
    }

    /// `key(for:variant:)`'s answers, by index and variant, until an item or the pixel scale changes. A key
    /// hashes its path when made, and a frame that asks for loads makes some 25 keys (and a planned fling
    /// one more per item on its way): making them afresh was a seventh of adaptive's load requests.
    private var keys: [ImageKey?] = []
    /// `ImageVariant.allCases` makes a new array each time it is asked.
    private static let variantCount = ImageVariant.allCases.count

    /// An item, or the size images are decoded at, changed: the same requests now mean other keys.
    private func keysChanged() {
        keys.removeAll(keepingCapacity: true)
        lastRequests = nil
    }

    /// The size at which a cell draws what it shows, in pixels: a preview is drawn at the size the full
    /// image would have, a whole unscaled image is shrunk to fit.
    public func displaySize(of cell: CarouselCell) -> PixelSize? {
        guard case .image(let pixels) = cell.content, let variant = cell.shownVariant else { return nil }
        switch variant {
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

    // MARK: Viewport

    public func resize(viewportWidth: Double, viewportHeight: Double, pixelScale: Double) {
        let scaleChanged = pixelScale != self.pixelScale
        self.pixelScale = pixelScale
        layout.viewportSize = Size(width: viewportWidth, height: viewportHeight)
        scroll.resize(contentLength: layout.contentWidth, viewportLength: viewportWidth)
        // Images decoded for another pixel size must load again at the new one.
        if scaleChanged {
            for cell in visibleCells { recycle(cell) }
            visibleCells.removeAll()
        }
    }

    // MARK: Input

    public func beginDrag(x: Double, time: Duration) { scroll.beginDrag(at: x, time: time) }
    public func drag(x: Double, time: Duration) { scroll.drag(to: x, time: time) }
    public func endDrag(time: Duration) { scroll.endDrag(time: time) }

    /// Wheel or touchpad motion in points (positive moves the content left, towards later items).
    public func scrollBy(_ points: Double, time: Duration) {
        scroll.scroll(by: points, time: time)
        bringSelectionOnScreen()
    }

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
        guard !items.isEmpty else { return }
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

    /// When the user's own scrolling (a drag, a fling, the wheel) has left the selection wholly off screen,
    /// it moves to the nearest whole image on screen, in its row, as in nsxiv's thumbnail mode: the arrow
    /// keys then carry on from what is shown instead of scrolling back to where browsing started, and Enter,
    /// the overlay and the title name an image the user can see. Only at rest: a key's animated scroll
    /// towards a new selection is not undone on its way, and a partly shown selection (a click on an edge
    /// cell) stays.
    private func bringSelectionOnScreen() {
        guard !items.isEmpty, scroll.phase == .idle else { return }
        let visible = layout.visibleRange(offset: scroll.offset)
        guard !visible.isEmpty, !visible.contains(selectedIndex) else { return }
        let columns = layout.wholeColumns(offset: scroll.offset)
            ?? layout.column(of: visible.lowerBound)...layout.column(of: visible.upperBound - 1)
        let column = selectedIndex < visible.lowerBound ? columns.lowerBound : columns.upperBound
        selectedIndex = min(column * layout.rows + layout.row(of: selectedIndex), items.count - 1)
    }

    public func selectWithoutScrolling(_ index: Int) {
        guard items.indices.contains(index) else { return }
        selectedIndex = index
    }

    // MARK: Changes on disk

    /// Applies what the folder watcher saw: a changed file reloads its cell (the old image stays until
    /// the new one is decoded), a deleted file leaves the strip, a new file takes its place in sort order.
    /// What the user looks at does not move: the selected item (or the first visible one) keeps its place
    /// on screen, a fling in progress carries on, and the selection stays on its item (or, if that item
    /// went, on the one that took its place).
    public func apply(_ changes: [ItemChange]) {
        let oldItems = items
        let selectedPath = items.indices.contains(selectedIndex) ? items[selectedIndex].path : nil
        let anchor = positionAnchor()
        // Batches drained together can name a path twice (created, then deleted): the last word counts.
        var last: [String: ItemChange] = [:]
        var order: [String] = []
        for change in changes {
            if last.updateValue(change, forKey: change.path) == nil { order.append(change.path) }
        }
        var removed = Set<String>()
        var added: [CarouselItem] = []
        for path in order {
            switch last[path]! {
            case .present(_, let version):
                if let index = itemIndex[path] {
                    if items[index].version != version { itemContentChanged(at: index, to: version) }
                } else {
                    added.append(CarouselItem(path: path, version: version))
                }
            case .removed:
                if itemIndex[path] != nil { removed.insert(path) }
            }
        }
        let structural = !removed.isEmpty || !added.isEmpty
        // One pass each, however many files came and went: a thousand new files must not cost a
        // thousand rebuilds of a ten-thousand-item strip on the main thread.
        if !removed.isEmpty {
            items.removeAll { removed.contains($0.path) }
            pipeline.removeStoredValues { removed.contains($0.path) }
        }
        if !added.isEmpty { items = ItemOrder.inserting(added, into: items) }
        if structural { itemIndex = Self.indexByPath(items) }
        guard structural else { return }
        layout.itemCount = items.count
        hasRemoteItems = items.contains(where: \.isRemote)

        // Cells follow their items to their new indices; cells of removed items go back to the pool.
        for cell in visibleCells {
            if let old = cell.index, let index = itemIndex[oldItems[old].path] { cell.index = index } else { recycle(cell) }
        }
        visibleCells.removeAll { $0.index == nil }
        visibleCells.sort { ($0.index ?? 0) < ($1.index ?? 0) }

        if let selectedPath, let index = itemIndex[selectedPath] {
            selectedIndex = index
        } else if !oldItems.isEmpty {
            // The selected item went: select the next surviving one, as file managers do.
            let next = oldItems[min(selectedIndex, oldItems.count - 1)...].lazy.compactMap { self.itemIndex[$0.path] }.first
            selectedIndex = max(0, min(next ?? items.count - 1, items.count - 1))
        } else {
            selectedIndex = 0
        }

        let shift: Double
        if let anchor, let index = itemIndex[anchor.path] {
            shift = layout.frame(of: index).x - anchor.x
        } else {
            shift = 0
        }
        scroll.shiftContent(by: shift, contentLength: layout.contentWidth)
        layoutCells()
    }

    /// The item whose place on screen must not move, and its x in content coordinates.
    private func positionAnchor() -> (path: String, x: Double)? {
        let shown = visibleCells.compactMap(\.index)
        guard let index = shown.contains(selectedIndex) ? selectedIndex : shown.first else { return nil }
        return (items[index].path, layout.frame(of: index).x)
    }

    /// The file (or download) behind item `index` has new content: new cache keys, the old pixels freed.
    private func itemContentChanged(at index: Int, to version: FileVersion) {
        let path = items[index].path
        items[index].version = version
        pipeline.removeStoredValues { $0.path == path && $0.version != version }
        for cell in visibleCells where cell.index == index { cell.contentChanged() }
    }

    // MARK: Frame

    /// Advances scrolling to `now`, reuses cells for what is visible, applies finished decodes to the
    /// cells still tagged for them, and asks the strategy what to load. Returns this frame's scroll
    /// delegate events.
    @discardableResult
    public func update(now: Duration) -> [ScrollEvent] {
        let before = scroll.offset
        scroll.step(to: now)
        let events = scroll.takeEvents()
        if scroll.offset > before { lastScrollDirection = 1 } else if scroll.offset < before { lastScrollDirection = -1 }
        if events.contains(where: { $0 == .didEndDecelerating || $0 == .didEndDragging(willDecelerate: false) }) {
            bringSelectionOnScreen()
        }
        // Stored before the cells are laid out, so a cell coming on screen finds what landed since the
        // last frame in the cache, as if the worker had stored it.
        let deliveries = drainPipeline()
        layoutCells()
        apply(deliveries)
        upgradeFromCache()
        requestLoads(now: now, events: events)
        return events
    }

    /// Cells whose image is decoded but not yet in a texture: images that appear at once first, then the
    /// rest from the selected one outwards. The renderer uploads within its budget and calls `didUpload`.
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
        if pipeline.isLoading { return true }
        if hasRemoteItems, let remote, visibleCells.contains(where: { cell in
            // A download on its way to a visible cell: the image will change without input.
            guard !cell.hasImage, let index = cell.index, items[index].isRemote else { return false }
            return remote.state(of: items[index].path) == .inFlight
        }) { return true }
        return visibleCells.contains { $0.needsUpload || ($0.shownAt != nil && $0.imageAlpha(now: now, fade: fade) < 1) }
    }

    /// Drops a remembered failure for `index` and loads it again (Enter or click on an error cell).
    public func retry(_ index: Int) {
        guard items.indices.contains(index) else { return }
        if items[index].isRemote { remote?.forgetFailure(items[index].path) }
        for variant in ImageVariant.allCases { pipeline.forgetFailure(key(for: index, variant: variant)) }
        for cell in visibleCells where cell.index == index { cell.content = .placeholder }
    }

    /// Every item known not to load, with why: for the run report.
    public var knownFailures: [(item: CarouselItem, failure: LoadFailure)] {
        items.indices.compactMap { index in knownFailure(for: index).map { (items[index], $0) } }
    }

    /// The cell-sized image of item `index` if the cache holds it (a picture to show while a larger view
    /// of the item loads).
    public func cachedImage(for index: Int) -> PixelBuffer? {
        items.indices.contains(index) ? pipeline.storedValue(for: key(for: index)) : nil
    }

    /// Shows what the cache holds for visible cells still waiting, without a fade: after another view (the
    /// single-image view) was shown instead of the strip.
    public func refreshVisibleCells() {
        for cell in visibleCells where !cell.hasImage { showBestCached(in: cell, countingStats: false) }
    }

    // MARK: Private

    private func layoutCells() {
        let range = items.isEmpty ? 0..<0 : layout.visibleRange(offset: scroll.offset)
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
            if let failure = knownFailure(for: index) {
                cell.content = .failed(failure)
            } else {
                showBestCached(in: cell, countingStats: true)
            }
            visibleCells.append(cell)
        }
        if visibleCells.count > kept { visibleCells.sort { ($0.index ?? 0) < ($1.index ?? 0) } }
    }

    private func recycle(_ cell: CarouselCell) {
        cell.prepareForReuse()
        pool.enqueue(cell)
    }

    private func knownFailure(for index: Int) -> LoadFailure? {
        if items[index].isRemote, case .failed(let failure) = remote?.state(of: items[index].path) { return failure }
        for variant in strategy.acceptableVariants(isMoving: scroll.isMoving) {
            if let failure = pipeline.failure(for: key(for: index, variant: variant)) { return failure }
        }
        return nil
    }

    /// Puts the best cached variant the strategy accepts into `cell`, if it is better than what it shows.
    /// A cell coming on screen counts one cache hit or miss; the per-frame upgrade check counts nothing.
    private func showBestCached(in cell: CarouselCell, countingStats: Bool) {
        guard let index = cell.index else { return }
        let acceptable = strategy.acceptableVariants(isMoving: scroll.isMoving)
        var missed = false
        for variant in acceptable {
            if let shown = cell.freshVariant, rank(of: variant, in: acceptable) >= rank(of: shown, in: acceptable) { break }
            let key = key(for: index, variant: variant)
            let pixels = countingStats && !missed ? pipeline.cachedValue(for: key) : pipeline.storedValue(for: key)
            if let pixels {
                cell.show(pixels, variant: variant, fade: strategy.fadesCachedImages)
                return
            }
            missed = true
        }
    }

    private func rank(of variant: ImageVariant, in acceptable: [ImageVariant]) -> Int {
        acceptable.firstIndex(of: variant) ?? Int.max
    }

    /// Takes what the workers finished into the cache. Under `farthestFromCentre` the cache evicts by
    /// distance from the visible centre, ranked from this frame's items and scroll position.
    private func drainPipeline() -> [ImagePipeline.Delivery] {
        if strategy.cachePolicy == .farthestFromCentre {
            let range = items.isEmpty ? 0..<0 : layout.visibleRange(offset: scroll.offset)
            let centre = Double(range.lowerBound + range.upperBound) / 2
            let itemIndex = self.itemIndex
            pipeline.setEvictionRanking { key in
                guard let index = itemIndex[key.path] else { return .infinity }
                return abs(Double(index) - centre)
            }
        }
        return pipeline.drain()
    }

    private func apply(_ deliveries: [ImagePipeline.Delivery]) {
        guard !deliveries.isEmpty else { return }
        let acceptable = strategy.acceptableVariants(isMoving: scroll.isMoving)
        for completion in deliveries {
            // The tag check: only the cell still showing this item takes the result, and only in a
            // variant it wants and that is better than what it has.
            // The key must match in size and file version: an image decoded before the file changed (or
            // for another pixel scale) is not this item's image any more.
            guard let index = itemIndex[completion.key.path],
                  completion.key == key(for: index, variant: completion.key.variant),
                  let cell = visibleCells.first(where: { $0.index == index }) else { continue }
            switch completion.result {
            case .success(let pixels):
                let variant = completion.key.variant
                guard acceptable.contains(variant) else { continue }
                if let shown = cell.freshVariant, rank(of: variant, in: acceptable) >= rank(of: shown, in: acceptable) { continue }
                cell.show(pixels, variant: variant, fade: true)
            case .failure(let failure):
                if !cell.hasImage { cell.content = .failed(failure) }
            }
        }
    }

    /// Cells showing a lesser variant (a preview) take a better one already in the cache, e.g. once the
    /// strip stops and full-size images decoded earlier are at hand.
    private func upgradeFromCache() {
        for cell in visibleCells where cell.hasImage { showBestCached(in: cell, countingStats: false) }
    }

    private func requestLoads(now: Duration, events: [ScrollEvent]) {
        guard !items.isEmpty else { return }
        let visible = layout.visibleRange(offset: scroll.offset)
        var frame = StrategyFrame(now: now, visible: visible, itemCount: items.count, layout: layout,
                                  offset: scroll.offset, velocity: scroll.velocity, isDragging: scroll.isTracking,
                                  isDecelerating: scroll.isDecelerating, isMoving: scroll.isMoving,
                                  projectedRestingOffset: scroll.projectedRestingOffset,
                                  direction: lastScrollDirection, events: events)
        if strategy.plansWithItemLoads(frame) {
            frame.itemLoads = itemLoads(between: scroll.offset, and: scroll.projectedRestingOffset)
        }
        let requests = strategy.requests(for: frame)
        // Nine frames in ten ask for what the last one did. Unless a key has since left the cache, its
        // load ended uncached or its failure was forgotten (`revision`), asking again would change
        // nothing, and the walk below (a lookup in the cache and the queue per key) was most of the
        // strategy's share of a frame. Downloads change state on their own, so remote items always walk.
        let revision = pipeline.revision
        let asked = AskedRequests(requests: requests, cancelsRunningWork: strategy.cancelsRunningWork,
                                  revision: revision)
        if strategy.execution == .workers, !hasRemoteItems, asked == lastRequests { return }
        lastRequests = asked
        let acceptable = strategy.acceptableVariants(isMoving: scroll.isMoving)
        wanted.removeAll(keepingCapacity: true)
        var wantedDownloads = Set<String>()
        for request in requests {
            if items[request.index].isRemote,
               !isDownloaded(request.index, priority: request.priority, wanted: &wantedDownloads) { continue }
            let key = key(for: request.index, variant: request.variant)
            wanted.insert(key)
            // A cell already showing this variant or a better one needs nothing: without a cache, asking
            // again would decode it again every frame.
            if let shown = visibleCells.first(where: { $0.index == request.index })?.freshVariant,
               rank(of: shown, in: acceptable) <= rank(of: request.variant, in: acceptable) { continue }
            switch strategy.execution {
            case .workers:
                pipeline.request(key, priority: request.priority)
            case .mainThread:
                guard let cell = visibleCells.first(where: { $0.index == request.index }), !cell.hasImage,
                      case .placeholder = cell.content else { continue }
                switch pipeline.loadNow(key) {
                case .success(let pixels): cell.show(pixels, variant: request.variant, fade: false)
                case .failure(let failure): cell.content = .failed(failure)
                }
            }
        }
        pipeline.retainOnly(wanted, cancellingRunning: strategy.cancelsRunningWork)
        if hasRemoteItems { remote?.retainQueued(wantedDownloads) }
    }

    /// The keys this frame's requests want, kept from frame to frame so that its storage is made once.
    private var wanted = Set<ImageKey>()

    /// What `requestLoads` last asked the pipeline for, and its `revision` just before.
    private struct AskedRequests: Equatable {
        var requests: [LoadRequest]
        var cancelsRunningWork: Bool
        var revision: Int
    }
    private var lastRequests: AskedRequests?

    /// What is known of each (local) item's full-size image from the screen at `offset` to the one at
    /// `restingOffset`: for strategies that plan a fling's decodes.
    private func itemLoads(between offset: Double, and restingOffset: Double) -> [Int: ItemLoad] {
        let lower = layout.visibleRange(offset: min(offset, restingOffset)).lowerBound
        let upper = layout.visibleRange(offset: max(offset, restingOffset)).upperBound
        var loads: [Int: ItemLoad] = [:]
        for index in max(0, lower)..<min(items.count, max(lower, upper)) where !items[index].isRemote {
            let key = key(for: index)
            let state = pipeline.state(of: key)
            loads[index] = ItemLoad(state: state, decodeSeconds: decodeTimes?.estimatedSeconds(key),
                                    runningSeconds: state == .running ? pipeline.runningSeconds(key) : nil)
        }
        return loads
    }

    private lazy var hasRemoteItems = items.contains(where: \.isRemote)

    /// LazyTableImages' rule for a remote item the strategy wants: decode it once its bytes are here; start
    /// its download only while the strip is neither dragged nor decelerating (the visible items start
    /// when scrolling ends); show the failure if the download failed. True when it can be decoded now.
    private func isDownloaded(_ index: Int, priority: Int, wanted: inout Set<String>) -> Bool {
        guard let remote else { return false }
        let url = items[index].path
        switch remote.state(of: url) {
        case .ready(_, let version):
            if items[index].version != version { itemContentChanged(at: index, to: version) }
            return true
        case .inFlight:
            wanted.insert(url)
        case .notStarted:
            guard !scroll.isTracking && !scroll.isDecelerating else { return false }
            remote.fetch(url, priority: priority)
            wanted.insert(url)
        case .failed(let failure):
            if let cell = visibleCells.first(where: { $0.index == index }), !cell.hasImage { cell.content = .failed(failure) }
        }
        return false
    }

    private static func indexByPath(_ items: [CarouselItem]) -> [String: Int] {
        var map: [String: Int] = [:]
        for (index, item) in items.enumerated() where map[item.path] == nil { map[item.path] = index }
        return map
    }
}
