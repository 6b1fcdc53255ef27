import TesseraCore
import TesseraSDL

/// Draws the carousel model: one streaming texture per reusable cell (made once, refilled as the cell is
/// reused; remade only when an image needs a bigger one or the other kind, opaque or not), uploads within a
/// per-frame byte budget, cross-fades placeholder to image.
package final class CarouselView {
    package let model: CarouselModel
    private let renderer: Renderer
    private let assets: AssetCatalog
    private let text: TextCache
    private var cellTextures: [Int: ImageTexture] = [:]
    /// Cell-sized textures not held by a cell, taken by cells as they need one: opaque ones made ahead of
    /// need (`prepareCellTextures`), and those a cell gave up when its image needed the other kind.
    private var spareTextures: [ImageTexture] = []
    /// How much each frame uploads: the strategy's pacing over the view's byte budget (one upload always
    /// goes through, so progress is made).
    private var pacer: UploadPacer
    /// Hears what each frame drew and uploaded when the run is measured; nil otherwise.
    let observer: (any RunObserver)?
    /// Whether a fading opaque picture is mixed with its placeholder on the CPU and drawn as a copy
    /// (`FadeComposer`) instead of blended by the renderer: on for the software renderer, where that is
    /// cheaper; a GPU blends for nothing.
    package let composesFades: Bool
    private let composer = FadeComposer()
    /// The placeholder icon as the composer takes it, by side in pixels.
    private var composerIcons: [Int: FadeComposer.Icon] = [:]
    /// The cell whose animation plays (the selected one) and its frame, drawn in place of its image; the
    /// host sets it each frame.
    var animatedCell: (cellID: Int, picture: ImageTexture)?

    package init(model: CarouselModel, renderer: Renderer, assets: AssetCatalog, text: TextCache,
                uploadBudgetBytes: Int = 6 << 20, observer: (any RunObserver)? = nil) {
        self.model = model
        self.renderer = renderer
        self.assets = assets
        self.text = text
        pacer = UploadPacer(viewBudgetBytes: uploadBudgetBytes)
        composesFades = renderer.isSoftware
        self.observer = observer
    }

    /// Copies decoded pixels into cell textures, most urgent first, until this frame's budget (the
    /// strategy's pacing) is spent. One upload always goes through so a large image cannot stall forever.
    package func uploadPending(now: Duration, frameElapsedMs: Double = 0) {
        let budget = pacer.budget(for: model.strategy.uploadPacing, frameElapsedMs: frameElapsedMs)
        let clock = ContinuousClock()
        let started = clock.now
        var spent = 0
        for cell in model.cellsAwaitingUpload {
            guard case .image(let pixels) = cell.content else { continue }
            if spent > 0 && spent + pixels.cost > budget { break }
            guard let texture = texture(for: cell, holding: pixels) else { continue }
            // A texture SDL would not fill is let go (the renderer logs why); the next frame makes another.
            guard let uploaded = try? texture.upload(pixels) else {
                cellTextures[cell.id] = nil
                continue
            }
            spent += uploaded
            model.didUpload(cell, now: now)
        }
        observer?.uploaded(bytes: spent, in: .strip)
        pacer.record(bytes: spent, milliseconds: (clock.now - started).seconds * 1000)
    }

    /// The cell's streaming texture: cell-sized and reused as the cell is, or larger when a strategy
    /// hands over unscaled images (listing 14.2), capped at the renderer's limit; without an alpha channel
    /// for opaque images.
    private func texture(for cell: CarouselCell, holding pixels: PixelBuffer) -> ImageTexture? {
        let cellSize = model.cellPixelSize
        let size = pixels.size
        var needed = PixelSize(width: max(cellSize.width, size.width), height: max(cellSize.height, size.height))
        let limit = renderer.maxTextureSize
        if limit.width > 0 { needed.width = min(needed.width, limit.width) }
        if limit.height > 0 { needed.height = min(needed.height, limit.height) }
        guard size.width <= needed.width, size.height <= needed.height else { return nil }
        let opaque = pixels.isOpaque
        func fits(_ texture: ImageTexture) -> Bool {
            texture.canHold(pixels, isOpaque: opaque) && texture.texture.width * texture.texture.height <= needed.area
        }
        if let texture = cellTextures[cell.id], fits(texture) { return texture }
        // A cell-sized texture of the other kind is kept for the next cell that needs that kind: in a
        // folder of photos and transparent PNGs, cells switch kinds as they are reused.
        if let replaced = cellTextures[cell.id], isCellSized(replaced) { spareTextures.append(replaced) }
        if let spare = spareTextures.firstIndex(where: fits) {
            cellTextures[cell.id] = spareTextures.remove(at: spare)
            return cellTextures[cell.id]
        }
        let texture = (try? renderer.makeTexture(width: needed.width, height: needed.height, opaque: opaque))
            .map { ImageTexture(texture: $0, isOpaque: opaque) }
        // Made inside a frame rather than ahead of it (`prepareCellTextures`): a cost the report shows.
        if texture != nil { observer?.cellTextureMade() }
        cellTextures[cell.id] = texture
        return texture
    }

    /// Makes the cell textures the screen will need now, before the frames that fill them: SDL's software
    /// renderer clears a new texture's memory, first touching every page of it, which costs a frame many
    /// times an upload into a texture already made (tools/sdl-blit-costs.c measures both). Opaque ones, as
    /// photos are; the first cells to show transparent images make their own. Called again after a
    /// resize, it makes only the difference.
    package func prepareCellTextures() {
        let cell = model.cellPixelSize
        spareTextures.removeAll { !isCellSized($0) }
        let ready = (Array(cellTextures.values) + spareTextures).filter { isCellSized($0) && $0.isOpaque }.count
        for _ in ready..<max(ready, model.maximumVisibleCells) {
            guard let texture = try? renderer.makeOpaqueTexture(width: cell.width, height: cell.height) else { return }
            spareTextures.append(ImageTexture(texture: texture, isOpaque: true))
        }
    }

    /// Exactly a cell's size at the current pixel scale: what any cell can take.
    private func isCellSized(_ texture: ImageTexture) -> Bool {
        let cell = model.cellPixelSize
        return texture.texture.width == cell.width && texture.texture.height == cell.height
    }

    /// Paints every pixel of the window once where it can: the background only between the cells, a
    /// cell's own background only around an opaque picture. On the software renderer every pixel painted
    /// twice is memory traffic in the frame (docs/PERFORMANCE.md).
    package func render(now: Duration) {
        let scale = model.pixelScale
        let cells = model.visibleCells.compactMap { cell -> (cell: CarouselCell, index: Int, rect: PixelRect)? in
            guard let index = cell.index else { return nil }
            let frame = model.viewportFrame(of: cell)
            let rect = PixelRect(x: Int((frame.x * scale).rounded()), y: Int((frame.y * scale).rounded()),
                                 width: Int((frame.width * scale).rounded()), height: Int((frame.height * scale).rounded()))
            return (cell, index, rect)
        }
        let output = renderer.outputSize
        for gap in PixelRect(x: 0, y: 0, width: output.width, height: output.height).subtracting(cells.map(\.rect)) {
            renderer.fill(gap, Theme.background)
        }
        for (cell, index, rect) in cells {
            let alpha = cell.imageAlpha(now: now, fade: model.fade)
            let composed = composedFadeStep(of: cell, in: rect, alpha: alpha, scale: scale, output: output)
            let picture = composed?.destination ?? opaquePicture(of: cell, in: rect, alpha: alpha)
            for part in rect.subtracting(picture.map { [$0] } ?? []) { renderer.fill(part, Theme.cellBackground) }
            if let composed {
                renderer.draw(composed.texture.texture, source: composed.source, destination: composed.destination)
            } else {
                drawContent(of: cell, in: rect, alpha: alpha, scale: scale)
            }
            if model.isMarked(index) { drawMarkBadge(in: rect, scale: scale) }
            if let rating = model.rating(of: index), rating != 0 { drawRating(rating, in: rect, scale: scale) }
            if case .image(let pixels) = cell.content {
                if pixels.damage != nil { drawDamageBadge(in: rect, scale: scale) }
                if pixels.holdsSeveralImages || pixels.isSequence { drawPagesBadge(in: rect, scale: scale) }
            }
            if index == model.selectedIndex {
                renderer.outline(rect.insetBy(-Int(3 * scale)), Theme.selection, thickness: max(2, Int(3 * scale)))
            }
        }
        if let observer { tell(observer, aboutFrameOf: cells.map(\.cell), now: now) }
    }

    /// What a measured frame drew, worked out apart from the drawing so an unmeasured frame counts
    /// nothing: the cells with no picture shown yet (a placeholder, or an image whose fade has not
    /// begun), and whether some picture was part-way through its fade-in (those are the strip's dearest
    /// frames: the software renderer blends every pixel of a fading picture, where a shown one is a plain
    /// copy).
    private func tell(_ observer: any RunObserver, aboutFrameOf cells: [CarouselCell], now: Duration) {
        var placeholders = 0
        var fading = false
        for cell in cells {
            switch cell.content {
            case .placeholder:
                placeholders += 1
            case .image:
                let alpha = cell.imageAlpha(now: now, fade: model.fade)
                if alpha == 0 { placeholders += 1 }
                if alpha > 0 && alpha < 1 && cellTextures[cell.id] != nil { fading = true }
            case .failed:
                break
            }
        }
        observer.cellsDrawn(placeholders: placeholders, visible: cells.count, fading: fading)
    }

    /// Where the cell's picture goes: its display size, centred in the cell.
    private func pictureRect(of cell: CarouselCell, showing pixels: PixelBuffer, in rect: PixelRect) -> PixelRect {
        let shown = model.displaySize(of: cell) ?? pixels.size
        return PixelRect(x: rect.x + (rect.width - shown.width) / 2, y: rect.y + (rect.height - shown.height) / 2,
                         width: shown.width, height: shown.height)
    }

    /// The picture's rectangle when it will cover what is under it this frame: opaque, uploaded, faded in
    /// (`alpha`, the cell's image alpha this frame).
    private func opaquePicture(of cell: CarouselCell, in rect: PixelRect, alpha: Double) -> PixelRect? {
        guard case .image(let pixels) = cell.content, let texture = cellTextures[cell.id], texture.isOpaque,
              alpha >= 1, animatedCell?.cellID != cell.id else { return nil }
        return pictureRect(of: cell, showing: pixels, in: rect)
    }

    /// Mixes this frame's step of a fading opaque picture with the placeholder under it into the cell's
    /// texture (`FadeComposer`), when it can: the picture is drawn at its own size and covers the icon, as
    /// nearly every photo in a cell does. Only the part on screen is mixed. Returns the texture, the part
    /// (picture coordinates) and where it goes, as a plain copy that covers what is under it; nil when
    /// the renderer is to blend the picture over its placeholder instead (`drawContent`).
    private func composedFadeStep(of cell: CarouselCell, in rect: PixelRect, alpha: Double, scale: Double,
                                  output: PixelSize) -> (texture: ImageTexture, source: PixelRect, destination: PixelRect)? {
        // Once uploaded, the cell's texture was chosen for these pixels (`texture(for:holding:)`): the right
        // kind and room enough. A new image can replace a fading one before its upload.
        guard composesFades, alpha > 0, alpha < 1, !cell.needsUpload, case .image(let pixels) = cell.content,
              let texture = cellTextures[cell.id], texture.isOpaque else { return nil }
        let picture = pictureRect(of: cell, showing: pixels, in: rect)
        let icon = iconRect(in: rect, scale: scale)
        let shown = picture.intersection(PixelRect(x: 0, y: 0, width: output.width, height: output.height))
        guard picture.width == pixels.width, picture.height == pixels.height, picture.contains(icon), !shown.isEmpty,
              let iconPixels = composerIcon(side: icon.width) else { return nil }
        let source = PixelRect(x: shown.x - picture.x, y: shown.y - picture.y, width: shown.width, height: shown.height)
        guard texture.showFadeStep(of: pixels, area: source, alpha: alpha, over: Theme.cellBackground, icon: iconPixels,
                                   at: (icon.x - picture.x, icon.y - picture.y), composer: composer) else { return nil }
        return (texture, source, shown)
    }

    private func composerIcon(side: Int) -> FadeComposer.Icon? {
        if let icon = composerIcons[side] { return icon }
        guard let pixels = assets.pixels(named: "placeholder", side: side), let icon = FadeComposer.Icon(pixels) else {
            return nil
        }
        composerIcons[side] = icon
        return icon
    }

    private func drawContent(of cell: CarouselCell, in rect: PixelRect, alpha: Double, scale: Double) {
        switch cell.content {
        case .placeholder:
            drawIcon("placeholder", at: iconRect(in: rect, scale: scale), alpha: 1)
        case .image(let pixels):
            let texture = cellTextures[cell.id]
            let destination = pictureRect(of: cell, showing: pixels, in: rect)
            if alpha < 1 {
                // An opaque picture fading in over the whole icon hides it as it comes in, so the icon
                // stays at full alpha under it: SDL's software renderer draws an icon at part alpha through
                // its slower generic blitter (tools/sdl-blit-costs.c).
                let icon = iconRect(in: rect, scale: scale)
                let hidesIcon = alpha > 0 && texture?.isOpaque == true && destination.contains(icon)
                drawIcon("placeholder", at: icon, alpha: hidesIcon ? 1 : 1 - alpha)
            }
            if let animated = animatedCell, animated.cellID == cell.id {
                // A frame may be transparent where the first was not: always on the backdrop.
                renderer.fill(destination, Theme.imageBackdrop)
                animated.picture.prepare(alpha: 1)
                let content = animated.picture.contentSize
                renderer.draw(animated.picture.texture, source: PixelRect(x: 0, y: 0, width: content.width, height: content.height),
                              destination: destination)
                return
            }
            guard alpha > 0, let texture else { return }
            texture.restorePicture(pixels)
            // The backdrop shows through transparent images only.
            if !texture.isOpaque { renderer.fill(destination, Theme.imageBackdrop.withAlpha(alpha)) }
            texture.prepare(alpha: alpha)
            renderer.draw(texture.texture, source: PixelRect(x: 0, y: 0, width: pixels.width, height: pixels.height),
                          destination: destination)
        case .failed(let failure):
            // Raised a little, to leave room for the reason below it.
            let raised = PixelRect(x: rect.x, y: rect.y - Int(18 * scale), width: rect.width, height: rect.height)
            drawIcon("error", at: iconRect(in: raised, scale: scale), alpha: 1)
            let textSize = Int(15 * scale)
            var y = rect.y + rect.height / 2 + Int(34 * scale)
            for line in text.wrapped(failure.shortText, size: textSize, maxWidth: rect.width - Int(16 * scale)) {
                guard let label = text.texture(line, size: textSize, color: Theme.errorText) else { break }
                renderer.draw(label, destination: PixelRect(x: rect.x + (rect.width - label.width) / 2, y: y,
                                                            width: label.width, height: label.height))
                y += label.height
            }
        }
    }

    /// Where a cell's icon goes: centred, 96 points square, at most half the cell's width and height.
    private func iconRect(in rect: PixelRect, scale: Double) -> PixelRect {
        let side = min(Int(96 * scale), rect.width / 2, rect.height / 2)
        return PixelRect(x: rect.x + (rect.width - side) / 2, y: rect.y + (rect.height - side) / 2, width: side, height: side)
    }

    /// Scales the cells' icons now, so the first frames do not.
    package func prepareIcons() {
        let cell = model.cellPixelSize
        let side = iconRect(in: PixelRect(x: 0, y: 0, width: cell.width, height: cell.height), scale: model.pixelScale).width
        for name in ["placeholder", "error"] { _ = assets.texture(named: name, side: side) }
    }

    /// A named UI image at `destination` (a cell's `iconRect`), or a plain shape if the asset is missing.
    private func drawIcon(_ name: String, at destination: PixelRect, alpha: Double) {
        let scale = model.pixelScale
        if let icon = assets.texture(named: name, side: destination.width) {
            icon.setAlpha(alpha)
            renderer.draw(icon, destination: destination)
        } else {
            let colour = name == "error" ? Theme.errorText : Theme.placeholderGlyph
            renderer.outline(destination, colour.withAlpha(alpha), thickness: max(2, Int(3 * scale)))
        }
    }

    /// A marked cell's badge: a bright square in its top-right corner, ringed in the background colour so
    /// it shows on any picture.
    private func drawMarkBadge(in rect: PixelRect, scale: Double) {
        let side = Int(22 * scale), inset = Int(8 * scale), ring = max(1, Int(2 * scale))
        let badge = PixelRect(x: rect.x + rect.width - side - inset, y: rect.y + inset, width: side, height: side)
        renderer.fill(badge.insetBy(-ring), Theme.background)
        renderer.fill(badge, Theme.mark)
    }
}

