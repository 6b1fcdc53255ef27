import TesseraCore
import TesseraSDL
import TesseraTiling

/// Makes tile textures and keeps a few spare ones of the common size, so panning across a large image
/// reuses the textures of tiles just evicted instead of creating and destroying one per tile.
///
/// Opaque tiles (every JPEG) go into textures without an alpha channel and are kept apart from the others
/// (see `ImageTexture` for why).
final class TileTexturePool {
    private let renderer: Renderer
    /// The pooled size: the pyramid's largest tile (tile size plus both overlaps, within the image: a
    /// pyramid of one tile a level has no tile larger than the image), within the renderer's limit.
    let pooledSize: PixelSize
    private var spare: [Bool: [Texture]] = [:]
    private let capacity: Int

    init(renderer: Renderer, geometry: DeepZoomGeometry, capacity: Int = 64) {
        self.renderer = renderer
        let side = geometry.tileSize + 2 * geometry.overlap
        let width = min(side, geometry.width), height = min(side, geometry.height)
        let limit = renderer.maxTextureSize
        pooledSize = PixelSize(width: limit.width > 0 ? min(width, limit.width) : width,
                               height: limit.height > 0 ? min(height, limit.height) : height)
        self.capacity = capacity
    }

    /// A texture holding `pixels` (which the loader has already kept within the renderer's limit).
    func make(from pixels: PixelBuffer) throws -> ImageTexture {
        let opaque = pixels.isOpaque
        let texture: Texture
        // A tile much smaller than the pooled size (a coarse level of a one-tile pyramid) gets a texture of
        // its own size: no texture is larger than what it holds by more than a tile's edge.
        let fillsPooledSize = pixels.width * 2 > pooledSize.width && pixels.height * 2 > pooledSize.height
        if fillsPooledSize, pixels.width <= pooledSize.width && pixels.height <= pooledSize.height {
            texture = try spare[opaque]?.popLast() ?? create(pooledSize, opaque: opaque)
        } else {
            texture = try create(pixels.size, opaque: opaque)
        }
        let tile = ImageTexture(texture: texture, isOpaque: opaque)
        try tile.upload(pixels)
        return tile
    }

    func recycle(_ tiles: [ImageTexture]) {
        for tile in tiles where tile.texture.width == pooledSize.width && tile.texture.height == pooledSize.height
            && spare[tile.isOpaque, default: []].count < capacity {
            spare[tile.isOpaque, default: []].append(tile.texture)
        }
    }

    private func create(_ size: PixelSize, opaque: Bool) throws -> Texture {
        try renderer.makeTexture(width: size.width, height: size.height, opaque: opaque)
    }
}
