import Foundation
import Logging
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraSDL

/// What the strip viewer is made of, built once from the options: the decoding service, the window host,
/// the process's executor and the lanes on it (the image pipeline with its loader, files through the
/// thumbnail cache and downloads from their cached copies; the file actions, the information, the sort
/// facts), the download store, the folder watcher, the carousel model and its view, the maker of single
/// views; and the observer of a measured run, handed to each part that tells it something. Main thread
/// only.
final class ViewerWiring {
    let options: ViewerOptions
    /// Hears the run when a report is asked for; nil otherwise.
    let observer: (any RunObserver)?
    /// The window, its renderer, the UI's images and text, the display's colour conversion.
    let host: WindowHost
    let pipeline: ImagePipeline
    /// The process's one executor: the strip's decodes, the single views' openings and tiles, the
    /// information, the sort facts and the file actions run on its workers, each on a lane of its own,
    /// the decodes within its memory budget.
    let executor: WorkExecutor
    /// Where images are decoded: in sandboxed processes, one per decode worker, or in this process.
    let decoding: any DecodingService
    /// Downloads of remote items; nil when every item is a file.
    let remote: RemoteImageStore?
    let model: CarouselModel
    let carouselView: CarouselView
    /// Opens the single view of an item with the run's options.
    let singleViews: SingleViewMaker
    /// The strip's selected cell, playing when it is an animation.
    let stripAnimation: SelectedCellAnimation
    /// What the watcher saw, waiting for the main thread.
    let fileChanges = Inbox<ItemChange>()
    /// The trash and the turns, and their undo, on a worker.
    let fileActions: FileActions
    /// The key-handler, one run at a time.
    let keyHandler: KeyHandlerSession
    /// What a request to quit waits for.
    let quitting: Quitting
    /// The `i` overlay's information, read on a worker.
    let information: ImageInformationCache
    let overlay: OverlayPainter
    /// Watches the browsed folders; nil when not asked for or inotify is unavailable.
    private var watcher: FolderWatcher?
    /// What to watch: the options' targets, or those of the listing.
    private let watchTargets: WatchTargets?
    /// How long the listing took (names listed and ordered); nil when the items were given.
    let listingDuration: Duration?
    /// Reads what the strip's order needs of its files, in the background.
    let sorting: StripSorting
    let cellRatings: CellRatings
    let imageCopier: ImageCopier
    let droppedFiles: DroppedFiles
    private static let logger = Logger(label: "tessera.viewer")

