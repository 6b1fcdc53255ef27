import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraTiling

/// What opening a path produced, delivered to the view through an inbox.
enum TiledOpenEvent: Sendable {
    /// Tiles can be read now; the base level's tiles are already read (those that could be, and that a cut
    /// in progress has written).
    case source(any TileSource, base: [TileID: PixelBuffer])
    /// A plain image too large to show directly is being cut; its size in pyramid (stored) orientation.
    /// The `source` that follows serves its tiles as they are written.
    case cutting(imageSize: PixelSize)
    /// The cut is done: every tile of the pyramid can be read.
    case cutFinished
    /// A quick whole-image picture to show while cutting.
    case overview(PixelBuffer)
    case progress(TileProgress)
    /// Nothing can be shown; one line for the error screen.
    case failed(String)
    /// The plain image just opened is an animation: its frames can play over the still.
    case animated
}

/// Works out what a path is and opens it as one job on its view's opening lane, never on the main thread: a
/// `.dzi`, a Deep Zoom tile folder, a flat folder of `NAME_CC_RR` tiles, an SVG, drawn tile by tile at every
/// level (`SVGTileSource`), or a plain image, which is shown directly when it fits one texture and the pixel
/// limit, read tile by tile where it lies when it is a whole-slide image (`OpenSlideTileSource`), a tiled
/// TIFF (`TiledTIFFSource`) or a sequential JPEG within the pixel limit (`JPEGRegionSource`), or else cut
/// into a pyramid in the pyramid cache (reused next time) while a shrink-on-load overview stands in for it,
/// as a progressive JPEG far larger than the screen is. The overview's decode waits for room in the
/// executor's decode memory budget like the tiles'; the cut runs on threads of its own at idle priority, and
/// what follows it (the finished source, `cutFinished`) runs on its thread as it ends, so no worker waits for
/// a cut.
final class TiledImageOpener: Sendable {
    let events = Inbox<TiledOpenEvent>()
    private let cancelled = Atomic<Bool>(false)
    private let lane: SerialWorkLane
    private let memoryBudget: DecodeMemoryBudget?
    private let onEvent: @Sendable () -> Void
    /// The pyramid folder this view cuts into or reads from: no sweep removes it while the view lives.
    private let lease = Mutex<DiskCacheLease?>(nil)
    private static let logger = Logger(label: "tessera.view")

    struct Configuration: Sendable {
        var path: String
        var decoders: [any ImageDecoding]
        /// From the image's colour space to the display's; nil leaves pixels as decoded.
        var colour: ColourConversion?
        var pixelLimit: Int
        var maxTextureSize: PixelSize
        var pyramidCache: TilePyramidCache
        /// Keeps the pyramid cache within its limit; the pyramid this view cuts or shows is leased from it.
        var diskCache: DiskCacheJanitor?
        var policy: TilePyramidPolicy
        /// Largest side of the overview shown while cutting.
        var overviewSide = 4096
        /// A turn after the file's own orientation, for a plain image shown directly (see `TiledViewOptions`).
        var turn = ImageOrientation.up
        /// Which image of a file of several (see `TiledViewOptions.page`).
        var page = 0
        /// How far past its own size a vector image is drawn at most: the view's zoom limit.
        var maxMagnification = 4.0
        /// Runs on the cutting thread before each few rows the cutter reads (see `TiledViewOptions.cutStep`).
        var cutStep: (@Sendable () -> Void)?
        /// Where images and tiles are decoded.
        var decoding: any DecodingService = .inProcess
        /// What fetches a remote pyramid's description and tiles (an http(s) URL's).
        var fetcher: any TileFetching = HTTPFetcher.shared
        /// The tiles the view will show first, given the source's geometry and magnification, when the
        /// view is known before it exists: a few are read with the base level, so the first frame is sharp.
        var firstViewTiles: (@Sendable (DeepZoomGeometry, Double) -> [TileID])?
        /// At most this many first-view tiles are read that way; more are left to the view's workers, which
        /// read them side by side.
        var firstViewTileLimit = 8
    }

