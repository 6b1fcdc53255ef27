import Foundation
import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL

/// A CATiledLayer-style zoomable view of one image: a Deep Zoom pyramid, a flat tile folder, or a plain
/// image (shown directly when it fits a texture, cut into a cached pyramid in the background otherwise).
///
/// Each frame it draws only the tiles meeting the viewport, at the level matching zoom x pixel scale, with
/// the nearest coarser held tiles under those still loading (`TileDrawPlanner`), so it never shows a hole a
/// held tile could fill; asks the worker pool for the missing ones nearest the centre first and drops
/// queued ones that left the view (`TileLoadQueue`); uploads arrivals within a byte budget into a texture
/// cache bounded in bytes that never evicts the coarse levels (`TileStore`); and fades a tile that arrives
/// on screen in over 0.25 s (`TileFade`).
///
/// Self-contained, so a host loop only forwards events and calls `update` then `render` each frame: the
/// standalone `tessera view` (`TiledViewer`) and the strip's Enter (`Viewer`). Main thread only.
public final class TiledImageView {
    public let path: String
    /// Device pixels per point; the host keeps it current.
    public var pixelScale: Double
    public private(set) var metrics = TiledViewMetrics()

    private let renderer: Renderer
    private let text: TextCache
    private let assets: AssetCatalog?
    private let options: TiledViewOptions
    private let fade: TileFade
    private let decoders: [any ImageDecoding]
    private let waker: EventLoopWaker?
    private let logger = Logger(label: "tessera.view")
    private let openedAt: Duration

    private enum Phase {
        case opening
        case cutting(TileProgress?)
        case showing
        case failed(String)
    }

    private var phase = Phase.opening
    private var opener: TiledImageOpener?
    private var pyramid: Pyramid?
    private var camera: ZoomPanModel?
    private var backdrop: Backdrop?
    /// The last pointer position, where keys zoom about.
    private var cursor: Point?
    private var outputSize: PixelSize
    /// Tiles fading in on screen since `TileFade.start`, watched to measure the fade actually seen.
    private var fadeWatch: [TileID: Duration] = [:]
    private var earlierCounters = TileLoadQueue.Counters()

    /// A whole-image picture drawn where no tile can be: the strip's cell image, or the overview of an
    /// image being cut.
    private struct Backdrop {
        let picture: ImageTexture
        var size: PixelSize { picture.contentSize }

        /// The texture, set up to draw at full opacity: a plain copy when the picture is opaque.
        func preparedTexture() -> Texture {
            picture.prepare(alpha: 1)
            return picture.texture
        }
    }

    /// Everything bound to one tile source.
    private final class Pyramid {
        let source: any TileSource
        let planner: TileDrawPlanner
        let queue: TileLoadQueue
        let store: TileStore<ImageTexture>
        let pool: TileTexturePool
        let baseTiles: [TileID]
        /// Decoded tiles waiting for a frame with upload budget left, by tile.
        var arrivals: [TileID: TileLoadQueue.Arrival] = [:]
        var retained: Set<TileID> = []
        var plan: TileDrawPlan?
        var isFading = false

        /// Whether a tile with transparent pixels was shown (the image area then gets a neutral backdrop).
        var hasTransparency = false

        init(source: any TileSource, renderer: Renderer, options: TiledViewOptions, waker: EventLoopWaker?) {
            self.source = source
            let geometry = source.geometry
            planner = TileDrawPlanner(geometry: geometry)
            let limit = renderer.maxTextureSize
            queue = TileLoadQueue(scheduler: WorkScheduler(workerCount: options.workerCount, name: "tessera.tile", priority: .background),
                                  loader: { tile in
                                      do throws(TileSourceError) {
                                          return TiledImageOpener.withinTextureLimit(try source.loadTile(tile), limit: limit)
                                      } catch {
                                          throw TileLoadFailure(reason: error.description)
                                      }
                                  },
                                  onArrival: { waker?.wake() })
            pool = TileTexturePool(renderer: renderer, geometry: geometry)
            // The bound must hold a few of the largest tiles, or a plain image's full level could never stay.
            let largest = min(geometry.tileSize + 2 * geometry.overlap, max(geometry.width, geometry.height))
            let largestCost = largest * largest * 4
            let policy = options.policy
            store = TileStore(costLimitBytes: max(options.cacheLimitBytes, 3 * largestCost),
                              isPinned: { policy.isPinned($0, in: geometry) })
            baseTiles = policy.baseTiles(in: geometry)
        }

