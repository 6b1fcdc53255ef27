import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraTiling

/// Draws the tiled view: the plan's layers coarse under fine, the backdrop where no tile can be, marks for
/// missing tiles, and the opening, cutting and failure screens. Main thread only.
final class TiledViewPainter {
    private let renderer: Renderer
    private let text: TextCache
    private let assets: AssetCatalog?
    /// The window in output pixels and the device pixels per point, this frame.
    var outputSize: PixelSize
    /// Drawing into a pane of the window (the renderer's viewport), not the whole of it.
    var isPane = false
    var pixelScale: Double

    init(renderer: Renderer, text: TextCache, assets: AssetCatalog?, pixelScale: Double) {
        self.renderer = renderer
        self.text = text
        self.assets = assets
        outputSize = renderer.outputSize
        self.pixelScale = pixelScale
    }

    /// Output pixels of an image x or y coordinate (full-resolution pixels) on the screen.
    struct Mapping {
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

    /// The window background; only around `image` (its place on screen) when given, because a
    /// whole-window clear under opaque tiles is a frame's worth of memory traffic for nothing on the
    /// software renderer.
    func paintBackground(around image: PixelRect?) {
        let window = PixelRect(x: 0, y: 0, width: outputSize.width, height: outputSize.height)
        guard let image else {
            // A clear ignores the viewport: a pane fills only its own rectangle.
            if isPane { renderer.fill(window, Theme.background) } else { renderer.clear(Theme.background) }
            return
        }
        for gap in window.subtracting([image]) { renderer.fill(gap, Theme.background) }
    }

    // MARK: Tiles

    /// Draws `plan`'s layers from `cache`, telling `observer` of each tile drawn at full opacity (where a
    /// fade was seen to its end).
    func draw(_ plan: TileDrawPlan, from cache: PyramidTileCache, camera: ZoomPanModel, backdrop: TiledBackdrop?,
              fade: TileFade, now: Duration, observer: (any RunObserver)?) {
        let geometry = cache.geometry
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let magnified = camera.deviceScale > 1.0001
        // The book's resolution swap: while the view moves, tiles are scaled with the cheap nearest filter
        // (nobody sees the difference at speed); at rest they are redrawn smooth. Past 100 %, nearest always
        // (vipsdisp): magnified pixels stay crisp squares.
        let moving = camera.isMoving
        if cache.hasTransparency {
            let image = PixelRegion(x: 0, y: 0, width: geometry.width, height: geometry.height)
            renderer.fill(mapping.rect(image), Theme.imageBackdrop)
        }
        for layer in plan.layers {
            let target = geometry.imageRegion(of: layer.target)
            switch layer.content {
            case .tile(let tile):
                guard let entry = cache.store.entry(for: tile) else { continue }
                cache.store.touch(tile)
                let area = geometry.imageRegion(of: tile).intersection(target)
                guard !area.isEmpty else { continue }
                let alpha = fade.alpha(fadeStart: entry.fadeStart, now: now)
                if alpha >= 1 { observer?.tileShownOpaque(tile, at: now) }
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

    /// A tile that failed with nothing to show in its place: a muted square with the error icon in its
    /// middle (a red X where the icon cannot be drawn, or the square is too small for it to read).
    private func drawMissingMark(_ rect: PixelRect) {
        guard rect.width > 0, rect.height > 0 else { return }
        renderer.fill(rect, Theme.missingTile)
        renderer.outline(rect, Theme.missingTileMark.withAlpha(0.5))
        let side = min(Int(48 * pixelScale), min(rect.width, rect.height) / 2)
        if side >= Int(12 * pixelScale), let icon = assets?.texture(named: "error", side: side) {
            icon.setAlpha(1)
            renderer.draw(icon, destination: PixelRect(x: rect.x + (rect.width - side) / 2, y: rect.y + (rect.height - side) / 2,
                                                       width: side, height: side))
            return
        }
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

    // MARK: Animations

    /// The animation's frame over the whole image, where the camera puts it, on the backdrop transparent
    /// images get; nearest filter past 100 %, as tiles are.
    func drawAnimationFrame(_ picture: ImageTexture, camera: ZoomPanModel) {
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let rect = mapping.rect(PixelRegion(x: 0, y: 0, width: camera.imageSize.width, height: camera.imageSize.height))
        renderer.fill(rect, Theme.imageBackdrop)
        picture.prepare(alpha: 1, nearestFilter: camera.isMoving || camera.deviceScale > 1.0001)
        let content = picture.contentSize
        renderer.draw(picture.texture, source: PixelRect(x: 0, y: 0, width: content.width, height: content.height),
                      destination: rect)
    }

    // MARK: Backdrops

    /// The backdrop over the whole image, where the camera puts it.
    /// `texture` stretched over the whole image where it lies on screen (the clipping marks).
    func drawWholeImage(_ texture: Texture, camera: ZoomPanModel) {
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let image = PixelRegion(x: 0, y: 0, width: camera.imageSize.width, height: camera.imageSize.height)
        renderer.draw(texture, destination: mapping.rect(image))
    }

    func drawWholeBackdrop(_ backdrop: TiledBackdrop, camera: ZoomPanModel) {
        let mapping = Mapping(camera: camera, pixelScale: pixelScale)
        let image = PixelRegion(x: 0, y: 0, width: camera.imageSize.width, height: camera.imageSize.height)
        renderer.draw(backdrop.preparedTexture(), destination: mapping.rect(image))
    }

    /// Before the image's size is known: the preview fitted to the window, as the fitted image will be.
    func drawFittedPreview(_ backdrop: TiledBackdrop, maxDeviceScale: Double) {
        let limit = PixelSize(width: Int(Double(outputSize.width) * maxDeviceScale),
                              height: Int(Double(outputSize.height) * maxDeviceScale))
        let fitted = backdrop.size.aspectFit(in: PixelSize(width: min(limit.width, outputSize.width),
                                                           height: min(limit.height, outputSize.height)), allowUpscale: true)
        renderer.draw(backdrop.preparedTexture(), destination: PixelRect(x: (outputSize.width - fitted.width) / 2,
                                                               y: (outputSize.height - fitted.height) / 2,
                                                               width: fitted.width, height: fitted.height))
    }

    // MARK: Messages

    /// The bar at the bottom while a large image is cut into a pyramid.
    func drawProgress(_ progress: TileProgress?, name: String) {
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

    func drawError(_ reason: String) {
        let scale = pixelScale
        let side = Int(128 * scale)
        if let icon = assets?.texture(named: "error", side: side) {
            icon.setAlpha(1)
            renderer.draw(icon, destination: PixelRect(x: (outputSize.width - side) / 2, y: outputSize.height / 2 - side,
                                                       width: side, height: side))
        }
        drawCentred(reason, color: Theme.errorText, y: outputSize.height / 2 + Int(16 * scale))
    }

    func drawCentred(_ string: String, color: RGBA, y: Int? = nil) {
        let scale = pixelScale
        guard let label = text.texture(string, size: Int(18 * scale), color: color) else { return }
        let width = min(label.width, outputSize.width - Int(32 * scale))
        renderer.draw(label, source: PixelRect(x: 0, y: 0, width: width, height: label.height),
                      destination: PixelRect(x: (outputSize.width - width) / 2, y: y ?? (outputSize.height - label.height) / 2,
                                             width: width, height: label.height))
    }
}

extension Theme {
    static let missingTile = RGBA(r: 30, g: 30, b: 34)
    static let missingTileMark = RGBA(r: 220, g: 50, b: 47)
}
