import TesseraCore
import TesseraImaging
/// Mapping between a pyramid level and the full-resolution image, the one conversion the tiled view and
/// its tests both need: a level pixel stands for 2^reduction full-resolution pixels, and the last row and
/// column of a level stick out past the image (levels are rounded up), so results are clipped to it.
extension DeepZoomGeometry {
    /// The full-resolution pixels a region of `level` stands for, clipped to the image.
    package func imageRegion(of region: PixelRegion, in level: Int) -> PixelRegion {
        let factor = 1 << reduction(of: level)
        let image = PixelRegion(x: 0, y: 0, width: width, height: height)
        return PixelRegion(x: region.x * factor, y: region.y * factor,
                           width: region.width * factor, height: region.height * factor).intersection(image)
    }

    /// The full-resolution pixels a tile stands for (its content, overlap excluded), clipped to the image.
    package func imageRegion(of tile: TileID) -> PixelRegion {
        imageRegion(of: contentRegion(of: tile), in: tile.level)
    }

    /// The region of `level` that covers a full-resolution region (rounded outwards).
    package func levelRegion(covering imageRegion: PixelRegion, in level: Int) -> PixelRegion {
        let factor = 1 << reduction(of: level)
        let x0 = imageRegion.x / factor, y0 = imageRegion.y / factor
        let x1 = (imageRegion.maxX + factor - 1) / factor, y1 = (imageRegion.maxY + factor - 1) / factor
        return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The tiles one level finer that together stand for `tile` (two by two, fewer at the edges).
    package func children(of tile: TileID) -> [TileID] {
        guard tile.level < maxLevel else { return [] }
        let level = tile.level + 1
        var result: [TileID] = []
        for row in (2 * tile.row)...(2 * tile.row + 1) where row < rows(level) {
            for column in (2 * tile.column)...(2 * tile.column + 1) where column < columns(level) {
                result.append(TileID(level: level, column: column, row: row))
            }
        }
        return result
    }

    /// Whether `tile` names a tile that exists in this pyramid.
    package func contains(_ tile: TileID) -> Bool {
        tile.level >= 0 && tile.level <= maxLevel && tile.column >= 0 && tile.row >= 0
            && tile.column < columns(tile.level) && tile.row < rows(tile.level)
    }
}