        /// Puts a tile in a texture and in the store; returns whether it fits the store.
        func hold(_ pixels: PixelBuffer, for tile: TileID, fadeStart: Duration) throws {
            let texture = try pool.make(from: pixels)
            if !texture.isOpaque { hasTransparency = true }
            pool.recycle(store.insert(texture, for: tile, cost: texture.cost, fadeStart: fadeStart))
        }

        func availability(_ tile: TileID, now: Duration, fade: TileFade) -> TileAvailability {
            if let entry = store.entry(for: tile) { return fade.availability(fadeStart: entry.fadeStart, now: now) }
            return queue.failure(for: tile) == nil ? .absent : .failed
        }
    }

    /// - Parameters:
    ///   - preview: a small picture of the image to show until tiles arrive (the strip's cell image).
    ///   - waker: wakes the host loop when a tile or an opening step finishes.
    ///   - displayName: what the user knows the image as (a URL's file name for a download); the file's
    ///     name by default.
    public init(path: String, displayName: String? = nil, renderer: Renderer, text: TextCache, assets: AssetCatalog?, options: TiledViewOptions,
                pixelScale: Double, now: Duration, preview: PixelBuffer? = nil, waker: EventLoopWaker? = nil) {
        self.path = path
        name = displayName ?? path.split(separator: "/").last.map(String.init) ?? path
        self.renderer = renderer
        self.text = text
        self.assets = assets
        self.options = options
        self.pixelScale = pixelScale
        fade = TileFade(timing: options.fade)
        self.waker = waker
        decoders = ImageDecoders.viewer
        openedAt = now
        outputSize = renderer.outputSize
        if let preview { backdrop = makeBackdrop(preview) }
        opener = TiledImageOpener(.init(path: path, decoders: decoders, colour: options.colour,
                                        pixelLimit: options.pixelLimit,
                                        maxTextureSize: renderer.maxTextureSize, pyramidCache: options.pyramidCache,
                                        policy: options.policy),
                                  onEvent: { waker?.wake() })
    }

    deinit {
        opener?.cancel()
        pyramid?.queue.shutdown()
    }

    // MARK: - State for hosts

    public let name: String

    /// "name 25%" for the title bar.
    public var title: String {
        guard let camera else { return name }
        return "\(name) \(Int((camera.deviceScale * 100).rounded()))%"
    }

    /// Nothing moves, loads, fades or is being opened: the host may sleep.
    public func isIdle(now: Duration) -> Bool {
        switch phase {
        case .opening, .cutting: return false
        case .failed: return true
        case .showing:
            guard let pyramid, let camera else { return true }
            return !camera.isMoving && pyramid.queue.inFlightCount == 0 && pyramid.arrivals.isEmpty
                && !pyramid.queue.hasPendingArrivals && !pyramid.isFading
        }
    }

    public var isMoving: Bool { camera?.isMoving ?? false }
    public var isAtLeftEdge: Bool { camera?.isAtLeftEdge ?? true }
    public var isAtRightEdge: Bool { camera?.isAtRightEdge ?? true }
    /// Every visible tile is at the right level (or failed).
    public var isSharp: Bool { pyramid?.plan?.isSharp ?? false }
    /// Nothing visible is a hole.
    public var isComplete: Bool { pyramid?.plan?.isComplete ?? false }
    /// The pyramid shown, once open.
    public var geometry: DeepZoomGeometry? { pyramid?.source.geometry }
    public var zoom: Double? { camera?.zoom }
    public var deviceScale: Double? { camera?.deviceScale }
    /// Where image pixel (0, 0)'s corner is on screen, in output pixels (for tests).
    var imageOriginInPixels: (x: Double, y: Double)? {
        camera.map { ($0.imageFrame.x * pixelScale, $0.imageFrame.y * pixelScale) }
    }
    public var errorText: String? { if case .failed(let text) = phase { text } else { nil } }
    /// Tiles held now (for tests).
    public var heldTiles: [TileID] { pyramid?.store.tiles ?? [] }

    // MARK: - Input

