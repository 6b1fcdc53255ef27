import TesseraCore

/// A tile's pixels on the GPU. Textures are pooled at the pyramid's full tile size, so an edge tile uses
/// the top-left part of its texture: `contentSize`.
final class TileTexture {
    let texture: Texture
    let contentSize: PixelSize
    /// Every pixel is opaque (JPEG tiles): drawn without blending when not fading, a plain copy.
    let isOpaque: Bool
    private var blending: Bool?
    private var nearest: Bool?

    init(texture: Texture, contentSize: PixelSize, isOpaque: Bool) {
        self.texture = texture
        self.contentSize = contentSize
        self.isOpaque = isOpaque
    }

    var cost: Int { texture.width * texture.height * 4 }

    /// Sets alpha, blending and filtering for the next draw, touching SDL only for what changed.
    func prepare(alpha: Double, nearestFilter: Bool) {
        let blend = alpha < 1 || !isOpaque
        if blend != blending {
            texture.setBlending(blend)
            blending = blend
        }
        if blend { texture.setAlpha(alpha) }
        if nearestFilter != nearest {
            texture.setScaleFilter(nearest: nearestFilter)
            nearest = nearestFilter
        }
    }
}

/// Makes tile textures and keeps a few spare ones of the common size, so panning across a large image
/// reuses the textures of tiles just evicted instead of creating and destroying one per tile.
///
/// Opaque tiles (every JPEG) go into textures without an alpha channel (XRGB8888, same bytes as ARGB8888):
/// a fade then blends with one constant alpha, which SDL's software blitter does several times faster
/// than per-pixel alpha times a modulation, and a finished tile is a plain copy.
final class TileTexturePool {
    private let renderer: Renderer
    /// The pooled size: the pyramid's largest tile (tile size plus both overlaps), within the renderer's limit.
    let pooledSize: PixelSize
    private var spare: [Bool: [Texture]] = [:]
    private let capacity: Int

    init(renderer: Renderer, geometry: DeepZoomGeometry, capacity: Int = 64) {
        self.renderer = renderer
        let side = geometry.tileSize + 2 * geometry.overlap
        let limit = renderer.maxTextureSize
        pooledSize = PixelSize(width: limit.width > 0 ? min(side, limit.width) : side,
                               height: limit.height > 0 ? min(side, limit.height) : side)
        self.capacity = capacity
    }

    /// A texture holding `pixels` (which the loader has already kept within the renderer's limit).
    func make(from pixels: PixelBuffer) throws -> TileTexture {
        let opaque = Self.isOpaque(pixels)
        let texture: Texture
        if pixels.width <= pooledSize.width && pixels.height <= pooledSize.height {
            texture = try spare[opaque]?.popLast() ?? create(pooledSize, opaque: opaque)
        } else {
            texture = try create(pixels.size, opaque: opaque)
        }
        texture.upload(pixels)
        return TileTexture(texture: texture, contentSize: pixels.size, isOpaque: opaque)
    }

    func recycle(_ tiles: [TileTexture]) {
        for tile in tiles where tile.texture.width == pooledSize.width && tile.texture.height == pooledSize.height
            && spare[tile.isOpaque, default: []].count < capacity {
            spare[tile.isOpaque, default: []].append(tile.texture)
        }
    }

    private func create(_ size: PixelSize, opaque: Bool) throws -> Texture {
        guard opaque else { return try renderer.makeTexture(width: size.width, height: size.height) }
        return try renderer.makeOpaqueTexture(width: size.width, height: size.height)
    }

    /// Whether every alpha byte is 255 (a quick scan; tiles are small).
    static func isOpaque(_ pixels: PixelBuffer) -> Bool {
        pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 3
            while i < bytes.count {
                if bytes[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }
}
