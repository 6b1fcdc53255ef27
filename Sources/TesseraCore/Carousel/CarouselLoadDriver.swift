/// Feeds the strip's cells with images: asks the strategy what to load each frame, gates downloads
/// (LazyTableImages' rule), requests through the pipeline, and puts what the pipeline delivers into the
/// cells still tagged for it (the book's listing 14.2). Main thread only.
///
/// Over 300 lines because asking, gating and delivering share the per-frame state of which keys each
/// cell waits for; split, each half would have to expose it to the other.
final class CarouselLoadDriver {
    let strategy: LoadingStrategy
    /// The strategy's, read once: how each requested load starts.
    private let loadStarter: any LoadStarting
    /// The strategy's cache policy, read once: whether the cache's eviction ranking follows the visible centre.
    private let ranksEvictionsByCentre: Bool
    private let pipeline: ImagePipeline
    /// What the strip's decodes cost so far, for strategies that plan; nil when nothing learns it.
    private let decodeTimes: DecodeTimeEstimator?
    /// Downloads remote items; nil when there are none.
    private let remote: RemoteFetching?
    private let items: CarouselItemList
    private let cells: CarouselCells

    /// The keys this frame's requests want, kept from frame to frame so that its storage is made once.
    private var wanted = Set<ImageKey>()

    /// What `requestLoads` last asked the pipeline for, with what it depended on.
    private struct AskedRequests: Equatable {
        var requests: [LoadRequest]
        var cancelsRunningWork: Bool
        /// The pipeline's `revision` just before.
        var revision: Int
        /// The item list's `generation`: the same requests mean other keys once it moves.
        var itemsGeneration: Int
    }
    private var lastRequests: AskedRequests?

    init(strategy: LoadingStrategy, pipeline: ImagePipeline, decodeTimes: DecodeTimeEstimator?, remote: RemoteFetching?,
         items: CarouselItemList, cells: CarouselCells) {
        precondition(strategy.cachePolicy.keepsImages || !pipeline.hasStorage,
                     "a strategy that keeps nothing needs a pipeline without storage")
        self.strategy = strategy
        loadStarter = strategy.loadStarter
        ranksEvictionsByCentre = strategy.cachePolicy.evictsFarthestFromCentre
        self.pipeline = pipeline
        self.decodeTimes = decodeTimes
        self.remote = remote
        self.items = items
        self.cells = cells
    }

    private var acceptableVariants: [ImageVariant] { strategy.acceptableVariants(isMoving: cells.scroll.isMoving) }

    private func rank(of variant: ImageVariant, in acceptable: [ImageVariant]) -> Int {
        acceptable.firstIndex(of: variant) ?? Int.max
    }

    // MARK: Results

    /// Takes what the workers finished into the cache and returns it for `apply`; called before the cells
    /// are laid out, so a cell coming on screen finds what landed since the last frame there.
    func drain() -> [ImagePipeline.Delivery] {
        drainPipeline()
        defer { undelivered.removeAll() }
        return undelivered
    }

    /// Drained from the pipeline but not yet handed to `apply` (see `refreshVisibleCells`).
    private var undelivered: [ImagePipeline.Delivery] = []

    /// The visible centre and item list the cache's eviction ranking was made for.
    private var rankedFor: (centre: Double, itemsGeneration: Int)?

    /// Under `evictsFarthestFromCentre` the cache evicts by distance from the visible centre, ranked by the
    /// items' indices at this frame's position (the pipeline only stores, and so evicts, right here).
    private func drainPipeline() {
        if ranksEvictionsByCentre {
            let range = cells.visibleRange
            let centre = Double(range.lowerBound + range.upperBound) / 2
            if rankedFor?.centre != centre || rankedFor?.itemsGeneration != items.generation {
                rankedFor = (centre, items.generation)
                let ranking = EvictionRanking(items: items, centre: centre)
                pipeline.setEvictionRanking { ranking.rank($0) }
            }
        }
        undelivered.append(contentsOf: pipeline.drain())
    }

    /// Puts what is known for its item into a cell that came on screen: its failure, or the best cached
    /// variant (one cache hit or miss counted).
    func fill(_ cell: CarouselCell) {
        guard let index = cell.index else { return }
        if let failure = knownFailure(for: index) {
            cell.content = .failed(failure)
        } else {
            showBestCached(in: cell, countingStats: true)
        }
    }

    /// The tag check: only the cell still showing a delivered item takes it, and only in a variant it
    /// wants and that is better than what it has. The key must match in size and file version: an image
    /// decoded before the file changed (or for another pixel scale) is not this item's image any more.
    func apply(_ deliveries: [ImagePipeline.Delivery], now: Duration) {
        guard !deliveries.isEmpty else { return }
        let acceptable = acceptableVariants
        for delivery in deliveries {
            guard let index = items.index(of: delivery.key.path),
                  delivery.key == items.key(for: index, variant: delivery.key.variant),
                  let cell = cells.cell(showing: index) else { continue }
            switch delivery.result {
            case .success(let pixels):
                let variant = delivery.key.variant
                guard acceptable.contains(variant) else { continue }
                if let shown = cell.freshVariant, rank(of: variant, in: acceptable) >= rank(of: shown, in: acceptable) { continue }
                let arrivedQuickly = cell.placedAt.map { now - $0 <= cells.configuration.quickArrival } ?? false
                cell.show(pixels, variant: variant, fade: strategy.fadesCachedImages || !arrivedQuickly)
            case .failure(let failure):
                if !cell.hasImage { cell.content = .failed(failure) }
            }
        }
    }

