import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraTiling

/// The tiles of one open pyramid, from where they come to what is on the GPU (vipsdisp's tilecache, kept
/// apart from its tilesource): tiles load through a `LoadPipeline` on a lane of the process's executor
/// (its rank the view's: visible when shown, preload when opened ahead), wait for a frame
/// with upload budget, go into textures (`TileTexturePool`) and are held in a `TileStore` bounded in bytes
/// that never evicts the coarse levels. A tile that fails is remembered as failed; where the source's
/// failures may pass (a server's), it is tried again by itself while it is on screen (`TileRetrySchedule`),
/// and a queued or running load nobody keeps any more is dropped or ended. Main thread only.
final class PyramidTileCache {
    typealias Pipeline = LoadPipeline<TileID, PixelBuffer>

    let source: any TileSource
    let planner: TileDrawPlanner
    let store: TileStore<ImageTexture>
    let baseTiles: [TileID]
    /// This frame's plan, once made.
    var plan: TileDrawPlan?
    /// Whether a visible tile is still fading in.
    var isFading = false
    /// Whether a tile with transparent pixels was shown (the image area then gets a neutral backdrop).
    private(set) var hasTransparency = false

    private let pipeline: Pipeline
    /// The lane the pipeline's loads run on: the executor's, or, for a source that fetches, the fetch
    /// threads'.
    private let lane: WorkScheduler<TileID, PixelBuffer>
    /// For a source that fetches: the executor's lane its tiles are decoded on, within the workers' count.
    private let decodeLane: WorkScheduler<TileID, PixelBuffer>?
    private let pool: TileTexturePool
    private let observer: (any RunObserver)?
    /// Decoded tiles waiting for a frame with upload budget left, by tile.
    private var arrivals: [TileID: Pipeline.Delivery] = [:]
    /// The tiles whose queued loads the last frame kept.
    private var retained: Set<TileID> = []
    /// Base tiles the source could not give yet (a cut in progress has not written them).
    private var unwrittenBaseTiles: Set<TileID> = []
    /// When failed tiles are tried again.
    private var retries: TileRetrySchedule
    /// Failed tiles being tried again: drawn as failed until they arrive, so a retry does not flicker.
    private var retrying: Set<TileID> = []
    /// The tiles a failure is tried again for by itself: those on screen and the base level.
    private var retryCandidates: Set<TileID> = []
    private let logger = Logger(label: "tessera.view")

    /// - Parameters:
    ///   - executor: runs the tile loads, within its decode memory budget.
    ///   - rank: where the loads stand against the process's other work (see `rank`).
    ///   - observer: hears the tiles' loads and uploads, and fades beginning on screen, when the run is
    ///     measured.
    init(source: any TileSource, renderer: Renderer, options: TiledViewOptions, executor: WorkExecutor,
         rank: WorkRank, waker: EventLoopWaker?, observer: (any RunObserver)?) {
        self.source = source
        self.observer = observer
        let geometry = source.geometry
        planner = TileDrawPlanner(geometry: geometry, showsCoarserUnderFailures: source.failuresMayPass)
        retries = TileRetrySchedule(policy: source.failuresMayPass ? options.tileRetry : .never)
        let limit = renderer.maxTextureSize
        // No storage: the store holds tiles as textures, which only the main thread may touch.
        let memory = executor.memoryBudget.map { budget in
            WorkScheduler<TileID, PixelBuffer>.MemoryAdmission(budget: budget, estimate: { source.decodeMemoryEstimate($0) })
        }
        let decodes = WorkScheduler<TileID, PixelBuffer>(rank: rank, on: executor, memory: memory)
        let loader: Pipeline.Loader
        if let fetching = source as? any FetchingTileSource {
            // A fetch only waits, so fetches run on threads of their own, as many at once as a host takes
            // connections; each hands its bytes to the executor's workers to decode.
            lane = WorkScheduler(rank: rank, on: options.fetchExecutor ?? TiledViewOptions.sharedFetchExecutor)
            decodeLane = decodes
            loader = { tile, cancellation in
                let fetched = try Self.tileLoad { () throws(TileSourceError) in try fetching.fetch(tile, cancellation: cancellation) }
                return try decodes.performAndWait(tile, cancellation: cancellation) { _ in
                    try Self.tileLoad { () throws(TileSourceError) in
                        TiledImageOpener.withinTextureLimit(try fetching.decode(fetched), limit: limit)
                    }
                }
            }
        } else {
            lane = decodes
            decodeLane = nil
            loader = { tile, cancellation in
                try Self.tileLoad { () throws(TileSourceError) in
                    TiledImageOpener.withinTextureLimit(try source.loadTile(tile, cancellation: cancellation), limit: limit)
                }
            }
        }
        pipeline = Pipeline(scheduler: lane,
                            cost: \.cost,
                            loader: loader,
                            waker: { waker?.wake() },
                            observation: observer.map { LoadObservation($0, view: .tiled) })
        pool = TileTexturePool(renderer: renderer, geometry: geometry)
        // The bound must hold the largest tile and the coarser levels under it (a third of it at most), or
        // an image shown as one picture per level could never keep its full level; beyond that, `--cache-mb`.
        let side = geometry.tileSize + 2 * geometry.overlap
        let largestCost = min(side, geometry.width) * min(side, geometry.height) * 4
        let policy = options.policy
        store = TileStore(costLimitBytes: max(options.cacheLimitBytes, largestCost + largestCost / 3),
                          isPinned: { policy.isPinned($0, in: geometry) })
        baseTiles = policy.baseTiles(in: geometry)
    }