extension CarouselView {
    /// A rated cell's stars (or a rejected one's cross) in its bottom-left corner, on a dark backing.
    private func drawRating(_ rating: Int, in rect: PixelRect, scale: Double) {
        guard let (label, colour) = RatingMark.of(rating) else { return }
        let size = max(8, Int(14 * scale)), padding = Int(4 * scale), inset = Int(6 * scale)
        guard let texture = text.texture(label, size: size, color: colour) else { return }
        let backing = PixelRect(x: rect.x + inset, y: rect.maxY - inset - texture.height - 2 * padding,
                                width: texture.width + 2 * padding, height: texture.height + 2 * padding)
        guard backing.width < rect.width, backing.height < rect.height else { return }
        renderer.fill(backing, Theme.overlayBar)
        text.draw(label, x: backing.x + padding, y: backing.y + padding, size: size, color: colour)
    }

    /// A damaged picture's badge: a red square with an exclamation mark in its top-left corner, ringed in
    /// the background colour; the overlay says what is wrong.
    fileprivate func drawDamageBadge(in rect: PixelRect, scale: Double) {
        let side = Int(22 * scale), inset = Int(8 * scale), ring = max(1, Int(2 * scale))
        let badge = PixelRect(x: rect.x + inset, y: rect.y + inset, width: side, height: side)
        renderer.fill(badge.insetBy(-ring), Theme.background)
        renderer.fill(badge, Theme.damage)
        let stroke = max(2, side / 7), middle = badge.x + (side - stroke) / 2
        renderer.fill(PixelRect(x: middle, y: badge.y + side / 5, width: stroke, height: side * 2 / 5), Theme.background)
        renderer.fill(PixelRect(x: middle, y: badge.y + side * 7 / 10, width: stroke, height: stroke), Theme.background)
    }
}