    /// Cells showing a lesser variant (a preview) take a better one already in the cache, e.g. once the
    /// strip stops and full-size images decoded earlier are at hand.
    func upgradeFromCache() {
        for cell in cells.visibleCells where cell.hasImage { showBestCached(in: cell, countingStats: false) }
    }

    /// Shows what the cache holds for visible cells still waiting, without a fade, counting in what the
    /// workers finished meanwhile (it reaches the cells now; `apply` hands it over at the next frame).
    func refreshVisibleCells() {
        drainPipeline()
        for cell in cells.visibleCells where !cell.hasImage { showBestCached(in: cell, countingStats: false) }
    }

    /// Puts the best cached variant the strategy accepts into `cell`, if it is better than what it shows.
    /// A cell coming on screen counts one cache hit or miss; the per-frame upgrade check counts nothing.
    private func showBestCached(in cell: CarouselCell, countingStats: Bool) {
        guard let index = cell.index else { return }
        let acceptable = acceptableVariants
        var missed = false
        for variant in acceptable {
            if let shown = cell.freshVariant, rank(of: variant, in: acceptable) >= rank(of: shown, in: acceptable) { break }
            let key = items.key(for: index, variant: variant)
            let pixels = countingStats && !missed ? pipeline.cachedValue(for: key) : pipeline.storedValue(for: key)
            if let pixels {
                cell.show(pixels, variant: variant, fade: strategy.fadesCachedImages)
                return
            }
            missed = true
        }
    }

    /// The cell-sized image of item `index` if the cache holds it.
    func cachedImage(for index: Int) -> PixelBuffer? {
        items.indices.contains(index) ? pipeline.storedValue(for: items.key(for: index)) : nil
    }

    // MARK: Failures

    func knownFailure(for index: Int) -> LoadFailure? {
        if items.isRemote(at: index), case .failed(let failure) = remote?.state(of: items.path(at: index)) { return failure }
        for variant in acceptableVariants {
            if let failure = pipeline.failure(for: items.key(for: index, variant: variant)) { return failure }
        }
        return nil
    }

    /// Every item known not to load, with why, in strip order: found from the failures remembered, not by
    /// asking each of a million items.
    var knownFailures: [(index: Int, failure: LoadFailure)] {
        var candidates = Set(pipeline.failedKeys.compactMap { items.index(of: $0.path) })
        if items.hasRemoteItems { candidates.formUnion(items.indices.lazy.filter { self.items.isRemote(at: $0) }) }
        return candidates.sorted().compactMap { index in knownFailure(for: index).map { (index, $0) } }
    }

    /// Drops a remembered failure for `index` so it loads again (Enter or click on an error cell).
    func retry(_ index: Int) {
        guard items.indices.contains(index) else { return }
        if items.isRemote(at: index) { remote?.forgetFailure(items.path(at: index)) }
        for variant in ImageVariant.allCases { pipeline.forgetFailure(items.key(for: index, variant: variant)) }
        cells.cell(showing: index)?.content = .placeholder
    }

    // MARK: Changes to the items

    /// Item `path` has new content (or a new turn): the old pixels leave the cache, and its cell keeps the
    /// old image until the new one arrives.
    func contentChanged(at path: String) {
        guard let index = items.index(of: path) else { return }
        let version = items.version(at: index), orientation = items.sessionOrientation(at: index)
        pipeline.removeStoredValues { $0.path == path && ($0.version != version || $0.sessionOrientation != orientation) }
        cells.cell(showing: index)?.contentChanged()
    }

    /// Items left the strip: their pixels leave the cache.
    func itemsRemoved(_ paths: Set<String>) {
        guard !paths.isEmpty else { return }
        pipeline.removeStoredValues { paths.contains($0.path) }
    }

    // MARK: Requests

    /// Whether an image for a visible cell is on its way: a load in the pipeline, or a download, which
    /// includes one whose bytes just came and whose decode the next frame asks for.
    var isWaiting: Bool {
        if pipeline.isLoading { return true }
        guard items.hasRemoteItems, let remote else { return false }
        return cells.visibleCells.contains { cell in
            guard case .placeholder = cell.content, let index = cell.index, items.isRemote(at: index) else { return false }
            switch remote.state(of: items.path(at: index)) {
            case .inFlight, .ready: return true
            case .notStarted, .failed: return false
            }
        }
    }