    /// Queues the opening on `lane` (whose rank the view sets); `onEvent` runs on the thread that queued
    /// an event, after queueing it.
    init(_ configuration: Configuration, lane: SerialWorkLane, memoryBudget: DecodeMemoryBudget?,
         onEvent: @escaping @Sendable () -> Void) {
        self.lane = lane
        self.memoryBudget = memoryBudget
        self.onEvent = onEvent
        lane.perform { [self] in
            guard !isCancelled else { return }
            open(configuration) { emit($0) }
        }
    }

    /// Drops the opening if it has not started, stops a cut in progress (it removes what it wrote); other
    /// steps are short and just finish.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        lane.cancelQueued()
    }

    /// How many of a remote pyramid's first tiles are fetched at once: a host's connections
    /// (`HTTPFetcher`'s limit).
    static let sideBySideWidth = HTTPFetcher.Limits().perHostConnections

    /// Loads `tiles` of `source` on up to `width` threads at once; a tile that fails is left out (the
    /// caller tries it again on its own).
    static func loadSideBySide(_ tiles: [TileID], from source: any TileSource, width: Int = sideBySideWidth) -> [TileID: PixelBuffer] {
        let pixels = sideBySide(tiles.count, width: width) { index in try? source.loadTile(tiles[index]) }
        var loaded: [TileID: PixelBuffer] = [:]
        for (tile, picture) in zip(tiles, pixels) { loaded[tile] = picture ?? loaded[tile] }
        return loaded
    }

    private func emit(_ event: TiledOpenEvent) {
        events.push(event)
        onEvent()
    }

    private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    private func open(_ configuration: Configuration, emit: (TiledOpenEvent) -> Void) {
        // The base level goes with the source, so the first frame can show the whole image.
        open(configuration) { source in
            var base: [TileID: PixelBuffer] = [:]
            var wanted = configuration.policy.baseTiles(in: source.geometry)
            if let firstView = configuration.firstViewTiles?(source.geometry, Double(source.magnification)),
               firstView.count <= configuration.firstViewTileLimit {
                let added = firstView.filter { !wanted.contains($0) }
                // A remote pyramid's view tiles join its base's only when all go in one round of fetches: a
                // second round would hold the first frame back for another wait on the server, where the
                // base alone shows the whole image and the view's tiles fade in over it.
                if !source.loadsSlowly || wanted.count + added.count <= Self.sideBySideWidth { wanted += added }
            }
            let geometry = source.geometry
            // A JPEG's level the first view shows whole is read in one decode, not tile by tile: each tile
            // would read the file down to its last row.
            var whole: (level: Int, pixels: PixelBuffer)?
            if let jpeg = source as? JPEGRegionSource, let level = wanted.map(\.level).max(),
               geometry.tileCount(level) > 1, wanted.filter({ $0.level == level }).count == geometry.tileCount(level) {
                whole = (try? jpeg.wholeLevel(level)).map { (level, $0) }
            }
            // A remote pyramid's first tiles are fetched side by side: one after another, each would wait
            // out the server's latency in turn.
            let fetched = source.loadsSlowly ? Self.loadSideBySide(wanted.filter(source.isAvailable), from: source) : [:]
            // Finest first. Below a level held whole (a one-tile level, a plain image shown whole, or the JPEG
            // level above), each level is that picture scaled down and cut, a fraction of what decoding the
            // file again costs.
            for tile in wanted.sorted(by: { $0.level > $1.level }) where source.isAvailable(tile) {
                if let finer = whole, tile.level <= finer.level {
                    let level: (level: Int, pixels: PixelBuffer) = tile.level == finer.level
                        ? finer : (tile.level, PixelScaler.scaled(finer.pixels, to: geometry.levelSize(tile.level)))
                    whole = level
                    base[tile] = Self.withinTextureLimit(JPEGRegionSource.crop(level.pixels, to: geometry.region(of: tile)),
                                                         limit: configuration.maxTextureSize)
                } else if let pixels = fetched[tile] ?? (try? source.loadTile(tile)) {
                    base[tile] = Self.withinTextureLimit(pixels, limit: configuration.maxTextureSize)
                    if geometry.tileCount(tile.level) == 1 { whole = (tile.level, pixels) }
                }
            }
            emit(.source(source, base: base))
        } emit: { emit($0) }
    }

    /// A tile larger than the renderer accepts is shrunk (drawn at its place all the same).
    static func withinTextureLimit(_ pixels: PixelBuffer, limit: PixelSize) -> PixelBuffer {
        let box = PixelSize(width: limit.width > 0 ? limit.width : pixels.width,
                            height: limit.height > 0 ? limit.height : pixels.height)
        return PixelScaler.fit(pixels, in: box)
    }

    private func open(_ configuration: Configuration, opened: (any TileSource) -> Void, emit: (TiledOpenEvent) -> Void) {
        let path = configuration.path
        do throws(TileSourceError) {
            if CarouselItem.isRemote(path) {
                opened(try Self.openRemote(configuration))
                return
            }
            var status = stat()
            guard POSIXFiles.stat(path, &status) == 0 else {
                throw TileSourceError(path: path, reason: .unreadableImage(ImageLoadError.Reason.missing.shortText))
            }
            // Tile folders and `.dzi` files the user opens are anybody's: their tiles go to the helpers.
            if status.st_mode & S_IFMT == S_IFDIR {
                opened(try Self.openFolder(path, decoders: configuration.decoders, colour: configuration.colour,
                                           decoding: configuration.decoding))
            } else if Self.isDescriptor(path) {
                opened(try DeepZoomTileSource(descriptorAt: path, decoders: configuration.decoders,
                                              colour: configuration.colour, decoding: configuration.decoding))
            } else if (path as NSString).lastPathComponent == "info.json" {
                opened(try IIIFTileSource(infoAt: path, decoders: configuration.decoders, colour: configuration.colour,
                                          decoding: configuration.decoding))
            } else {
                try openImage(configuration, opened: opened, emit: emit)
            }
        } catch {
            failed(error, path: path, emit: emit)
        }
    }

    private func failed(_ error: TileSourceError, path: String, emit: (TiledOpenEvent) -> Void) {
        let name = PathText.displayName(path.split(separator: "/").last.map(String.init) ?? path)
        Self.logger.warning("cannot show \(path): \(error.reason.shortText)")
        emit(.failed("\(name): \(error.reason.shortText)"))
    }

    /// A flat tile folder, a `NAME_files` folder beside its `.dzi`, a folder holding one `.dzi`, or an IIIF
    /// tree (a folder holding its `info.json`).
    private static func openFolder(_ path: String, decoders: [any ImageDecoding], colour: ColourConversion?,
                                   decoding: any DecodingService) throws(TileSourceError) -> any TileSource {
        // A folder whose info.json is no IIIF service may still be tiles of another kind: that error is
        // given only when nothing else is found.
        var iiifError: TileSourceError?
        if IIIFTileSource.looksLikeTree(path) {
            do throws(TileSourceError) {
                return try IIIFTileSource(infoAt: path + "/info.json", decoders: decoders, colour: colour, decoding: decoding)
            } catch {
                iiifError = error
            }
        }
        if FlatTileFolderSource.looksLikeTileFolder(path) {
            return try FlatTileFolderSource(folder: path, decoders: decoders, colour: colour, decoding: decoding)
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if url.lastPathComponent.hasSuffix("_files") {
            let descriptor = url.deletingLastPathComponent()
                .appendingPathComponent(String(url.lastPathComponent.dropLast("_files".count)) + ".dzi").path
            if FileManager.default.fileExists(atPath: descriptor) {
                return try DeepZoomTileSource(descriptorAt: descriptor, decoders: decoders, colour: colour,
                                              decoding: decoding)
            }
        }
        let descriptors = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [])
            .filter { $0.lowercased().hasSuffix(".dzi") }
        if descriptors.count == 1 {
            return try DeepZoomTileSource(descriptorAt: url.appendingPathComponent(descriptors[0]).path, decoders: decoders,
                                          colour: colour, decoding: decoding)
        }
        if let iiifError { throw iiifError }
        throw TileSourceError(path: path, reason: .noTiles(descriptors.isEmpty
            ? "no .dzi and no NAME_CC_RR tiles in the folder" : "several .dzi files in the folder; name one"))
    }

    /// An IIIF service's `info.json` or a `.dzi` over http(s), told by the URL's path; its tiles, the
    /// network's, go to the helpers.
    private static func openRemote(_ configuration: Configuration) throws(TileSourceError) -> any TileSource {
        let url = configuration.path
        let path = (URLComponents(string: url)?.path ?? "").lowercased()
        if path.hasSuffix("/info.json") {
            return try RemoteIIIFTileSource(infoURL: url, fetcher: configuration.fetcher, decoders: configuration.decoders,
                                            colour: configuration.colour, decoding: configuration.decoding)
        }
        if path.hasSuffix(".dzi") {
            return try RemoteDeepZoomTileSource(descriptorURL: url, fetcher: configuration.fetcher, decoders: configuration.decoders,
                                                colour: configuration.colour, decoding: configuration.decoding)
        }
        throw TileSourceError(path: url, reason: .noTiles("an http(s) URL is shown here when it names an IIIF info.json or a .dzi"))
    }

    /// `.dzi` by name, or a file that starts like XML.
    private static func isDescriptor(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".dzi") { return true }
        guard let head = ImageFile.head(ofFileAt: path, count: 64) else { return false }
        let text = String(decoding: head, as: UTF8.self).drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        return text.hasPrefix("<?xml") || text.hasPrefix("<Image")
    }

    private func openImage(_ configuration: Configuration, opened: (any TileSource) -> Void,
                           emit: (TiledOpenEvent) -> Void) throws(TileSourceError) {
        let path = configuration.path
        if configuration.page > 0 {
            opened(try openPage(configuration))
            return
        }
        if let source = cachedPyramid(configuration) {
            opened(source)
            return
        }
        let probe: ImageProbe
        do {
            probe = try ImageProbe.probe(path, decoding: configuration.decoding)
        } catch {
            // Slides in formats of their own (MIRAX, Hamamatsu VMS) are no image to the probe. A file that
            // is no slide either is refused for what the probe found in it (empty, not an image): how
            // OpenSlide fails on such a file says nothing of it.
            if let slide = try? OpenSlideTileSource.open(path: path, colour: configuration.colour,
                                                         maxCoarsestSide: configuration.overviewSide,
                                                         decoding: configuration.decoding) {
                opened(slide)
                return
            }
            throw error
        }
        // Slides stored as TIFF (Aperio, Hamamatsu NDPI, Leica, Philips, Ventana): OpenSlide knows their
        // levels, which their pages do not mark as reduced images. With sandboxed libraries, a TIFF without a slide's
        // marks goes on without starting a slide's helper.
        if probe.format == .tiff,
           !configuration.decoding.isolatesLibraries || (try? ImageFile(path: path)).map(TIFFSlideHint.mayBeSlide) ?? true,
           let slide = try OpenSlideTileSource.open(path: path, colour: configuration.colour,
                                                    maxCoarsestSide: configuration.overviewSide, decoding: configuration.decoding) {
            opened(slide)
            return
        }
        if probe.format == .svg {
            opened(try SVGTileSource(path: path, pixelLimit: configuration.pixelLimit,
                                     maxMagnification: configuration.maxMagnification, colour: configuration.colour,
                                     turn: configuration.turn, decoding: configuration.decoding))
            return
        }
        let limit = configuration.maxTextureSize
        let fitsTexture = (limit.width == 0 || probe.size.width <= limit.width)
            && (limit.height == 0 || probe.size.height <= limit.height)
        let isSmall = fitsTexture && probe.size.area <= configuration.pixelLimit
        // Already tiled (a pyramidal TIFF, most often) and larger than an overview or than what is shown
        // whole: read where it lies, only the tiles on screen, never decoded whole nor cut.
        if probe.format == .tiff, !isSmall || max(probe.size.width, probe.size.height) > configuration.overviewSide,
           let source = try TiledTIFFSource.open(path: path, colour: configuration.colour,
                                                 maxCoarsestSide: configuration.overviewSide, decoding: configuration.decoding) {
            opened(source)
            return
        }
        // A JPEG larger than a tile and within the pixel limit: only the tiles the view needs, each decoded
        // at its level's scale, so memory follows the screen rather than the photo.
        if probe.format == .jpeg, probe.size.area <= configuration.pixelLimit,
           max(probe.size.width, probe.size.height) > JPEGRegionSource.tileSize,
           let source = JPEGRegionSource.open(path: path, probe: probe, turn: configuration.turn,
                                              colour: configuration.colour, decoding: configuration.decoding) {
            opened(source)
            return
        }
        // A progressive (or multi-scan) JPEG whose 1/8 scale, its cheapest whole decode, is still larger than a
        // tile: libjpeg holds all its coefficients for a decode at any scale, so one picture per level would
        // hold them and the whole picture at full size together. It is cut instead; its overview at 1/8
        // covers a fitted view. Smaller ones cost less whole than a cut's disk and wait.
        let holdsAllCoefficients = probe.format == .jpeg && !JPEGRegionSource.decodesInParts(fileAt: path)
        let wellBeyondTheScreen = max(probe.size.width, probe.size.height)
            > JPEGRegionSource.tileSize << JPEGRegionSource.coarsestDenominatorShift
        if isSmall, !(holdsAllCoefficients && wellBeyondTheScreen) {
            let loader = ImageLoader(decoders: configuration.decoders, pixelLimit: configuration.pixelLimit,
                                     colour: configuration.colour, decoding: configuration.decoding)
            opened(SingleImageTileSource(path: path, size: probe.size, loader: loader, turn: configuration.turn))
            if AnimatedImage.canAnimate(probe.format),
               AnimatedImage.isAnimated(fileAt: path, decoding: configuration.decoding) { emit(.animated) }
            return
        }

        let cache = configuration.pyramidCache
        let colourManaged = configuration.colour != nil

        // Too large to show at once: an overview now, and the pyramid's tiles as the cutter writes them
        // (full resolution band by band from the top, each coarser level as the rows pass). The cutter keeps
        // the stored orientation (as vips does), so the overview does too.
        emit(.cutting(imageSize: probe.storedSize))
        let folder = cache.folder(forImageAt: path, byteSize: probe.fileSize, modified: probe.modified,
                                  colourManaged: colourManaged)
        if let diskCache = configuration.diskCache {
            let held = diskCache.lease(pyramidFolder: folder)
            lease.withLock { $0 = held }
        }
        // The pyramid is cut in sRGB (tiles carry no profile) and converted to the display as tiles load.
        var cutting = TileCutterOptions()
        cutting.colourManager = configuration.colour?.manager
        cutting.decoding = configuration.decoding
        // Below the decodes the view waits on (the overview, the tiles it shows), which run at background.
        cutting.workerPriority = .idle
        let cutter = TileCutter(options: cutting, fallbackDecoders: configuration.decoders)
        let live = CutInProgressTileSource(
            geometry: DeepZoomGeometry(width: probe.storedSize.width, height: probe.storedSize.height,
                                       tileSize: cutting.tileSize, overlap: cutting.overlap),
            name: path.split(separator: "/").last.map(String.init) ?? path,
            decoders: configuration.decoders, colour: configuration.colour)
        // The cut starts at once, beside the overview's decode rather than after it: a view zoomed in waits
        // for the cut's rows, not for the overview. Its threads run at background priority, so the overview
        // (and later the view's own tile loads) take the CPU first. A JPEG whose every decode holds all its
        // coefficients is cut after its overview's decode has ended and let them go, so they are held once.
        // The events keep their order: the overview, then the live source, then the end of the cut.
        let cutBody: @Sendable () throws -> Void = { [events, self] in
            let started = ContinuousClock.now
            let result = try cutter.cut(imageAt: path, into: folder, name: TilePyramidCache.pyramidName,
                                        progress: { progress in events.push(.progress(progress)) },
                                        isCancelled: {
                                            configuration.cutStep?()
                                            return self.isCancelled
                                        }, watcher: live)
            Self.logger.info("cut \(path) into \(result.tilesWritten) tiles in \(ContinuousClock.now - started)")
        }
        let startedBeside = holdsAllCoefficients ? nil : BackgroundCut(cutBody)
        if let overview = overview(of: path, probe: probe, configuration: configuration) { emit(.overview(overview)) }
        let cut = startedBeside ?? BackgroundCut(cutBody)
        opened(live)
        // The rest follows the cut on its thread (here, if it is over already), after the live source.
        cut.whenDone { [self] failure in
            do throws(TileSourceError) {
                if let failure {
                    if let error = failure as? TileCutError, error.reason == .outputExists {
                        // Another Tessera finished the same cut first: use it.
                    } else {
                        if isCancelled { return }
                        throw TileSourceError(path: path, reason: .unreadableImage("cannot cut into tiles: \(failure)"))
                    }
                }
                live.finish(with: try DeepZoomTileSource(descriptorAt: cache.descriptorPath(inFolder: folder),
                                                         decoders: configuration.decoders, colour: configuration.colour))
                configuration.diskCache?.pyramidFinished(
                    inFolder: folder, sourceKey: cache.sourceKey(forImageAt: path, colourManaged: colourManaged))
                self.emit(.cutFinished)
            } catch {
                failed(error, path: path, emit: { self.emit($0) })
            }
        }
    }

    /// A later image of a file of several: decoded whole (its size is known only then) within the pixel
    /// limit, and held.
    private func openPage(_ configuration: Configuration) throws(TileSourceError) -> any TileSource {
        let path = configuration.path
        let loader = ImageLoader(decoders: configuration.decoders, pixelLimit: configuration.pixelLimit,
                                 colour: configuration.colour, page: configuration.page, decoding: configuration.decoding)
        do {
            let pixels = try loader.load(path: path, fitting: nil)
            return HeldImageTileSource(pixels: Self.withinTextureLimit(pixels, limit: configuration.maxTextureSize),
                                       name: path.split(separator: "/").last.map(String.init) ?? path, turn: configuration.turn)
        } catch {
            throw TileSourceError(path: path, reason: .unreadableImage(error.reason.shortText))
        }
    }

    /// The pyramid cut from this very file (same size and modification time) on an earlier opening, found
    /// by the file's metadata alone, before anything reads its bytes. Its tiles were encoded by this
    /// program's cutter from pixels a helper decoded, and lie in the user's own cache folder (trusted as the
    /// configuration file is): they are decoded in this process, with no helper round trip, as the tiles
    /// of a cut in progress are. A `.dzi` the user opens is anybody's, and goes to the helpers.
    private func cachedPyramid(_ configuration: Configuration) -> DeepZoomTileSource? {
        guard let file = try? ImageFile(path: configuration.path),
              let descriptor = configuration.pyramidCache.existingDescriptor(
                  forImageAt: configuration.path, byteSize: file.size, modified: file.modificationDate,
                  colourManaged: configuration.colour != nil) else { return nil }
        if let diskCache = configuration.diskCache {
            let folder = (descriptor as NSString).deletingLastPathComponent
            let held = diskCache.lease(pyramidFolder: folder)
            lease.withLock { $0 = held }
            // A sweep may have taken it between the look and the lease: then it is cut again.
            guard FileManager.default.fileExists(atPath: descriptor) else { return nil }
        }
        return try? DeepZoomTileSource(descriptorAt: descriptor, decoders: configuration.decoders,
                                       colour: configuration.colour)
    }

    /// A quick whole-image picture: a JPEG decoded shrunk on load (1/8 scale costs a fraction of a full
    /// decode and 1/64 of its memory), or any image under the pixel limit decoded and shrunk. Nil otherwise.
    private func overview(of path: String, probe: ImageProbe, configuration: Configuration) -> PixelBuffer? {
        guard probe.format == .jpeg || probe.storedSize.area <= configuration.pixelLimit else { return nil }
        let limit = configuration.maxTextureSize
        var side = configuration.overviewSide
        if limit.width > 0 { side = min(side, limit.width) }
        if limit.height > 0 { side = min(side, limit.height) }
        // Ask for exactly the 1/8 scale when it fits, so the decoder's shrink is the only scaling done.
        let eighth = PixelSize(width: (probe.storedSize.width + 7) / 8, height: (probe.storedSize.height + 7) / 8)
        let box = max(eighth.width, eighth.height) <= side ? eighth : PixelSize(width: side, height: side)
        // The pixel limit guards against decoding huge images whole; TurboJPEG never does here.
        let loader = ImageLoader(decoders: configuration.decoders, pixelLimit: .max, applyOrientation: false,
                                 colour: configuration.colour, decoding: configuration.decoding)
        guard let memoryBudget else { return try? loader.load(path: path, fitting: box) }
        let bytes = DecodeMemory.estimate(path: path, fitting: box, decoding: configuration.decoding)
        return try? memoryBudget.withAdmission(bytes: bytes) { try loader.load(path: path, fitting: box) }
    }
}