    deinit { decodeLane?.shutdown() }

    /// A step of a tile's load: a tile given up is stopped, not failed; any other error is the tile's failure.
    private static func tileLoad<Value>(_ step: () throws(TileSourceError) -> Value) throws -> Value {
        do throws(TileSourceError) {
            return try step()
        } catch {
            if error.reason == .cancelled { throw DecodeCancelled() }
            throw LoadFailure(shortText: "Missing tile", detail: error.description)
        }
    }

    var geometry: DeepZoomGeometry { source.geometry }
    /// Where the tile loads stand against the process's other work; a change reorders the queued ones.
    var rank: WorkRank {
        get { lane.rank }
        set {
            lane.rank = newValue
            decodeLane?.rank = newValue
        }
    }
    /// Tile loads waiting for a worker, and begun so far (for tests).
    var loadCounts: (queued: Int, started: Int) { (lane.queuedCount, lane.stats.started) }
    /// Where the tiles' loads are counted in a measured run.
    var loadObservation: LoadObservation? { pipeline.observation }
    /// Nothing is loading or waiting to be uploaded.
    var isSettled: Bool { !pipeline.isLoading && arrivals.isEmpty }
    /// Tiles landed but not uploaded yet (past a frame's upload budget): the next frames take them up
    /// without a worker's wake.
    var hasArrivalsWaiting: Bool { !arrivals.isEmpty }

    /// Why a tile shown so far is only part of its picture (a damaged file, in its decoder's words).
    private(set) var damage: String?

    /// Puts a tile in a texture and in the store (the store may let it or others go at once).
    func hold(_ pixels: PixelBuffer, for tile: TileID, fadeStart: Duration) throws {
        if let damaged = pixels.damage { damage = damaged }
        let texture = try pool.make(from: pixels)
        if !texture.isOpaque { hasTransparency = true }
        pool.recycle(store.insert(texture, for: tile, cost: texture.cost, fadeStart: fadeStart))
    }

    /// What the cache holds for `tile` at `now`, as far as drawing is concerned.
    func availability(_ tile: TileID, now: Duration, fade: TileFade) -> TileAvailability {
        if let entry = store.entry(for: tile) { return fade.availability(fadeStart: entry.fadeStart, now: now) }
        return hasFailed(tile) ? .failed : .absent
    }

    /// Known to fail, or failed and being tried again.
    func hasFailed(_ tile: TileID) -> Bool { pipeline.failure(for: tile) != nil || retrying.contains(tile) }

    /// Failed tiles, those being tried again included.
    var failedTileCount: Int { pipeline.failedKeys.count + retrying.count }

    // MARK: Retries

    /// Tries again the failed tiles among `onScreen` and the base level whose time has come.
    func retryDueTiles(onScreen: Set<TileID>, now: Duration) {
        retryCandidates = onScreen.union(baseTiles)
        let failed = retryCandidates.filter { pipeline.failure(for: $0) != nil }
        guard !failed.isEmpty else { return }
        for tile in retries.takeDue(among: failed, now: now) {
            pipeline.forgetFailure(tile)
            retrying.insert(tile)
            pipeline.request(tile, priority: 0)
        }
    }

    /// The user asked: every failed tile is due at once (those off screen when they come on screen).
    func retryAllFailedTiles(now: Duration) {
        retries.retryNow(pipeline.failedKeys, at: now)
    }