    /// Asks the strategy what this frame wants and requests it, dropping what it no longer lists.
    func requestLoads(now: Duration, events: [ScrollEvent]) {
        guard !items.isEmpty else { return }
        let scroll = cells.scroll, layout = cells.layout
        var frame = StrategyFrame(now: now, visible: cells.visibleRange, itemCount: items.count, layout: layout,
                                  offset: scroll.offset, velocity: scroll.velocity, isDragging: scroll.isTracking,
                                  isDecelerating: scroll.isDecelerating, isMoving: scroll.isMoving,
                                  projectedRestingOffset: scroll.projectedRestingOffset,
                                  direction: cells.scrollDirection, events: events)
        if strategy.plansWithItemLoads(frame) {
            frame.itemLoads = itemLoads(between: scroll.offset, and: scroll.projectedRestingOffset)
        }
        let requests = strategy.requests(for: frame)
        // Nine frames in ten ask for what the last one did. Unless the pipeline has since seen a key become
        // loadable again (`revision`) or the keys changed meaning, asking again would change nothing, and
        // the walk below (a lookup in the cache and the queue per key) would be most of the strategy's
        // share of a frame. Downloads change state on their own, so remote items always walk.
        let asked = AskedRequests(requests: requests, cancelsRunningWork: strategy.cancelsRunningWork,
                                  revision: pipeline.revision, itemsGeneration: items.generation)
        if !loadStarter.asksEveryFrame, !items.hasRemoteItems, asked == lastRequests { return }
        lastRequests = asked
        let acceptable = acceptableVariants
        wanted.removeAll(keepingCapacity: true)
        var wantedDownloads = Set<String>()
        for request in requests {
            if items.isRemote(at: request.index),
               !isDownloaded(request.index, priority: request.priority, wanted: &wantedDownloads) { continue }
            let key = items.key(for: request.index, variant: request.variant)
            wanted.insert(key)
            // A cell already showing this variant or a better one needs nothing: without a cache, asking
            // again would decode it again every frame.
            let cell = cells.cell(showing: request.index)
            if let shown = cell?.freshVariant, rank(of: shown, in: acceptable) <= rank(of: request.variant, in: acceptable) {
                continue
            }
            guard let loadedNow = loadStarter.start(key, for: request, cell: cell, in: pipeline), let cell else { continue }
            switch loadedNow {
            case .success(let pixels): cell.show(pixels, variant: request.variant, fade: false)
            case .failure(let failure): cell.content = .failed(failure)
            }
        }
        pipeline.retainOnly(wanted, cancellingRunning: strategy.cancelsRunningWork)
        if items.hasRemoteItems { remote?.retainQueued(wantedDownloads) }
    }

    /// What is known of each (local) item's full-size image from the screen at `offset` to the one at
    /// `restingOffset`: for strategies that plan a fling's decodes.
    private func itemLoads(between offset: Double, and restingOffset: Double) -> [Int: ItemLoad] {
        let layout = cells.layout
        let lower = layout.visibleRange(offset: min(offset, restingOffset)).lowerBound
        let upper = layout.visibleRange(offset: max(offset, restingOffset)).upperBound
        var loads: [Int: ItemLoad] = [:]
        for index in max(0, lower)..<min(items.count, max(lower, upper)) where !items.isRemote(at: index) {
            let key = items.key(for: index)
            let state = pipeline.state(of: key)
            loads[index] = ItemLoad(state: state, decodeSeconds: decodeTimes?.estimatedSeconds(key),
                                    runningSeconds: state == .running ? pipeline.runningSeconds(key) : nil)
        }
        return loads
    }

    /// LazyTableImages' rule for a remote item the strategy wants: decode it once its bytes are here; start
    /// its download only while the strip is neither dragged nor decelerating (the visible items start
    /// when scrolling ends); show the failure if the download failed. True when it can be decoded now.
    private func isDownloaded(_ index: Int, priority: Int, wanted: inout Set<String>) -> Bool {
        guard let remote else { return false }
        let url = items.path(at: index)
        switch remote.state(of: url) {
        case .ready(_, let version):
            if items.version(at: index) != version {
                items.setVersion(version, at: index)
                contentChanged(at: url)
            }
            return true
        case .inFlight:
            wanted.insert(url)
        case .notStarted:
            guard !cells.scroll.isTracking && !cells.scroll.isDecelerating else { return false }
            remote.fetch(url, priority: priority)
            wanted.insert(url)
        case .failed(let failure):
            if let cell = cells.cell(showing: index), !cell.hasImage { cell.content = .failed(failure) }
        }
        return false
    }
}

/// The cache's eviction ranking under `evictsFarthestFromCentre`: an image's distance, in items, from the
/// visible centre. It looks the item up in the list itself rather than in a copy of its paths (a strip of
/// a million items would copy them at every change). `@unchecked Sendable`: the cache ranks only while
/// storing, which the strip's pipeline does at its drain on the main thread, which owns the list.
private final class EvictionRanking: @unchecked Sendable {
    private weak var items: CarouselItemList?
    private let centre: Double

    init(items: CarouselItemList, centre: Double) {
        self.items = items
        self.centre = centre
    }

    func rank(_ key: ImageKey) -> Double {
        guard let index = items?.index(of: key.path) else { return .infinity }
        return abs(Double(index) - centre)
    }
}
