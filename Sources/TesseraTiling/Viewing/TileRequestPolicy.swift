import TesseraCore
import TesseraImaging
/// One tile load the tiled view asks for: lower priorities run sooner.
package struct TileRequest: Hashable, Sendable {
    package var tile: TileID
    package var priority: Int

    package init(tile: TileID, priority: Int) {
        self.tile = tile
        self.priority = priority
    }
}

/// Which tiles the tiled view asks for and keeps each frame, worked out without a renderer or a clock:
/// - the visible tiles it lacks, nearest the centre first (`TileDrawPlan.wanted`);
/// - the base level until it is held (asked for when the pyramid opens, never dropped);
/// - then tiles at the plan's level where a moving view is heading and in a margin around the viewport,
///   nearest first: Texture's preload ranges, smaller, so a drag or fling finds its first screens held
///   (none where the overview stands for the level).
/// Everything else still queued is dropped.
package struct TileRequestPolicy: Sendable, Equatable {
    /// While the view moves, tiles are also loaded where it will be this much later (at most 1.5 screens
    /// ahead), so they are held, and appear at once, by the time they come into view.
    package var lookahead: Duration
    /// Around the viewport, this fraction of a screen (at least one tile) is loaded after the visible tiles.
    package var marginScreens: Double

    /// Priorities from here on are the preloaded tiles', after every visible one.
    package static let preloadPriority = 10_000

    package init(lookahead: Duration = .milliseconds(500), marginScreens: Double = 0.5) {
        self.lookahead = lookahead
        self.marginScreens = marginScreens
    }

    /// What one frame asks for, in order, and every tile whose queued load it keeps.
    package struct Requests: Equatable, Sendable {
        package var requests: [TileRequest]
        package var keep: Set<TileID>
    }

    /// - Parameters:
    ///   - plan: this frame's drawing plan.
    ///   - visible: the visible part of the image, in full-resolution pixels.
    ///   - velocity: how fast the view moves over the image, full-resolution pixels per second.
    ///   - baseTiles: the base level's tiles (`TilePyramidPolicy.baseTiles`).
    ///   - isHeld: whether the tile cache holds a tile.
    ///   - hasFailed: whether a tile is known not to load.
    package func requests(for plan: TileDrawPlan, in geometry: DeepZoomGeometry, visible: PixelRegion, velocity: Point,
                         baseTiles: [TileID], isHeld: (TileID) -> Bool, hasFailed: (TileID) -> Bool) -> Requests {
        var requests = plan.wanted.enumerated().map { TileRequest(tile: $0.element, priority: 1 + $0.offset) }
        var keep = Set(plan.wanted)
        for tile in baseTiles where !isHeld(tile) { keep.insert(tile) }
        // Tiles of a level the overview stands for would show nothing it does not.
        if plan.overviewStandsIn { return Requests(requests: requests, keep: keep) }

        // Where the view will be: the visible region pushed along the velocity, at most 1.5 screens.
        let seconds = lookahead / .seconds(1)
        let dx = max(-1.5 * Double(visible.width), min(1.5 * Double(visible.width), velocity.x * seconds))
        let dy = max(-1.5 * Double(visible.height), min(1.5 * Double(visible.height), velocity.y * seconds))
        let x0 = min(visible.x, visible.x + Int(dx)), y0 = min(visible.y, visible.y + Int(dy))
        let x1 = max(visible.maxX, visible.maxX + Int(dx)), y1 = max(visible.maxY, visible.maxY + Int(dy))
        var ahead = geometry.levelRegion(covering: PixelRegion(x: x0, y: y0, width: x1 - x0, height: y1 - y0), in: plan.level)
        let levelVisible = geometry.levelRegion(covering: visible, in: plan.level)
        let mx = max(geometry.tileSize, Int(Double(levelVisible.width) * marginScreens))
        let my = max(geometry.tileSize, Int(Double(levelVisible.height) * marginScreens))
        ahead = PixelRegion(x: ahead.x - mx, y: ahead.y - my, width: ahead.width + 2 * mx, height: ahead.height + 2 * my)

        let onScreen = Set(plan.visibleTiles)
        let candidates = geometry.tiles(in: plan.level, intersecting: ahead).filter {
            !onScreen.contains($0) && !isHeld($0) && !hasFailed($0)
        }
        let centre = (x: Double(visible.x) + Double(visible.width) / 2, y: Double(visible.y) + Double(visible.height) / 2)
        func distance(_ tile: TileID) -> Double {
            let r = geometry.imageRegion(of: tile)
            let cx = Double(r.x) + Double(r.width) / 2 - centre.x, cy = Double(r.y) + Double(r.height) / 2 - centre.y
            return cx * cx + cy * cy
        }
        for (index, tile) in candidates.sorted(by: { distance($0) < distance($1) }).enumerated() {
            requests.append(TileRequest(tile: tile, priority: Self.preloadPriority + index))
            keep.insert(tile)
        }
        return Requests(requests: requests, keep: keep)
    }
}