    public func handle(_ event: InputEvent, now: Duration) -> TiledViewAction? {
        switch event {
        case .keyDown(let key, _):
            switch key {
            case .escape, .enter: return .close
            case .character("q"): return .quit
            case .pageUp: return .showPrevious
            case .pageDown, .space: return .showNext
            case .character("+"), .character("="): zoomAboutCursor(by: 2.0.squareRoot(), now: now)
            case .character("-"): zoomAboutCursor(by: 1 / 2.0.squareRoot(), now: now)
            case .character("0"): camera?.fit(time: now)
            case .character("1"): camera?.zoomToNative(about: cursorOrCentre, time: now)
            case .left, .character("h"): panByKey(dx: -1, dy: 0, now: now)
            case .right, .character("l"): panByKey(dx: 1, dy: 0, now: now)
            case .up, .character("k"): panByKey(dx: 0, dy: -1, now: now)
            case .down, .character("j"): panByKey(dx: 0, dy: 1, now: now)
            default: break
            }
        case .mouseDown(.left, let x, let y, let clicks):
            cursor = Point(x: x, y: y)
            guard var camera else { return nil }
            if clicks >= 2 {
                // Double-click zooms in 2x about the point; at the limit it goes back to fit.
                if camera.zoom >= camera.maxZoom * 0.999 { camera.fit(time: now) } else {
                    camera.zoom(by: 2, about: Point(x: x, y: y), time: now)
                }
            } else {
                camera.beginDrag(at: Point(x: x, y: y), time: now)
            }
            self.camera = camera
        case .mouseMotion(let x, let y, let isLeftDown):
            cursor = Point(x: x, y: y)
            if isLeftDown, camera?.isDragging == true { camera?.drag(to: Point(x: x, y: y), time: now) }
        case .mouseUp(.left, let x, let y):
            cursor = Point(x: x, y: y)
            camera?.endDrag(time: now)
        case .wheel(let dx, let dy, let x, let y):
            cursor = Point(x: x, y: y)
            if dy != 0 { camera?.zoom(by: pow(1.2, dy), about: Point(x: x, y: y), time: now) }
            if dx != 0 { camera?.pan(dx: dx * 40, dy: 0, animated: false, time: now) }
        default:
            break
        }
        return nil
    }

    private var viewportPoints: Size {
        Size(width: Double(outputSize.width) / pixelScale, height: Double(outputSize.height) / pixelScale)
    }

    private var cursorOrCentre: Point {
        cursor ?? Point(x: viewportPoints.width / 2, y: viewportPoints.height / 2)
    }

    private func zoomAboutCursor(by factor: Double, now: Duration) {
        camera?.zoom(by: factor, about: cursorOrCentre, time: now)
    }

    /// Arrow keys move a fifth of the viewport, animated (key repeat retargets the animation).
    private func panByKey(dx: Double, dy: Double, now: Duration) {
        let size = viewportPoints
        camera?.pan(dx: dx * size.width / 5, dy: dy * size.height / 5, animated: true, time: now)
    }

    // MARK: - Frame

    /// Takes what the opener and the workers delivered, moves the camera, uploads arrived tiles within the
    /// budget, plans the frame and asks for the tiles it lacks.
    public func update(now: Duration) {
        if let opener { for event in opener.events.drain() { apply(event, now: now) } }
        let output = renderer.outputSize
        if output != outputSize || abs((camera?.pixelScale ?? pixelScale) - pixelScale) > 1e-9 {
            outputSize = output
            camera?.resize(viewportSize: viewportPoints, pixelScale: pixelScale, time: now)
        }
        // Before tiles can be read, the preview or overview (when there is one) is the whole picture.
        if pyramid == nil, backdrop != nil, metrics.firstFrameMs == nil { metrics.firstFrameMs = (now - openedAt).milliseconds }
        guard var camera else { return }
        if camera.needsStep { camera.step(to: now) }
        self.camera = camera
        guard let pyramid else { return }
        let geometry = pyramid.source.geometry
        let level = camera.level(in: geometry)
        let visible = camera.visibleImageRegion
        let onScreen = Set(geometry.tiles(in: level, intersecting: geometry.levelRegion(covering: visible, in: level)))
        upload(pyramid, onScreen: onScreen, now: now)

        let fade = self.fade
        let plan = pyramid.planner.plan(level: level, visible: visible, hasBackdrop: backdrop != nil) {
            pyramid.availability($0, now: now, fade: fade)
        }
        pyramid.plan = plan
        pyramid.isFading = plan.visibleTiles.contains { tile in
            pyramid.store.entry(for: tile).map { fade.availability(fadeStart: $0.fadeStart, now: now) == .fading } ?? false
        }
        request(plan, in: pyramid, camera: camera, visible: visible)

        if plan.isComplete, metrics.firstFrameMs == nil { metrics.firstFrameMs = (now - openedAt).milliseconds }
        if !plan.isComplete, metrics.firstFrameMs != nil { metrics.holeFrames += 1 }
        if plan.isSharp, metrics.sharpMs == nil { metrics.sharpMs = (now - openedAt).milliseconds }
        metrics.tiles = earlierCounters + pyramid.queue.counters
        metrics.evictions = pyramid.store.evictionCount
        metrics.peakTextureBytes = max(metrics.peakTextureBytes, pyramid.store.totalCost)
    }