/// A cut running on a thread of its own at idle priority; `whenDone` says when it ends, and with what
/// error if it failed.
private final class BackgroundCut: Sendable {
    typealias Continuation = @Sendable ((any Error)?) -> Void
    /// What the cut ended with (nil while it runs), or what to do when it ends.
    private enum Stage {
        case running(Continuation?)
        case ended((any Error)?)
    }
    private let stage = Mutex<Stage>(.running(nil))

    init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            WorkerPriority.idle.applyToCurrentThread()
            let failure: (any Error)?
            do { try body(); failure = nil } catch { failure = error }
            let continuation = stage.withLock { stage -> Continuation? in
                defer { stage = .ended(failure) }
                if case .running(let continuation) = stage { return continuation }
                return nil
            }
            continuation?(failure)
        }
        thread.name = "tessera.cut"
        thread.start()
    }

    /// Runs `continuation` once the cut has ended: on the cut's thread, or at once on this one if it has.
    func whenDone(_ continuation: @escaping Continuation) {
        let ended = stage.withLock { stage -> (any Error)?? in
            switch stage {
            case .running: stage = .running(continuation); return nil
            case .ended(let failure): return .some(failure)
            }
        }
        if let ended { continuation(ended) }
    }
}

extension TiledImageOpener.Configuration {
    /// The configuration a view with `options` opens `path` with, deciding within `maxTextureSize`.
    init(options: TiledViewOptions, path: String, maxTextureSize: PixelSize) {
        self.init(path: path, decoders: ImageDecoders.viewer, colour: options.colour, pixelLimit: options.pixelLimit,
                  maxTextureSize: maxTextureSize, pyramidCache: options.pyramidCache, diskCache: options.diskCache,
                  policy: options.policy, turn: options.turn, maxMagnification: options.maxDeviceScale,
                  cutStep: options.cutStep, decoding: options.decoding)
        page = options.page
        if let fetcher = options.fetcher { self.fetcher = fetcher }
    }
}