    /// When a failed tile on screen is next tried again by itself; nil when none is.
    var nextRetryAt: Duration? {
        retries.nextDue(among: retryCandidates.filter { pipeline.failure(for: $0) != nil })
    }

    /// Asks for the base level, the moment the pyramid opens; tiles a cut has not written yet are asked for
    /// once it has (`request`).
    func requestBaseTiles(except held: Set<TileID>) {
        for tile in baseTiles where !held.contains(tile) {
            if source.isAvailable(tile) { pipeline.request(tile, priority: 0) } else { unwrittenBaseTiles.insert(tile) }
        }
    }

    /// Takes the tiles the workers finished, then copies them into textures, coarse levels and on-screen
    /// tiles first, until the frame's byte budgets are spent (`budget` in all, `aheadBudget` for tiles of
    /// the current level not on screen yet); the rest wait for the next frame. A tile arriving on screen
    /// over something opaque fades in, as does one tried again after a failure (it replaces an error square
    /// or a coarser picture); the first picture of a place appears at once. A failure is remembered with
    /// the time of its next try.
    func upload(onScreen: Set<TileID>, now: Duration, fade: TileFade, hasBackdrop: Bool, budget: Int, aheadBudget: Int) {
        for arrival in pipeline.drain() {
            switch arrival.result {
            case .success:
                retries.succeeded(arrival.key)
                arrivals[arrival.key] = arrival
            case .failure:
                retries.failed(arrival.key, at: now)
                retrying.remove(arrival.key)
            }
        }
        guard !arrivals.isEmpty else { return }
        // Coarse first: they are small, and a finer tile arriving in the same frame can then fade in over them.
        let pending = arrivals.values.sorted {
            ($0.key.level, onScreen.contains($0.key) ? 0 : 1, $0.key.row, $0.key.column)
                < ($1.key.level, onScreen.contains($1.key) ? 0 : 1, $1.key.row, $1.key.column)
        }
        var spent = 0, spentAhead = 0
        for arrival in pending {
            let tile = arrival.key
            guard case .success(let pixels) = arrival.result else { continue }
            let ahead = tile.level == plan?.level && !onScreen.contains(tile)
            if spent > 0 && (spent + pixels.cost > budget || (ahead && spentAhead + pixels.cost > aheadBudget)) {
                continue  // next frame
            }
            arrivals[tile] = nil
            if ahead { spentAhead += pixels.cost }
            // A tile tried again after a failure fades in over whatever stood for it, even an error square.
            let wasFailed = retrying.remove(tile) != nil
            do {
                let visible = onScreen.contains(tile) && (wasFailed || planner.hasOpaqueFallback(tile, hasBackdrop: hasBackdrop) {
                    availability($0, now: now, fade: fade)
                })
                let start = fade.start(arrivingAt: now, onScreen: visible)
                if visible, let observer, fade.timing.duration > .zero { observer.tileFadeBegan(tile, at: start) }
                try hold(pixels, for: tile, fadeStart: start)
                spent += pixels.cost
            } catch {
                logger.warning("tile \(tile) not shown: \(error)")
            }
        }
        observer?.uploaded(bytes: spent, in: .tiled)
    }

    /// Asks for what `requests` lists that the source can give (a tile already decoded and waiting for
    /// upload is not asked for again, nor one a cut in progress has not written), drops queued loads it
    /// does not keep (failed tiles tried again are kept while they are retry candidates), ends running
    /// loads it does not keep where the source waits on a server (so its connection serves a tile that is
    /// wanted), and lets go of decoded tiles of the current level the view has left behind rather than
    /// uploading them.
    func request(_ requests: TileRequestPolicy.Requests) {
        for tile in unwrittenBaseTiles where source.isAvailable(tile) {
            unwrittenBaseTiles.remove(tile)
            pipeline.request(tile, priority: 0)
        }
        for request in requests.requests where arrivals[request.tile] == nil && source.isAvailable(request.tile) {
            pipeline.request(request.tile, priority: request.priority)
        }
        let keep = requests.keep.union(retrying.intersection(retryCandidates))
        if keep != retained {
            pipeline.retainOnly(keep, cancellingRunning: source.loadsSlowly)
            retained = keep
        }
        if let level = plan?.level {
            for tile in arrivals.keys where !keep.contains(tile) && tile.level == level { arrivals[tile] = nil }
        }
        // A retry dropped or ended before it finished leaves the tile as never asked for.
        retrying = retrying.filter { pipeline.isInFlight($0) || arrivals[$0] != nil }
    }
}