    /// - Parameter clock: the time frames run at; the first screen's decodes are asked for at its time.
    init(options: ViewerOptions, observer: (any RunObserver)?, clock: any FrameClock) throws {
        self.options = options
        self.observer = observer
        // Started first, so the helpers warm up and lock down while the window is made.
        let decoding = options.decodingService(helperCount: max(1, options.workerCount), pixelLimit: options.pixelLimit)
        self.decoding = decoding
        let decodeMemory = DecodeMemoryBudget(limitBytes: options.decodeMemoryBytes)
        let executor = WorkExecutor(.threads(options.workerCount), priority: StartPriority.atStart, memoryBudget: decodeMemory)
        self.executor = executor
        let logger = Self.logger
        func makeStrip(colour: ColourConversion?, viewport: Size, pixelScale: Double,
                       wake: @escaping @Sendable () -> Void) throws -> StripParts {
            try StripParts(options: options, colour: colour, viewport: viewport, pixelScale: pixelScale, wake: wake,
                           decoding: decoding, executor: executor, decodeMemory: decodeMemory, observer: observer,
                           logger: logger)
        }
        // While the renderer is made: the image named at start opens and its first screen of tiles is
        // read; or, once the listing is in, the strip's first screen of files is decoded, so the first
        // frame shows what is ready by then (thumbnails read from the cache, most often all of them).
        var earlyOpening: TiledOpening?
        var earlyStrip: Result<StripParts, any Error>?
        host = try WindowHost(options: options, logger: logger) { early in
            if let path = options.singleViewAtStart {
                earlyOpening = TiledOpening.atStart(path: path, early: early, options: options, decoding: decoding,
                                                    executor: executor)
                return
            }
            // Headless, SDL starts at once; where the pixel scale is still unknown, the cells' sizes are.
            guard !options.headless, early.pixelScaleIsKnown else { return }
            // A folder listed in a moment starts now; the window waits for no longer listing, nor for a
            // manifest's documents.
            guard options.presentation?.hasEnded(within: Self.listingWaitBeforeWindow) ?? true,
                  options.listing?.hasEnded(within: Self.listingWaitBeforeWindow) ?? true else { return }
            earlyStrip = Result {
                try makeStrip(colour: early.colour, viewport: early.viewport, pixelScale: early.pixelScale, wake: early.wake)
            }
            // Downloads wait for the first frame: a drag that begins in it starts none.
            if case .success(let strip)? = earlyStrip, strip.remote == nil { strip.model.requestFirstScreen(now: clock.now()) }
        }
        let renderer = host.renderer
        let colour = host.colour
        let waker = host.system.waker
        // The listing, or a manifest's reading, has run beside all of the above; the strip needs it from
        // here on. The window shows meanwhile, and can be closed.
        if earlyStrip == nil {
            try host.waitAnswering {
                options.presentation?.hasEnded(within: Self.itemsWaitStep) ?? true
                    && options.listing?.hasEnded(within: Self.itemsWaitStep) ?? true
            }
        }
        // After the wait: the window may have been resized during it.
        let points = host.viewportPoints
        let strip = try earlyStrip?.get()
            ?? makeStrip(colour: colour, viewport: Size(width: points.width, height: points.height),
                         pixelScale: points.scale, wake: { waker.wake() })
        if strip.viewport != Size(width: points.width, height: points.height) || strip.pixelScale != points.scale {
            strip.model.resize(viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
        }
        listingDuration = strip.listed.duration
        watchTargets = strip.listed.watch
        let listedTable = strip.listed.duration == nil ? nil : strip.listed.table
        remote = strip.remote
        let remote = strip.remote
        pipeline = strip.pipeline
        model = strip.model
        carouselView = CarouselView(model: model, renderer: renderer, assets: host.assets, text: host.text,
                                    uploadBudgetBytes: options.uploadBudgetBytes, observer: observer)
        let wake: @Sendable () -> Void = { waker.wake() }
        // One at a time, in the order given: a turn and its undo, a batch of trashes.
        let actionLane = SerialWorkLane(rank: .interactive, on: executor)
        fileActions = FileActions(trash: options.trash, rotator: LosslessRotator(thumbnails: options.useThumbnailCache ? ThumbnailStore() : nil),
                                  wake: wake, perform: { actionLane.perform($0) })
        keyHandler = KeyHandlerSession(runner: options.keyHandler, wake: wake)
        quitting = Quitting(fileActions: fileActions, keyHandler: keyHandler)
        let informationLane = SerialWorkLane(rank: .interactive, on: executor)
        information = ImageInformationCache(wake: wake, decoding: decoding, perform: { informationLane.perform($0) })
        // The order of what is on screen follows them: among the strip's decodes, not after its preload.
        let factsLane = SerialWorkLane(rank: .visible, on: executor)
        sorting = StripSorting(wake: wake, decoding: decoding, perform: { factsLane.perform($0) })
        let copyLane = SerialWorkLane(rank: .interactive, on: executor)
        imageCopier = ImageCopier(loader: ImageLoader(decoders: ImageDecoders.viewer, pixelLimit: options.pixelLimit, colour: .sRGB,
                                                      decoding: decoding),
                                  wake: wake, perform: { copyLane.perform($0) })
        droppedFiles = DroppedFiles(wake: wake, perform: { copyLane.perform($0) })
        let ratingsLane = SerialWorkLane(rank: .visible, on: executor)
        cellRatings = CellRatings(wake: wake, perform: { ratingsLane.perform($0) })
        overlay = OverlayPainter(renderer: renderer, text: host.text)
        singleViews = SingleViewMaker(host: host, executor: executor,
                                      options: options.singleViewOptions(colour: colour, decoding: decoding),
                                      remote: remote, remotePyramids: strip.listed.pyramids, earlyOpening: earlyOpening)
        stripAnimation = SelectedCellAnimation(renderer: renderer, colour: colour, pixelLimit: options.pixelLimit,
                                               decoding: decoding, executor: executor, waker: waker,
                                               observer: observer)
        // Named UI images and the overlay font load once here, not inside the first frames. A photo opened
        // alone shows the single view first: the strip's are made when the strip is first shown.
        if options.singleViewAtStart == nil {
            carouselView.prepareIcons()
            carouselView.prepareCellTextures()
        }
        _ = host.text.texture("0123456789 / ", size: Int(16 * points.scale), color: Theme.dimText)
        startWatching(listed: listedTable)
    }

    /// How long the window waits for the listing (or a manifest's reading) to start the strip's first
    /// decodes before it: a folder is listed well within it; a huge one, or a manifest on a server, goes on
    /// beside the window, and its decodes start after.
    static let listingWaitBeforeWindow = Duration.milliseconds(10)
    /// How often the window answers its user while the items are awaited after it opened.
    static let itemsWaitStep = Duration.milliseconds(30)

    /// The strip's items, downloads, pipeline and model: made before the window when the items (listed, or
    /// a manifest's canvases) are in by then, after it otherwise.
    struct StripParts {
        typealias Listed = (table: ItemTable, versions: [UInt32: FileVersion], duration: Duration?, watch: WatchTargets?,
                            pyramids: [String: String])
        let listed: Listed
        let remote: RemoteImageStore?
        let pipeline: ImagePipeline
        let model: CarouselModel
        /// The viewport in points and the pixel scale the model was laid out for.
        let viewport: Size
        let pixelScale: Double

        init(options: ViewerOptions, colour: ColourConversion?, viewport: Size, pixelScale: Double,
             wake: @escaping @Sendable () -> Void, decoding: any DecodingService, executor: WorkExecutor,
             decodeMemory: DecodeMemoryBudget, observer: (any RunObserver)?, logger: Logger) throws {
            listed = try ViewerWiring.items(from: options)
            self.viewport = viewport
            self.pixelScale = pixelScale
            var downloads = options.downloads
            if let diskCache = options.diskCache {
                downloads.cacheFolder = diskCache.remoteFolder
                downloads.diskCache = diskCache
                // At start, off the main thread: what earlier runs left over the limit goes now.
                diskCache.requestSweep()
            }
            let remote = listed.table.hasRemoteItems ? RemoteImageStore(configuration: downloads, onChange: wake) : nil
            self.remote = remote
            let imageLoader = ViewerWiring.imageLoader(options: options, colour: colour, decoding: decoding)
            let scheduler = WorkScheduler<ImageKey, PixelBuffer>(
                rank: .visible, on: executor,
                memory: .init(budget: decodeMemory,
                              estimate: ViewerWiring.decodeMemoryEstimate(loader: imageLoader, remote: remote)))
            let strategy = options.makeStrategy(options.carousel.preload, scheduler.workerCount)
            let decodeTimes = DecodeTimeEstimator()
            pipeline = .strip(strategy: strategy, scheduler: scheduler,
                              cacheCountLimit: options.cacheCountLimit, cacheCostLimit: options.cacheLimitBytes,
                              decodeTimes: decodeTimes,
                              decode: ViewerWiring.decoder(loader: imageLoader, remote: remote, logger: logger),
                              waker: wake, observer: observer)
            model = CarouselModel(table: listed.table, versions: listed.versions, order: options.sort,
                                  reversed: options.reverse, shuffleSeed: options.shuffleSeed,
                                  configuration: options.carousel, pipeline: pipeline, decodeTimes: decodeTimes,
                                  remote: remote, strategy: strategy, viewportWidth: viewport.width,
                                  viewportHeight: viewport.height, pixelScale: pixelScale)
            if options.ratingFilter != .all { model.filter(by: options.ratingFilter, time: .zero) }
            for (index, item) in options.items.enumerated() where listed.duration == nil && item.sessionOrientation != 1 {
                model.setSessionOrientation(item.sessionOrientation, of: model.items.path(at: index))
            }
        }
    }

    deinit {
        watcher?.stop()
        remote?.shutdown()
        // The process exits next: a decode still running would meet its libraries torn down. Quitting has
        // waited for the file actions already.
        executor.shutdown()
        _ = executor.waitForWorkersToExit(timeout: 5)
        decoding.shutdown()
    }

    /// The items to show: a manifest's canvases or the listing's (waited for here), or the options' own;
    /// and the image service each canvas's item opens.
    private static func items(from options: ViewerOptions) throws -> StripParts.Listed {
        if let strip = try options.presentation?.wait() {
            return (ItemTable(strip.items), [:], nil, options.watch, strip.pyramids)
        }
        guard let listing = options.listing else {
            var versions: [UInt32: FileVersion] = [:]
            for (id, item) in options.items.enumerated() { versions[UInt32(id)] = item.version }
            return (ItemTable(options.items), versions, nil, options.watch, [:])
        }
        let outcome = try listing.wait()
        let collected = outcome.collected
        let watch = options.watchesListing
            ? WatchTargets(folders: collected.folders, files: collected.files, recursive: listing.recursive) : options.watch
        return (collected.table, [:], outcome.duration, watch, [:])
    }

    /// The strip's loader: the viewer's decoders behind the thumbnail cache (unless it is off).
    private static func imageLoader(options: ViewerOptions, colour: ColourConversion?,
                                    decoding: any DecodingService) -> ThumbnailingLoader {
        let imageLoader = ImageLoader(decoders: ImageDecoders.viewer, pixelLimit: options.pixelLimit, colour: colour,
                                      decoding: decoding)
        return ThumbnailingLoader(loader: imageLoader, store: options.useThumbnailCache ? ThumbnailStore() : nil)
    }

    /// The working memory of the strip's decode of one key (see `decoder`), on a worker before it starts:
    /// a download not here yet costs nothing, its load fails at once.
    private static func decodeMemoryEstimate(loader: ThumbnailingLoader,
                                             remote: RemoteImageStore?) -> @Sendable (ImageKey) -> Int {
        { key in
            let turn = ImageOrientation(rawValue: key.sessionOrientation) ?? .up
            let box = key.fittingBox.map(turn.orientedSize)
            guard CarouselItem.isRemote(key.path) else { return loader.decodeMemoryEstimate(path: key.path, fitting: box) }
            guard case .ready(let localPath, _)? = remote?.state(of: key.path) else { return 0 }
            return DecodeMemory.estimate(path: localPath, fitting: box, decoding: loader.loader.decoding)
        }
    }

    /// The strip's decode of one key, on a worker: a file through the thumbnail cache, a download from its
    /// cached copy. A decode stopped because nobody wants it is no failure; a failure is logged once here.
    private static func decoder(loader: ThumbnailingLoader, remote: RemoteImageStore?,
                                logger: Logger) -> ImagePipeline.Loader {
        return { key, cancellation in
            do {
                // A turn kept for the session comes last: the picture is fitted to the box as it will be
                // seen, so it is decoded to fit the box turned back.
                let turn = ImageOrientation(rawValue: key.sessionOrientation) ?? .up
                let box = key.fittingBox.map(turn.orientedSize)
                guard CarouselItem.isRemote(key.path) else {
                    return turn.apply(to: try loader.load(path: key.path, fitting: box, cancellation: cancellation))
                }
                // A download is decoded from its cached copy, without the shared thumbnail cache (that is
                // for the user's files, not for our private downloads).
                guard case .ready(let localPath, _)? = remote?.state(of: key.path) else {
                    throw LoadFailure(shortText: "Not downloaded", detail: "\(key.path): not downloaded yet")
                }
                return turn.apply(to: try loader.loader.load(path: localPath, fitting: box, cancellation: cancellation))
            } catch let error as ImageLoadError where error.reason == .cancelled {
                throw DecodeCancelled()  // nobody wants it any more: not a failure
            } catch let error as ImageLoadError {
                logger.warning("cannot show \(key.path): \(error.reason.shortText)")
                throw LoadFailure(shortText: error.reason.shortText, detail: error.description)
            }
        }
    }

    /// Watches the browsed folders. A folder that cannot be watched (no inotify, watch limit reached)
    /// costs a warning, not the run: the strip just does not follow changes.
    private func startWatching(listed: ItemTable?) {
        guard let targets = watchTargets, !(targets.folders.isEmpty && targets.files.isEmpty) else { return }
        let inbox = fileChanges
        let waker = host.system.waker
        do {
            // What the strip was built from: a file changed before the watches are in place still counts.
            // A listing is compared by name (nothing in it was stat'ed); given items by their versions.
            var baseline: [String: FileVersion]?
            if listed == nil {
                baseline = [:]
                for item in options.items where !item.isRemote { if let version = item.version { baseline?[item.path] = version } }
            }
            watcher = try FolderWatcher(folders: targets.folders, files: targets.files, recursive: targets.recursive,
                                        baseline: baseline, listed: listed) { changes in
                for change in changes { inbox.push(change) }
                waker.wake()
            }
            Self.logger.info("watching \(targets.folders.count) folder(s) and \(targets.files.count) file(s) for changes")
        } catch {
            Self.logger.warning("not watching for changes: \(error)")
        }
    }
}
