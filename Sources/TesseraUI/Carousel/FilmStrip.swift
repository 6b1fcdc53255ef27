import TesseraCore
import TesseraSDL

/// The single view's film strip: a row of the neighbouring images' thumbnails along the bottom of the
/// window, the shown one framed, so that the next images are in sight while one is large (`t` shows and
/// hides it). The thumbnails are the strip's cell pictures, loaded as the strip loads them around the
/// selection; a click on one shows it. Main thread only.
final class FilmStrip {
    /// The row's height in points, its thumbnails' height and the gaps between them.
    static let height = 84.0
    private static let thumbnailHeight = 64.0
    private static let gap = 6.0

    private let renderer: Renderer
    /// The thumbnails on the GPU, by the cell picture they were made from: remade only when it changes.
    private var textures: [Int: (picture: PixelBuffer, texture: Texture)] = [:]
    /// Where each thumbnail was last drawn, by item index, in device pixels (for clicks).
    private var placed: [(index: Int, rect: PixelRect)] = []

    init(renderer: Renderer) { self.renderer = renderer }

    /// The row's height in device pixels.
    static func pixelHeight(scale: Double) -> Int { Int((height * scale).rounded()) }

    /// The height the row and the overlay's name bar under it take together, in device pixels: what the
    /// image above them keeps clear of.
    static func reservedHeight(scale: Double) -> Int {
        pixelHeight(scale: scale) + Int(CarouselConfiguration.nameBarHeight * scale)
    }

    /// Draws the row above the name bar at the bottom of an output of `size`: item `selected` in the
    /// middle, as many neighbours on each side as fit, each at its picture's proportions.
    func draw(model: CarouselModel, selected: Int, in size: PixelSize, scale: Double) {
        let rowHeight = Self.pixelHeight(scale: scale)
        let row = PixelRect(x: 0, y: size.height - Self.reservedHeight(scale: scale), width: size.width, height: rowHeight)
        renderer.fill(row, Theme.overlayBar)
        let thumbHeight = Int(Self.thumbnailHeight * scale), gap = Int(Self.gap * scale)
        let top = row.y + (rowHeight - thumbHeight) / 2
        func width(_ index: Int) -> Int {
            guard let picture = model.cachedImage(for: index), picture.height > 0 else { return thumbHeight * 4 / 3 }
            return max(1, min(thumbHeight * 3, picture.width * thumbHeight / picture.height))
        }
        // The shown image centred; neighbours outwards while they fit.
        var placed: [(index: Int, rect: PixelRect)] = []
        let middle = width(selected)
        placed.append((selected, PixelRect(x: (size.width - middle) / 2, y: top, width: middle, height: thumbHeight)))
        var left = placed[0].rect.x - gap, right = placed[0].rect.maxX + gap
        var before = selected - 1, after = selected + 1
        while true {
            var grew = false
            if before >= 0 {
                let w = width(before)
                if left - w >= 0 {
                    placed.append((before, PixelRect(x: left - w, y: top, width: w, height: thumbHeight)))
                    left -= w + gap
                    before -= 1
                    grew = true
                }
            }
            if after < model.items.count {
                let w = width(after)
                if right + w <= size.width {
                    placed.append((after, PixelRect(x: right, y: top, width: w, height: thumbHeight)))
                    right += w + gap
                    after += 1
                    grew = true
                }
            }
            if !grew { break }
        }
        var kept: [Int: (picture: PixelBuffer, texture: Texture)] = [:]
        for (index, rect) in placed {
            if let texture = thumbnail(model.cachedImage(for: index), index: index) {
                kept[index] = texture
                renderer.draw(texture.texture, destination: rect)
            } else {
                renderer.fill(rect, Theme.cellBackground)
            }
        }
        textures = kept
        renderer.outline(placed[0].rect.insetBy(-Int(2 * scale)), Theme.selection, thickness: max(1, Int(2 * scale)))
        self.placed = placed
    }

    /// The item whose thumbnail is at `x`, `y` (points), when the row was drawn there.
    func index(atX x: Double, y: Double, scale: Double) -> Int? {
        let px = Int(x * scale), py = Int(y * scale)
        return placed.first { px >= $0.rect.x && px < $0.rect.maxX && py >= $0.rect.y && py < $0.rect.maxY }?.index
    }

    private func thumbnail(_ picture: PixelBuffer?, index: Int) -> (picture: PixelBuffer, texture: Texture)? {
        guard let picture else { return nil }
        if let held = textures[index], held.picture.width == picture.width, held.picture.height == picture.height,
           held.picture.bytes == picture.bytes {
            return held
        }
        guard let texture = try? renderer.makeTexture(width: picture.width, height: picture.height),
              (try? texture.upload(picture)) != nil else { return nil }
        texture.setBlending(!picture.isOpaque)
        return (picture, texture)
    }
}