    private func apply(_ event: TiledOpenEvent, now: Duration) {
        switch event {
        case .source(let source, let base):
            let geometry = source.geometry
            let size = PixelSize(width: geometry.width, height: geometry.height)
            if camera?.imageSize != size {
                camera = ZoomPanModel(imageSize: size, viewportSize: viewportPoints, pixelScale: pixelScale,
                                      maxDeviceScale: options.maxDeviceScale)
            }
            if let backdrop, !Self.sameAspect(backdrop.size, size) { self.backdrop = nil }
            if let old = pyramid { earlierCounters = earlierCounters + old.queue.counters }
            let pyramid = Pyramid(source: source, renderer: renderer, options: options, waker: waker)
            for (tile, pixels) in base {
                do { try pyramid.hold(pixels, for: tile, fadeStart: fade.start(arrivingAt: now, onScreen: false)) } catch {
                    logger.warning("tile \(tile) not shown: \(error)")
                }
            }
            // Base tiles that could not be read are tried once more, and marked if they fail again.
            for tile in pyramid.baseTiles where base[tile] == nil { pyramid.queue.request(tile, priority: 0) }
            earlierCounters.requested += base.count
            earlierCounters.decoded += base.count
            self.pyramid = pyramid
            phase = .showing
        case .cutting(let imageSize):
            camera = ZoomPanModel(imageSize: imageSize, viewportSize: viewportPoints, pixelScale: pixelScale,
                                  maxDeviceScale: options.maxDeviceScale)
            if let backdrop, !Self.sameAspect(backdrop.size, imageSize) { self.backdrop = nil }
            phase = .cutting(nil)
        case .overview(let overview):
            backdrop = makeBackdrop(overview)
        case .progress(let progress):
            if case .cutting = phase { phase = .cutting(progress) }
        case .failed(let reason):
            phase = .failed(reason)
        }
    }

    /// Copies arrived tiles into textures, coarse levels and on-screen tiles first, until the frame's byte
    /// budget is spent; the rest wait for the next frame.
    private func upload(_ pyramid: Pyramid, onScreen: Set<TileID>, now: Duration) {
        for arrival in pyramid.queue.takeArrivals() { pyramid.arrivals[arrival.tile] = arrival }
        guard !pyramid.arrivals.isEmpty else { return }
        // Coarse first: they are small, and a finer tile arriving in the same frame can then fade in over them.
        let pending = pyramid.arrivals.values.sorted {
            ($0.tile.level, onScreen.contains($0.tile) ? 0 : 1, $0.tile.row, $0.tile.column)
                < ($1.tile.level, onScreen.contains($1.tile) ? 0 : 1, $1.tile.row, $1.tile.column)
        }
        var spent = 0, spentAhead = 0
        for arrival in pending {
            guard case .success(let pixels) = arrival.result else {
                pyramid.arrivals[arrival.tile] = nil  // failures are drawn as marks
                continue
            }
            let ahead = arrival.tile.level == pyramid.plan?.level && !onScreen.contains(arrival.tile)
            if spent > 0 && (spent + pixels.cost > options.uploadBudgetBytes
                || (ahead && spentAhead + pixels.cost > options.preloadUploadBudgetBytes)) {
                continue  // next frame
            }
            pyramid.arrivals[arrival.tile] = nil
            if ahead { spentAhead += pixels.cost }
            do {
                // Fade in over what shows there already; the first picture of a place appears at once.
                let visible = onScreen.contains(arrival.tile) && hasOpaqueFallback(arrival.tile, in: pyramid, now: now)
                let start = fade.start(arrivingAt: now, onScreen: visible)
                if visible && options.fade.duration > .zero { fadeWatch[arrival.tile] = start }
                try pyramid.hold(pixels, for: arrival.tile, fadeStart: start)
                spent += pixels.cost
            } catch {
                logger.warning("tile \(arrival.tile) not shown: \(error)")
            }
        }
        metrics.uploadBytes += spent
    }

