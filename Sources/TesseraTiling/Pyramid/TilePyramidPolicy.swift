import TesseraCore
import TesseraImaging
/// Which pyramid levels the tiled view treats specially.
///
/// - The **base level** is requested first, the moment a pyramid opens: small enough to decode in a
///   millisecond or two, so the whole image is on screen (blurred) almost at once and every later frame has
///   something coarse to draw under tiles still loading.
/// - **Pinned levels** are never evicted from the tile cache (vipsdisp keeps its coarsest three levels):
///   they are cheap, and they are the fallback everything else is drawn over.
///
/// Both are by pixel count rather than level number, so a pyramid of one huge tile per level (a plain
/// image shown through the same view) pins only its small levels.
package struct TilePyramidPolicy: Sendable, Equatable {
    /// Levels whose whole area is at most this many pixels are pinned (1 MP: 16 tiles of 256 px, 4 MB).
    package var pinnedLevelPixels: Int
    /// The base level is the finest with at most this many pixels...
    package var baseLevelPixels: Int
    /// ...and at most this many tiles.
    package var baseLevelTiles: Int

    package init(pinnedLevelPixels: Int = 1 << 20, baseLevelPixels: Int = 512 * 512, baseLevelTiles: Int = 4) {
        self.pinnedLevelPixels = pinnedLevelPixels
        self.baseLevelPixels = baseLevelPixels
        self.baseLevelTiles = baseLevelTiles
    }

    package func isPinned(_ level: Int, in geometry: DeepZoomGeometry) -> Bool {
        level == 0 || geometry.levelSize(level).area <= pinnedLevelPixels
    }

    /// The finest level that is small in pixels and in tiles and pinned; level 0 at worst.
    package func baseLevel(in geometry: DeepZoomGeometry) -> Int {
        var best = 0
        for level in 0...geometry.maxLevel {
            guard geometry.levelSize(level).area <= baseLevelPixels, geometry.tileCount(level) <= baseLevelTiles,
                  isPinned(level, in: geometry) else { break }
            best = level
        }
        return best
    }

    /// Every tile of the base level, row by row.
    package func baseTiles(in geometry: DeepZoomGeometry) -> [TileID] {
        let level = baseLevel(in: geometry)
        let size = geometry.levelSize(level)
        return geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height))
    }
}
