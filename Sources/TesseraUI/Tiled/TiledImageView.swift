import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraTiling

/// A CATiledLayer-style zoomable view of one image: a Deep Zoom pyramid, a flat tile folder, a tiled TIFF
/// (read where it lies), or a plain image (shown directly when it fits a texture, cut into a cached pyramid
/// in the background otherwise, its tiles shown as the cutter writes them under a progress bar, and its
/// overview standing for any level with no more pixels than it has).
///
/// Each frame it draws only the tiles meeting the viewport, at the level matching zoom x pixel scale, with
/// the nearest coarser held tiles under those still loading (`TileDrawPlanner`), so it never shows a hole a
/// held tile could fill; asks for the missing ones nearest the centre first, then where the view is heading
/// (`TileRequestPolicy`); and fades a tile that arrives on screen in over 0.25 s (`TileFade`). Its rooms:
/// - `TiledViewInput`: keys, mouse and wheel, applied to the camera (`ZoomPanModel`);
/// - `PyramidTileCache`: the tiles of the open pyramid, loaded through a `LoadPipeline`, uploaded within a
///   byte budget into textures held by a `TileStore` that never evicts the coarse levels;
/// - `TiledViewPainter`: the drawing;
/// - `ViewAnimation`: an animated image's frames, drawn instead of its still's tiles once they play.
///
/// Self-contained, so a host loop only forwards events and calls `update` then `render` each frame: the
/// standalone `tessera view` (`TiledViewer`) and the strip's Enter (`Viewer`). Main thread only.
package final class TiledImageView {
    package let path: String
    package let name: String
    /// Device pixels per point; the host keeps it current.
    package var pixelScale: Double
    /// The part of the window the view draws in, in device pixels (a pane of the compare view); nil for
    /// all of it. Its size is the view's viewport; the host keeps it current.
    package var pane: PixelRect?

    private let renderer: Renderer
    let options: TiledViewOptions
    /// Runs the view's opening and its tile loads: the view requests and cancels work, owns no thread.
    let executor: WorkExecutor
    /// The lane the opening runs on.
    private let openingLane: SerialWorkLane
    private let fade: TileFade
    private let requestPolicy: TileRequestPolicy
    private let waker: EventLoopWaker?
    private let logger = Logger(label: "tessera.view")
    private let openedAt: Duration
    private let painter: TiledViewPainter
    /// Hears what the view loads, uploads and shows when the run is measured; nil otherwise.
    let observer: (any RunObserver)?

    private enum Phase {
        case opening
        case cutting(TileProgress?)
        case showing
        case failed(String)
    }

    /// Where the view's work (its opening, its tiles) stands against the process's other work: `.visible`
    /// while shown, `.preload` while opened ahead of being shown (the slideshow's next image).
    package var rank: WorkRank {
        didSet {
            guard rank != oldValue else { return }
            openingLane.rank = rank
            tiles?.rank = rank
        }
    }

    private var phase = Phase.opening
    private var opener: TiledImageOpener?
    private var tiles: PyramidTileCache?
    private var camera: ZoomPanModel?
    private var input = TiledViewInput()
    private var backdrop: TiledBackdrop?
    /// The backdrop is the image's own overview (decoded from it while it is cut), not the strip's preview:
    /// where it has at least a level's pixels it stands for that level's tiles.
    private var backdropIsOverview = false
    /// A plain image is being cut: its tiles show as they are written, under the progress bar.
    private var cut: (running: Bool, progress: TileProgress?) = (false, nil)
    private var outputSize: PixelSize
    /// The frames of an animated image, played over its still once the first is decoded.
    private let animation: ViewAnimation
    /// The histogram, the clipping marks and the pixel under the pointer, read once the source is open.
    private var inspection: ImageInspection?
    /// The clipping marks on the GPU, made from the inspection's mask when first drawn.
    private var clippingTexture: Texture?
    /// Marks clipped highlights in red and crushed shadows in blue over the image.
    package var showsClipping = false

    /// - Parameters:
    ///   - preview: a small picture of the image to show until tiles arrive (the strip's cell image).
    ///   - waker: wakes the host loop when a tile or an opening step finishes.
    ///   - displayName: what the user knows the image as (a URL's file name for a download); the file's
    ///     name by default.
    ///   - observer: a measured run's observer; this view counts as a new opening in its report.
    ///   - executor: the process's executor, which runs the view's opening and tile loads.
    ///   - rank: where the view's work stands at first (see `rank`).
    ///   - opening: the opening of `path`, started before the view (at start, while the renderer was made);
    ///     used when it decided within the renderer's texture limit, else the view opens the path anew.
    init(path: String, displayName: String? = nil, renderer: Renderer, text: TextCache, assets: AssetCatalog?, options: TiledViewOptions,
         executor: WorkExecutor, rank: WorkRank = .visible,
         pixelScale: Double, now: Duration, preview: PixelBuffer? = nil, waker: EventLoopWaker? = nil,
         observer: (any RunObserver)? = nil, opening: TiledOpening? = nil) {
        var opening = opening
        if let early = opening, !(early.path == path && early.suits(maxTextureSize: renderer.maxTextureSize)) {
            early.opener.cancel()
            opening = nil
            Logger(label: "tessera.view").debug("the opening begun at start is not used: \(early.path == path ? "the renderer's texture limit is smaller" : "another path")")
        }
        self.path = path
        name = displayName ?? PathText.displayName(path.split(separator: "/").last.map(String.init) ?? path)
        self.renderer = renderer
        self.options = options
        self.executor = executor
        self.rank = rank
        openingLane = opening?.lane ?? SerialWorkLane(rank: rank, on: executor)
        openingLane.rank = rank
        self.pixelScale = pixelScale
        fade = TileFade(timing: options.fade)
        requestPolicy = TileRequestPolicy(lookahead: options.preloadLookahead, marginScreens: options.preloadMarginScreens)
        self.waker = waker
        openedAt = now
        self.observer = observer
        observer?.tiledViewOpened()
        outputSize = renderer.outputSize
        painter = TiledViewPainter(renderer: renderer, text: text, assets: assets, pixelScale: pixelScale)
        if let preview { backdrop = TiledBackdrop(preview, renderer: renderer) }
        // An animation plays only in the view shown, so its frames go at the visible rank.
        animation = ViewAnimation { [path, renderer, executor] in
            var feed = AnimationFeed.Options()
            feed.executor = executor
            feed.colour = options.colour
            feed.turn = options.turn
            feed.pixelLimit = options.pixelLimit
            feed.decoding = options.decoding
            return AnimationPlayback(feed: AnimationFeed(path: path, options: feed, onFrame: { waker?.wake() }),
                                     renderer: renderer, observer: observer, view: .tiled)
        }
        opener = opening?.opener ?? TiledImageOpener(
            .init(options: options, path: path, maxTextureSize: renderer.maxTextureSize),
            lane: openingLane, memoryBudget: executor.memoryBudget, onEvent: { waker?.wake() })
    }

    deinit { opener?.cancel() }

    // MARK: - State for hosts

    /// "name 25%" for the title bar.
    package var title: String {
        guard let camera else { return name }
        return "\(name) \(Int((camera.pictureScale * 100).rounded()))%"
    }

    /// Nothing moves, loads, fades or is being opened (or cut): the host may sleep.
    package func isIdle(now: Duration) -> Bool {
        switch phase {
        case .opening, .cutting: return false
        case .failed: return true
        case .showing:
            // A cut in progress is part of opening: more tiles are coming.
            if cut.running { return false }
            guard let tiles, let camera else { return true }
            return !camera.isMoving && tiles.isSettled && !tiles.isFading
        }
    }

    /// Nothing this view shows changes until a worker's wake (an opening step, a tile landing) or
    /// `nextWake`, though work may be under way: the frame loop draws no frame meanwhile, so a software GL
    /// renderer leaves the CPU to the decode the user waits for. A cut's progress comes without a wake, so
    /// a cut keeps frames coming.
    package func isStill(now: Duration) -> Bool {
        switch phase {
        case .opening, .failed: return true
        case .cutting: return false
        case .showing:
            if cut.running { return false }
            guard let tiles, let camera else { return true }
            return !camera.isMoving && !tiles.isFading && !tiles.hasArrivalsWaiting
        }
    }

    /// When the frame loop must draw again by itself: the animation's next frame, the moment an opening
    /// with nothing to show yet says what it opens, or the next try of a failed tile on screen (nil when
    /// none is due).
    package func nextWake(now: Duration) -> Duration? {
        if case .opening = phase, backdrop == nil {
            let caption = openedAt + Self.openingCaptionDelay
            if caption > now { return caption }
        }
        return [animation.nextWake, tiles?.nextRetryAt].compactMap { $0 }.min()
    }

    /// How long an opening shows nothing before it names the file: most openings end sooner, and a caption
    /// that flashes up and away would only distract.
    static let openingCaptionDelay = Duration.milliseconds(250)

    package var isMoving: Bool { camera?.isMoving ?? false }
    package var isAtLeftEdge: Bool { camera?.isAtLeftEdge ?? true }
    package var isAtRightEdge: Bool { camera?.isAtRightEdge ?? true }
    /// Every visible tile is at the right level (or failed).
    package var isSharp: Bool { tiles?.plan?.isSharp ?? false }
    /// Nothing visible is a hole.
    package var isComplete: Bool { tiles?.plan?.isComplete ?? false }
    /// The pyramid shown, once open.
    package var geometry: DeepZoomGeometry? { tiles?.geometry }
    package var zoom: Double? { camera?.zoom }
    /// Device pixels per pixel of the pyramid (see `ZoomPanModel.deviceScale`).
    package var deviceScale: Double? { camera?.deviceScale }
    /// The zoom as the user reads it: device pixels per pixel of the picture at its own size (1 is 100 %).
    package var pictureScale: Double? { camera?.pictureScale }
    /// Why the picture is shown only in part (a damaged file, in its decoder's words), once a tile says so.
    package var damage: String? { tiles?.damage }
    /// Where image pixel (0, 0)'s corner is on screen, in output pixels (for tests).
    var imageOriginInPixels: (x: Double, y: Double)? {
        camera.map { ($0.imageFrame.x * pixelScale, $0.imageFrame.y * pixelScale) }
    }
    /// Where the open pyramid's tiles come from (for tests).
    var tileSource: (any TileSource)? { tiles?.source }
    /// A plain image is being cut into tiles (for tests).
    var isCutting: Bool { cut.running }
    package var errorText: String? { if case .failed(let text) = phase { text } else { nil } }
    /// The image is an animation (one that could not be read plays no more and counts as a still).
    package var isAnimated: Bool { animation.isAnimated }
    package var isAnimationPaused: Bool { animation.isPaused }
    /// Whether an animated image plays: off for a view opened ahead and not shown (the slideshow's next
    /// image), whose frames nobody would see.
    package var playsAnimation: Bool {
        get { animation.plays }
        set { animation.plays = newValue }
    }
    /// When the frame loop must wake for the animation's next frame (nil when it need not).
    package var nextAnimationFrameAt: Duration? { animation.nextWake }
    /// Frames of the animation put on screen (for tests).
    var animationFramesShown: Int { animation.framesShown }
    /// Tiles held now (for tests).
    package var heldTiles: [TileID] { tiles?.store.tiles ?? [] }
    /// Tiles the open pyramid's store has let go (for tests).
    var evictedTiles: Int { tiles?.store.evictionCount ?? 0 }
    /// The open pyramid's failed tiles, those being tried again included.
    var failedTileCount: Int { tiles?.failedTileCount ?? 0 }
    /// The open pyramid's tile loads waiting for a worker, and begun so far (for tests).
    var tileLoadCounts: (queued: Int, started: Int) { tiles?.loadCounts ?? (0, 0) }
    /// Where the open pyramid's loads are counted, nil when unmeasured or not open yet (for tests).
    var tilePipelineObservation: LoadObservation? { tiles?.loadObservation }

    /// Pauses or resumes the animation; false when the image is not one.
    @discardableResult
    package func toggleAnimationPause(now: Duration) -> Bool { animation.togglePause(now: now) }

    // MARK: - Inspection

    /// The shown image's histogram, once counted; asking starts the count (`requestHistogram`).
    package var histogram: Histogram? { inspection?.overview?.histogram }

    /// Starts counting the histogram (on a worker, once), when the picture is all there: not while a large
    /// image is still being cut, whose tiles not written yet would count as nothing.
    package func requestHistogram() {
        guard !cut.running else { return }
        inspection?.requestOverview()
    }

    /// The full-resolution pixel under the pointer and its value as shown (nil while its tile is read,
    /// which this starts); nil when the pointer is not over the image.
    package func probePixelUnderPointer() -> (x: Int, y: Int, value: RGBA?)? {
        guard let cursor = input.cursor, let camera, let inspection else { return nil }
        let point = camera.imagePoint(atViewport: cursor)
        let x = Int(point.x.rounded(.down)), y = Int(point.y.rounded(.down))
        guard x >= 0, y >= 0, x < camera.imageSize.width, y < camera.imageSize.height else { return nil }
        return (x, y, inspection.pixel(x: x, y: y))
    }

    // MARK: - Framing

    /// What part of the image the view shows, independent of the image's size: the point at the
    /// viewport's centre as a fraction of the image, and the zoom as the image's width on screen in points.
    package struct Framing: Equatable, Sendable {
        var centre: Point
        var shownWidth: Double
        var isFitted: Bool
    }

    /// Nil until the image's size is known.
    package var framing: Framing? {
        guard let camera, camera.imageSize.width > 0, camera.imageSize.height > 0 else { return nil }
        let centre = camera.imagePoint(atViewport: Point(x: camera.viewportSize.width / 2, y: camera.viewportSize.height / 2))
        return Framing(centre: Point(x: centre.x / Double(camera.imageSize.width), y: centre.y / Double(camera.imageSize.height)),
                       shownWidth: camera.zoom * Double(camera.imageSize.width), isFitted: camera.isFitted)
    }

    /// Shows the part of its image that `framing` describes (another view's): the same part of a picture
    /// of the same scene, whatever either's size.
    package func follow(_ framing: Framing, now: Duration) {
        guard var camera, camera.imageSize.width > 0, self.framing != framing else { return }
        if framing.isFitted {
            if !camera.isFitted { camera.fit(time: now) }
        } else {
            let size = camera.imageSize
            camera.show(imagePoint: Point(x: framing.centre.x * Double(size.width), y: framing.centre.y * Double(size.height)),
                        atZoom: framing.shownWidth / Double(size.width), time: now)
        }
        self.camera = camera
    }

    // MARK: - Input

    /// The mouse and the wheel.
    package func handle(_ event: InputEvent, now: Duration) -> TiledViewAction? {
        input.handle(event, camera: &camera, viewport: viewportPoints, now: now)
    }

    /// What a key asked for (the host reads the bindings): zooming and panning here, stepping, closing and
    /// quitting for the host to do; nil also for actions that are not the view's.
    package func perform(_ action: ViewerAction, now: Duration) -> TiledViewAction? {
        if action == .retryTiles {
            tiles?.retryAllFailedTiles(now: now)
            return nil
        }
        return input.perform(action, camera: &camera, viewport: viewportPoints, now: now)
    }

    private var viewportPoints: Size {
        Size(width: Double(outputSize.width) / pixelScale, height: Double(outputSize.height) / pixelScale)
    }

    // MARK: - Frame

    /// Takes what the opener and the workers delivered, moves the camera, uploads arrived tiles within the
    /// budget, plans the frame and asks for the tiles it lacks.
    package func update(now: Duration) {
        if let opener { for event in opener.events.drain() { apply(event, now: now) } }
        inspection?.update()
        if showsClipping { requestHistogram() }
        animation.update(now: now)
        let output = pane.map { PixelSize(width: $0.width, height: $0.height) } ?? renderer.outputSize
        if output != outputSize || abs((camera?.pixelScale ?? pixelScale) - pixelScale) > 1e-9 {
            outputSize = output
            camera?.resize(viewportSize: viewportPoints, pixelScale: pixelScale, time: now)
        }
        // Before tiles can be read, the preview or overview (when there is one) is the whole picture.
        if tiles == nil, backdrop != nil { observer?.tiledFrameDrawn(complete: true, sharp: false, sinceOpening: now - openedAt) }
        guard var camera else { return }
        if camera.needsStep { camera.step(to: now) }
        self.camera = camera
        guard let tiles else { return }
        let geometry = tiles.geometry
        let level = camera.level(in: geometry)
        let visible = camera.visibleImageRegion
        let onScreen = Set(geometry.tiles(in: level, intersecting: geometry.levelRegion(covering: visible, in: level)))
        tiles.retryDueTiles(onScreen: onScreen, now: now)
        tiles.upload(onScreen: onScreen, now: now, fade: fade, hasBackdrop: backdrop != nil,
                     budget: options.uploadBudgetBytes, aheadBudget: options.preloadUploadBudgetBytes)

        let fade = self.fade
        let levelSize = geometry.levelSize(level)
        let backdropIsSharp = backdropIsOverview && backdrop.map {
            $0.size.width + 1 >= levelSize.width && $0.size.height + 1 >= levelSize.height
        } ?? false
        let plan = tiles.planner.plan(level: level, visible: visible, hasBackdrop: backdrop != nil,
                                      backdropIsSharp: backdropIsSharp) {
            tiles.availability($0, now: now, fade: fade)
        }
        tiles.plan = plan
        tiles.isFading = plan.visibleTiles.contains { tile in
            tiles.store.entry(for: tile).map { fade.availability(fadeStart: $0.fadeStart, now: now) == .fading } ?? false
        }
        tiles.request(requestPolicy.requests(for: plan, in: geometry, visible: visible, velocity: camera.imageVelocity,
                                             baseTiles: tiles.baseTiles, isHeld: tiles.store.contains,
                                             hasFailed: tiles.hasFailed))

        observer?.tiledFrameDrawn(complete: plan.isComplete, sharp: plan.isSharp, sinceOpening: now - openedAt)
    }

    private func apply(_ event: TiledOpenEvent, now: Duration) {
        switch event {
        case .source(let source, let base):
            let geometry = source.geometry
            let size = PixelSize(width: geometry.width, height: geometry.height)
            if camera?.imageSize != size {
                camera = openingCamera(imageSize: size, magnification: Double(source.magnification), now: now)
            }
            if let backdrop, !backdrop.fits(size) {
                self.backdrop = nil
                backdropIsOverview = false
            }
            let tiles = PyramidTileCache(source: source, renderer: renderer, options: options, executor: executor,
                                         rank: rank, waker: waker, observer: observer)
            for (tile, pixels) in base {
                do { try tiles.hold(pixels, for: tile, fadeStart: fade.start(arrivingAt: now, onScreen: false)) } catch {
                    logger.warning("tile \(tile) not shown: \(error)")
                }
            }
            // The opener read these: loads of the view all the same.
            if let observer {
                for pixels in base.values {
                    observer.load(.requested, in: .tiled)
                    observer.load(.succeeded(cost: pixels.cost), in: .tiled)
                }
            }
            // Base tiles that could not be read are tried once more, and marked if they fail again.
            tiles.requestBaseTiles(except: Set(base.keys))
            self.tiles = tiles
            let waker = waker
            inspection = ImageInspection(source: source, lane: SerialWorkLane(rank: .visible, on: executor),
                                         wake: { waker?.wake() })
            clippingTexture = nil
            phase = .showing
        case .cutting(let imageSize):
            camera = openingCamera(imageSize: imageSize, magnification: 1, now: now)
            if let backdrop, !backdrop.fits(imageSize) { self.backdrop = nil }
            phase = .cutting(nil)
            cut = (true, nil)
        case .overview(let overview):
            backdrop = TiledBackdrop(overview, renderer: renderer)
            backdropIsOverview = backdrop != nil
        case .progress(let progress):
            if case .cutting = phase { phase = .cutting(progress) }
            if cut.running { cut.progress = progress }
        case .cutFinished:
            cut = (false, nil)
        case .failed(let reason):
            phase = .failed(reason)
            cut = (false, nil)
        case .animated:
            animation.isAnimated = true
        }
    }

    /// The camera an image opens with: fitted, or where `TiledViewOptions.openAt` says.
    private func openingCamera(imageSize: PixelSize, magnification: Double, now: Duration) -> ZoomPanModel {
        options.openingCamera(imageSize: imageSize, magnification: magnification, viewport: viewportPoints,
                              pixelScale: pixelScale, time: now)
    }

    // MARK: - Drawing

    package func render(now: Duration) {
        if let pane { renderer.setViewport(pane) }
        defer { if pane != nil { renderer.setViewport(nil) } }
        painter.outputSize = outputSize
        painter.pixelScale = pixelScale
        painter.isPane = pane != nil
        painter.paintBackground(around: imageRectWhenCovered)
        switch phase {
        case .opening:
            if let backdrop {
                painter.drawFittedPreview(backdrop, maxDeviceScale: options.maxDeviceScale)
            } else if (now - openedAt) >= Self.openingCaptionDelay {
                painter.drawCentred("Opening \(name)…", color: Theme.dimText)
            }
        case .failed(let reason):
            painter.drawError(reason)
        case .cutting(let progress):
            if let camera, let backdrop { painter.drawWholeBackdrop(backdrop, camera: camera) }
            painter.drawProgress(progress, name: name)
        case .showing:
            if let picture = animation.picture, let camera {
                painter.drawAnimationFrame(picture, camera: camera)
                return
            }
            guard let tiles, let camera, let plan = tiles.plan else { return }
            painter.draw(plan, from: tiles, camera: camera, backdrop: backdrop, fade: fade, now: now, observer: observer)
            if showsClipping { drawClipping(camera: camera) }
            if cut.running { painter.drawProgress(cut.progress, name: name) }
        }
    }

    private func drawClipping(camera: ZoomPanModel) {
        guard let mask = inspection?.overview?.mask else { return }
        if clippingTexture == nil {
            clippingTexture = try? renderer.makeTexture(width: mask.width, height: mask.height)
            _ = try? clippingTexture?.upload(mask)
            clippingTexture?.setBlending(true)
            clippingTexture?.setScaleFilter(nearest: true)
        }
        guard let clippingTexture else { return }
        painter.drawWholeImage(clippingTexture, camera: camera)
    }

    /// The image's place on screen once its tiles cover every visible point of it (the background is then
    /// painted only around it); nil otherwise.
    private var imageRectWhenCovered: PixelRect? {
        guard case .showing = phase, let tiles, let camera, let plan = tiles.plan,
              plan.isComplete || animation.picture != nil else { return nil }
        let geometry = tiles.geometry
        return TiledViewPainter.Mapping(camera: camera, pixelScale: pixelScale)
            .rect(PixelRegion(x: 0, y: 0, width: geometry.width, height: geometry.height))
    }
}