    /// Whether something opaque already shows where `tile` goes: the overview, a held coarser tile, or all
    /// of its finer tiles.
    private func hasOpaqueFallback(_ tile: TileID, in pyramid: Pyramid, now: Duration) -> Bool {
        if backdrop != nil { return true }
        let geometry = pyramid.source.geometry
        var ancestor = geometry.parent(of: tile)
        while let current = ancestor {
            if pyramid.availability(current, now: now, fade: fade) == .opaque { return true }
            ancestor = geometry.parent(of: current)
        }
        let children = geometry.children(of: tile)
        return !children.isEmpty && children.allSatisfy { pyramid.availability($0, now: now, fade: fade) == .opaque }
    }

    /// Asks for the visible tiles that are missing (nearest the centre first), then those where a moving
    /// view is heading and a margin around it (nearest first; Texture's preload ranges, smaller), and drops
    /// queued tiles that are neither.
    private func request(_ plan: TileDrawPlan, in pyramid: Pyramid, camera: ZoomPanModel, visible: PixelRegion) {
        let geometry = pyramid.source.geometry
        // Decoded tiles waiting for upload budget are not asked for again, but kept.
        var keep = Set(plan.wanted)
        for (index, tile) in plan.wanted.enumerated() where pyramid.arrivals[tile] == nil {
            pyramid.queue.request(tile, priority: 1 + index)
        }
        for tile in pyramid.baseTiles where !pyramid.store.contains(tile) { keep.insert(tile) }

        // Where the view will be: the visible region pushed along the velocity, at most 1.5 screens.
        let velocity = camera.imageVelocity
        let lookahead = options.preloadLookahead / .seconds(1)
        let dx = max(-1.5 * Double(visible.width), min(1.5 * Double(visible.width), velocity.x * lookahead))
        let dy = max(-1.5 * Double(visible.height), min(1.5 * Double(visible.height), velocity.y * lookahead))
        let x0 = min(visible.x, visible.x + Int(dx)), y0 = min(visible.y, visible.y + Int(dy))
        let x1 = max(visible.maxX, visible.maxX + Int(dx)), y1 = max(visible.maxY, visible.maxY + Int(dy))
        var ahead = geometry.levelRegion(covering: PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0), in: plan.level)
        let levelVisible = geometry.levelRegion(covering: visible, in: plan.level)
        let mx = max(geometry.tileSize, Int(Double(levelVisible.width) * options.preloadMarginScreens))
        let my = max(geometry.tileSize, Int(Double(levelVisible.height) * options.preloadMarginScreens))
        ahead = PixelRegion(x: ahead.x - mx, y: ahead.y - my, width: ahead.width + 2 * mx, height: ahead.height + 2 * my)
        let onScreen = Set(plan.visibleTiles)
        let candidates = geometry.tiles(in: plan.level, intersecting: ahead).filter {
            !onScreen.contains($0) && !pyramid.store.contains($0) && pyramid.queue.failure(for: $0) == nil
        }
        let centre = (x: Double(visible.x) + Double(visible.width) / 2, y: Double(visible.y) + Double(visible.height) / 2)
        func distance(_ tile: TileID) -> Double {
            let r = geometry.imageRegion(of: tile)
            let cx = Double(r.x) + Double(r.width) / 2 - centre.x, cy = Double(r.y) + Double(r.height) / 2 - centre.y
            return cx * cx + cy * cy
        }
        for (index, tile) in candidates.sorted(by: { distance($0) < distance($1) }).enumerated() {
            if pyramid.arrivals[tile] == nil { pyramid.queue.request(tile, priority: 10_000 + index) }
            keep.insert(tile)
        }
        if keep != pyramid.retained {
            pyramid.queue.retainOnly(keep)
            pyramid.retained = keep
        }
        // Decoded tiles the view has left behind are let go rather than uploaded.
        for tile in pyramid.arrivals.keys where !keep.contains(tile) && tile.level == plan.level { pyramid.arrivals[tile] = nil }
    }

    // MARK: - Drawing

    public func render(now: Duration) {
        paintBackground()
        switch phase {
        case .opening:
            if let backdrop { drawFittedPreview(backdrop) } else if (now - openedAt) > .milliseconds(250) {
                drawCentred("Opening \(name)…", color: Theme.dimText)
            }
        case .failed(let reason):
            drawError(reason)
        case .cutting(let progress):
            if let camera, let backdrop { drawWholeBackdrop(backdrop, camera: camera) }
            drawProgress(progress)
        case .showing:
            if let pyramid, let camera, let plan = pyramid.plan { draw(plan, of: pyramid, camera: camera, now: now) }
        }
    }

    /// The window background, only around the image once its tiles cover every visible point of it: a
    /// whole-window clear under opaque tiles is a frame's worth of memory traffic for nothing on the
    /// software renderer.
    private func paintBackground() {
        let window = PixelRect(x: 0, y: 0, width: outputSize.width, height: outputSize.height)
        guard case .showing = phase, let pyramid, let camera, let plan = pyramid.plan, plan.isComplete else {
            renderer.clear(Theme.background)
            return
        }
        let geometry = pyramid.source.geometry
        let image = Mapping(camera: camera, pixelScale: pixelScale)
            .rect(PixelRegion(x: 0, y: 0, width: geometry.width, height: geometry.height))
        for gap in window.subtracting([image]) { renderer.fill(gap, Theme.background) }
    }

    /// Output pixels of an image x or y coordinate (full-resolution pixels) on the screen.
    private struct Mapping {
        let originX: Double, originY: Double, scale: Double

        init(camera: ZoomPanModel, pixelScale: Double) {
            let frame = camera.imageFrame
            originX = frame.x * pixelScale
            originY = frame.y * pixelScale
            scale = camera.zoom * pixelScale
        }

        func x(_ imageX: Double) -> Int { Int((originX + imageX * scale).rounded()) }
        func y(_ imageY: Double) -> Int { Int((originY + imageY * scale).rounded()) }

        func rect(x0: Double, y0: Double, x1: Double, y1: Double) -> PixelRect {
            let left = x(x0), top = y(y0)
            return PixelRect(x: left, y: top, width: x(x1) - left, height: y(y1) - top)
        }

        func rect(_ region: PixelRegion) -> PixelRect {
            rect(x0: Double(region.x), y0: Double(region.y), x1: Double(region.maxX), y1: Double(region.maxY))
        }
    }

    private func draw(_ plan: TileDrawPlan, of pyramid: Pyramid, camera: ZoomPanModel, now: Duration) {
        let geometry = pyramid.source.geometry
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let magnified = camera.deviceScale > 1.0001
        // The book's resolution swap: while the view moves, tiles are scaled with the cheap nearest filter
        // (nobody sees the difference at speed); at rest they are redrawn smooth. Past 100 %, nearest always
        // (vipsdisp): magnified pixels stay crisp squares.
        let moving = camera.isMoving
        if pyramid.hasTransparency {
            let image = PixelRegion(x: 0, y: 0, width: geometry.width, height: geometry.height)
            renderer.fill(mapping.rect(image), Theme.imageBackdrop)
        }
        for layer in plan.layers {
            let target = geometry.imageRegion(of: layer.target)
            switch layer.content {
            case .tile(let tile):
                guard let entry = pyramid.store.entry(for: tile) else { continue }
                pyramid.store.touch(tile)
                let area = geometry.imageRegion(of: tile).intersection(target)
                guard !area.isEmpty else { continue }
                let alpha = fade.alpha(fadeStart: entry.fadeStart, now: now)
                if alpha >= 1, let started = fadeWatch.removeValue(forKey: tile) {
                    metrics.fadeSamplesMs.append((now - started).milliseconds)
                }
                let factor = Double(1 << geometry.reduction(of: tile.level))
                let file = geometry.region(of: tile)
                let texture = entry.value
                // Texels per image pixel, and where the tile file starts in image pixels.
                let sx = Double(texture.contentSize.width) / Double(file.width) / factor
                let sy = Double(texture.contentSize.height) / Double(file.height) / factor
                texture.prepare(alpha: alpha, nearestFilter: moving || (magnified && tile.level == plan.level))
                drawPart(texture.texture, content: texture.contentSize, area: area,
                         origin: (Double(file.x) * factor, Double(file.y) * factor), texelsPerPixel: (sx, sy),
                         mapping: mapping)
            case .backdrop:
                guard let backdrop else { continue }
                drawPart(backdrop.preparedTexture(), content: backdrop.size, area: target, origin: (0, 0),
                         texelsPerPixel: (Double(backdrop.size.width) / Double(geometry.width),
                                          Double(backdrop.size.height) / Double(geometry.height)),
                         mapping: mapping)
            case .missing:
                drawMissingMark(mapping.rect(target))
            }
        }
    }

    /// Draws the part of a texture that stands for `area` (image pixels). Texture coordinates are integers,
    /// so when `area` does not start and end on whole texels the source is widened to whole texels and the
    /// draw clipped to `area`'s place on screen.
    private func drawPart(_ texture: Texture, content: PixelSize, area: PixelRegion, origin: (x: Double, y: Double),
                          texelsPerPixel: (x: Double, y: Double), mapping: Mapping) {
        let fx0 = (Double(area.x) - origin.x) * texelsPerPixel.x, fx1 = (Double(area.maxX) - origin.x) * texelsPerPixel.x
        let fy0 = (Double(area.y) - origin.y) * texelsPerPixel.y, fy1 = (Double(area.maxY) - origin.y) * texelsPerPixel.y
        let ix0 = max(0, Int((fx0 + 1e-6).rounded(.down))), ix1 = min(content.width, Int((fx1 - 1e-6).rounded(.up)))
        let iy0 = max(0, Int((fy0 + 1e-6).rounded(.down))), iy1 = min(content.height, Int((fy1 - 1e-6).rounded(.up)))
        guard ix1 > ix0, iy1 > iy0 else { return }
        let exact = abs(Double(ix0) - fx0) < 1e-6 && abs(Double(ix1) - fx1) < 1e-6
            && abs(Double(iy0) - fy0) < 1e-6 && abs(Double(iy1) - fy1) < 1e-6
        let destination = mapping.rect(x0: origin.x + Double(ix0) / texelsPerPixel.x,
                                       y0: origin.y + Double(iy0) / texelsPerPixel.y,
                                       x1: origin.x + Double(ix1) / texelsPerPixel.x,
                                       y1: origin.y + Double(iy1) / texelsPerPixel.y)
        let source = PixelRect(x: ix0, y: iy0, width: ix1 - ix0, height: iy1 - iy0)
        if exact {
            renderer.draw(texture, source: source, destination: destination)
        } else {
            let clip = mapping.rect(area)
            guard clip.width > 0, clip.height > 0 else { return }
            renderer.setClip(clip)
            renderer.draw(texture, source: source, destination: destination)
            renderer.setClip(nil)
        }
    }

    /// A missing or broken tile: a dark square with a red X.
    private func drawMissingMark(_ rect: PixelRect) {
        guard rect.width > 0, rect.height > 0 else { return }
        renderer.fill(rect, Theme.missingTile)
        renderer.outline(rect, Theme.missingTileMark.withAlpha(0.5))
        let inset = max(2, min(rect.width, rect.height) / 8)
        let (x0, y0) = (rect.x + inset, rect.y + inset)
        let (x1, y1) = (rect.x + rect.width - 1 - inset, rect.y + rect.height - 1 - inset)
        for d in 0..<max(1, Int(pixelScale.rounded()) * 2) {
            renderer.line(from: (x0 + d, y0), to: (x1, y1 - d), Theme.missingTileMark)
            renderer.line(from: (x0, y0 + d), to: (x1 - d, y1), Theme.missingTileMark)
            renderer.line(from: (x1 - d, y0), to: (x0, y1 - d), Theme.missingTileMark)
            renderer.line(from: (x1, y0 + d), to: (x0 + d, y1), Theme.missingTileMark)
        }
    }

    private func drawWholeBackdrop(_ backdrop: Backdrop, camera: ZoomPanModel) {
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let image = PixelRegion(x: 0, y: 0, width: camera.imageSize.width, height: camera.imageSize.height)
        renderer.draw(backdrop.preparedTexture(), destination: mapping.rect(image))
    }

    /// Before the image's size is known: the preview fitted to the window, as the fitted image will be.
    private func drawFittedPreview(_ backdrop: Backdrop) {
        let limit = PixelSize(width: Int(Double(outputSize.width) * options.maxDeviceScale),
                              height: Int(Double(outputSize.height) * options.maxDeviceScale))
        let fitted = backdrop.size.aspectFit(in: PixelSize(width: min(limit.width, outputSize.width),
                                                           height: min(limit.height, outputSize.height)), allowUpscale: true)
        renderer.draw(backdrop.preparedTexture(), destination: PixelRect(x: (outputSize.width - fitted.width) / 2,
                                                               y: (outputSize.height - fitted.height) / 2,
                                                               width: fitted.width, height: fitted.height))
    }

    private func drawProgress(_ progress: TileProgress?) {
        let scale = pixelScale
        let barHeight = Int(36 * scale)
        let top = outputSize.height - barHeight
        renderer.fill(PixelRect(x: 0, y: top, width: outputSize.width, height: barHeight), Theme.overlayBar)
        let fraction = progress?.fraction ?? 0
        let track = PixelRect(x: Int(14 * scale), y: top + barHeight - Int(8 * scale), width: outputSize.width - Int(28 * scale),
                              height: max(2, Int(3 * scale)))
        renderer.fill(track, Theme.placeholderGlyph)
        renderer.fill(PixelRect(x: track.x, y: track.y, width: Int(Double(track.width) * fraction), height: track.height),
                      Theme.selection)
        var label = "\(name): making tiles for zooming"
        if let progress {
            label += "  \(Int((fraction * 100).rounded(.down)))%  (\(progress.tilesWritten) / \(progress.totalTiles) tiles)"
        }
        text.draw(label, x: Int(14 * scale), y: top + Int(5 * scale), size: Int(15 * scale), color: Theme.text,
                  maxWidth: outputSize.width - Int(28 * scale))
    }

    private func drawError(_ reason: String) {
        let scale = pixelScale
        let side = Int(128 * scale)
        if let icon = assets?.texture(named: "error", side: side) {
            icon.setAlpha(1)
            renderer.draw(icon, destination: PixelRect(x: (outputSize.width - side) / 2, y: outputSize.height / 2 - side,
                                                       width: side, height: side))
        }
        drawCentred(reason, color: Theme.errorText, y: outputSize.height / 2 + Int(16 * scale))
    }

    private func drawCentred(_ string: String, color: RGBA, y: Int? = nil) {
        let scale = pixelScale
        guard let label = text.texture(string, size: Int(18 * scale), color: color) else { return }
        let width = min(label.width, outputSize.width - Int(32 * scale))
        renderer.draw(label, source: PixelRect(x: 0, y: 0, width: width, height: label.height),
                      destination: PixelRect(x: (outputSize.width - width) / 2, y: y ?? (outputSize.height - label.height) / 2,
                                             width: width, height: label.height))
    }

    // MARK: - Helpers

    private func makeBackdrop(_ pixels: PixelBuffer) -> Backdrop? {
        let limit = renderer.maxTextureSize
        let fitted = limit.width > 0 ? PixelScaler.fit(pixels, in: limit) : pixels
        let opaque = fitted.isOpaque
        guard let texture = try? renderer.makeTexture(width: fitted.width, height: fitted.height, opaque: opaque) else {
            return nil
        }
        let picture = ImageTexture(texture: texture, isOpaque: opaque)
        guard (try? picture.upload(fitted)) != nil else { return nil }
        return Backdrop(picture: picture)
    }

    /// Whether a picture can stand for an image of `size` (same aspect within a pixel's rounding).
    private static func sameAspect(_ a: PixelSize, _ b: PixelSize) -> Bool {
        let expected = Double(a.width) * Double(b.height) / Double(b.width)
        return abs(expected - Double(a.height)) <= 1.5
    }
}

extension Duration {
    var milliseconds: Double { seconds * 1000 }
}

extension Theme {
    static let missingTile = RGBA(r: 30, g: 30, b: 34)
    static let missingTileMark = RGBA(r: 220, g: 50, b: 47)
}
