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
    private let logger = Logger(label: "tessera.viewer")

    init(options: ViewerOptions, observer: (any RunObserver)?) throws {
        self.options = options
        self.observer = observer
        // Started first, so the helpers warm up and lock down while the window is made.
        let decoding = options.decodingService(helperCount: max(1, options.workerCount), pixelLimit: options.pixelLimit)
        self.decoding = decoding
        let decodeMemory = DecodeMemoryBudget(limitBytes: options.decodeMemoryBytes)
        let executor = WorkExecutor(.threads(options.workerCount), priority: .background, memoryBudget: decodeMemory)
        self.executor = executor
        // The image named at start opens, and its first screen of tiles is read, while the renderer is made.
        var earlyOpening: TiledOpening?
        host = try WindowHost(options: options, logger: logger) { early in
            guard let path = options.singleViewAtStart else { return }
            earlyOpening = TiledOpening.atStart(path: path, early: early, options: options, decoding: decoding,
                                                executor: executor)
        }
        let renderer = host.renderer
        let colour = host.colour
        let waker = host.system.waker
        // The listing has run beside all of the above; the strip needs it from here on.
        let listed = try Self.items(from: options)
        listingDuration = listed.duration
        watchTargets = listed.watch
        let listedTable = listed.duration == nil ? nil : listed.table
        var downloads = options.downloads
        if let diskCache = options.diskCache {
            downloads.cacheFolder = diskCache.remoteFolder
            downloads.diskCache = diskCache
            // At start, off the main thread: what earlier runs left over the limit goes now.
            diskCache.requestSweep()
        }
        let remote = listed.table.hasRemoteItems
            ? RemoteImageStore(configuration: downloads, onChange: { waker.wake() }) : nil
        self.remote = remote
        let imageLoader = Self.imageLoader(options: options, colour: colour, decoding: decoding)
        let scheduler = WorkScheduler<ImageKey, PixelBuffer>(
            rank: .visible, on: executor,
            memory: .init(budget: decodeMemory, estimate: Self.decodeMemoryEstimate(loader: imageLoader, remote: remote)))
        let workers = scheduler.workerCount
        let strategy = options.makeStrategy(options.carousel.preload, workers)
        let decodeTimes = DecodeTimeEstimator()
        pipeline = .strip(strategy: strategy, scheduler: scheduler,
                          cacheCountLimit: options.cacheCountLimit, cacheCostLimit: options.cacheLimitBytes,
                          decodeTimes: decodeTimes,
                          decode: Self.decoder(loader: imageLoader, remote: remote, logger: logger),
                          waker: { waker.wake() }, observer: observer)

        let points = host.viewportPoints
        model = CarouselModel(table: listed.table, versions: listed.versions, order: options.sort, reversed: options.reverse,
                              shuffleSeed: options.shuffleSeed, configuration: options.carousel, pipeline: pipeline,
                              decodeTimes: decodeTimes, remote: remote, strategy: strategy,
                              viewportWidth: points.width, viewportHeight: points.height, pixelScale: points.scale)
        for (index, item) in options.items.enumerated() where listed.duration == nil && item.sessionOrientation != 1 {
            model.setSessionOrientation(item.sessionOrientation, of: model.items.path(at: index))
        }
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
        overlay = OverlayPainter(renderer: renderer, text: host.text)
        singleViews = SingleViewMaker(host: host, executor: executor,
                                      options: options.singleViewOptions(colour: colour, decoding: decoding),
                                      remote: remote, earlyOpening: earlyOpening)
        stripAnimation = SelectedCellAnimation(renderer: renderer, colour: colour, pixelLimit: options.pixelLimit,
                                               decoding: decoding, executor: executor, waker: waker,
                                               observer: observer)
        // Named UI images and the overlay font load once here, not inside the first frames.
        carouselView.prepareIcons()
        carouselView.prepareCellTextures()
        _ = host.text.texture("0123456789 / ", size: Int(16 * points.scale), color: Theme.dimText)
        startWatching(listed: listedTable)
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

    /// The items to show: the listing's (waited for here), or the options' own.
    private static func items(from options: ViewerOptions) throws
        -> (table: ItemTable, versions: [UInt32: FileVersion], duration: Duration?, watch: WatchTargets?) {
        guard let listing = options.listing else {
            var versions: [UInt32: FileVersion] = [:]
            for (id, item) in options.items.enumerated() { versions[UInt32(id)] = item.version }
            return (ItemTable(options.items), versions, nil, options.watch)
        }
        let outcome = try listing.wait()
        let collected = outcome.collected
        let watch = options.watchesListing
            ? WatchTargets(folders: collected.folders, files: collected.files, recursive: listing.recursive) : options.watch
        return (collected.table, [:], outcome.duration, watch)
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
            logger.info("watching \(targets.folders.count) folder(s) and \(targets.files.count) file(s) for changes")
        } catch {
            logger.warning("not watching for changes: \(error)")
        }
    }
}
