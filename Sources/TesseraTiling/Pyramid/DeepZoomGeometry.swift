import TesseraCore

/// The Deep Zoom pyramid's arithmetic, the single place that knows it; the tile cutter and the tiled view
/// both ask it. Levels run 0...maxLevel with maxLevel = ceil(log2(max(w, h))); each level is the one
/// above halved and rounded up, so level 0 is 1x1; edge tiles are cropped, not padded; with overlap o a
/// tile at column x > 0 starts at x*T - o and is T + 2o wide (T + o at column 0), clipped to the level.
/// These are the files `vips dzsave` writes.
package struct DeepZoomGeometry: Hashable, Sendable {
    package let width: Int
    package let height: Int
    package let tileSize: Int
    package let overlap: Int

    package init(width: Int, height: Int, tileSize: Int = 256, overlap: Int = 0) {
        precondition(width > 0 && height > 0 && tileSize > 0 && overlap >= 0, "invalid Deep Zoom geometry")
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
    }

    /// ceil(log2(max(w, h))), computed on integers so 2^k sizes are exact.
    package var maxLevel: Int {
        var level = 0
        var side = 1
        let longest = max(width, height)
        while side < longest {
            side <<= 1
            level += 1
        }
        return level
    }

    package var levelCount: Int { maxLevel + 1 }

    /// How many times the full image is halved to reach `level`.
    package func reduction(of level: Int) -> Int { maxLevel - level }

    package func levelSize(_ level: Int) -> PixelSize {
        let shift = reduction(of: level)
        let divisor = 1 << shift
        return PixelSize(width: max(1, (width + divisor - 1) / divisor), height: max(1, (height + divisor - 1) / divisor))
    }

    package func columns(_ level: Int) -> Int { (levelSize(level).width + tileSize - 1) / tileSize }
    package func rows(_ level: Int) -> Int { (levelSize(level).height + tileSize - 1) / tileSize }
    package func tileCount(_ level: Int) -> Int { columns(level) * rows(level) }
    package var totalTileCount: Int { (0...maxLevel).reduce(0) { $0 + tileCount($1) } }

    /// The pixels a tile file holds, overlap included, in its level's coordinates.
    package func region(of tile: TileID) -> PixelRegion {
        let size = levelSize(tile.level)
        let x0 = tile.column * tileSize - (tile.column > 0 ? overlap : 0)
        let y0 = tile.row * tileSize - (tile.row > 0 ? overlap : 0)
        let x1 = min(size.width, (tile.column + 1) * tileSize + overlap)
        let y1 = min(size.height, (tile.row + 1) * tileSize + overlap)
        return PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The part of the level a tile stands for, overlap excluded: tiles' content regions cover the
    /// level exactly once.
    package func contentRegion(of tile: TileID) -> PixelRegion {
        let size = levelSize(tile.level)
        let x0 = tile.column * tileSize, y0 = tile.row * tileSize
        return PixelRegion(x: x0, y: y0, width: min(tileSize, size.width - x0), height: min(tileSize, size.height - y0))
    }

    /// Tiles of `level` whose content meets `region` (level coordinates), row by row.
    package func tiles(in level: Int, intersecting region: PixelRegion) -> [TileID] {
        let size = levelSize(level)
        let clipped = region.intersection(PixelRegion(x: 0, y: 0, width: size.width, height: size.height))
        guard !clipped.isEmpty else { return [] }
        let c0 = clipped.x / tileSize, c1 = (clipped.maxX - 1) / tileSize
        let r0 = clipped.y / tileSize, r1 = (clipped.maxY - 1) / tileSize
        var result: [TileID] = []
        result.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for row in r0...r1 {
            for column in c0...c1 { result.append(TileID(level: level, column: column, row: row)) }
        }
        return result
    }

    /// The level to draw at `scale` device pixels per full-resolution image pixel: the coarsest level that
    /// still has at least one pixel per device pixel (vipsdisp's clip(log2(1/scale))), never beyond maxLevel.
    package func level(forScale scale: Double) -> Int {
        guard scale > 0 else { return 0 }
        if scale >= 1 { return maxLevel }
        let halvings = Int((-Foundation.log2(scale)).rounded(.down) + 1e-9)
        return max(0, min(maxLevel, maxLevel - halvings))
    }

    /// How many level pixels make one full-resolution pixel (1 at maxLevel, 1/2 one level down, ...).
    package func scale(of level: Int) -> Double { 1 / Double(1 << reduction(of: level)) }

    /// The coordinates of a tile's parent one level down (what a coarser fallback draws from).
    package func parent(of tile: TileID) -> TileID? {
        guard tile.level > 0 else { return nil }
        return TileID(level: tile.level - 1, column: tile.column / 2, row: tile.row / 2)
    }
}

import Foundation