extension CarouselView {
    /// A file of several images (a multi-page TIFF, a HEIF collection or sequence): two sheets, one behind
    /// the other, in the cell's bottom-right corner, ringed in the background colour; `i` says how many.
    fileprivate func drawPagesBadge(in rect: PixelRect, scale: Double) {
        let side = Int(16 * scale), inset = Int(8 * scale), offset = max(2, Int(4 * scale)), ring = max(1, Int(2 * scale))
        let front = PixelRect(x: rect.x + rect.width - side - inset, y: rect.y + rect.height - side - inset, width: side, height: side)
        let back = PixelRect(x: front.x - offset, y: front.y - offset, width: side, height: side)
        renderer.fill(back.insetBy(-ring), Theme.background)
        renderer.fill(back, Theme.pages)
        renderer.fill(front.insetBy(-ring), Theme.background)
        renderer.fill(front, Theme.pages)
    }
}

extension PixelRect {
    func insetBy(_ d: Int) -> PixelRect { PixelRect(x: x + d, y: y + d, width: width - 2 * d, height: height - 2 * d) }
}

extension RGBA {
    func withAlpha(_ alpha: Double) -> RGBA {
        RGBA(r: r, g: g, b: b, a: UInt8((Double(a) * max(0, min(1, alpha))).rounded()))
    }
}
