import TesseraCore
import TesseraImaging
/// What the tile cache holds for one tile, as far as drawing is concerned.
package enum TileAvailability: Sendable, Equatable {
    /// Not held (maybe loading).
    case absent
    /// Held and fading in: drawn, but whatever is under it shows through.
    case fading
    /// Held and fully opaque: nothing under it needs drawing.
    case opaque
    /// Its file is missing or broken: drawn as a marked square (or, where failures may pass, see
    /// `TileDrawPlanner.showsCoarserUnderFailures`, as a tile still coming where a coarser picture is held).
    case failed
}

/// One frame's drawing, worked out without any renderer: which tiles to draw where, coarse under fine,
/// and which tiles to ask for.
package struct TileDrawPlan: Sendable, Equatable {
    package struct Layer: Sendable, Equatable {
        package enum Content: Sendable, Equatable {
            /// A held tile (of any level), drawn clipped to the target tile's area.
            case tile(TileID)
            /// The whole-image overview (a preview or shrink-on-load decode), drawn clipped the same way.
            case backdrop
            /// The target tile failed and nothing shows in its place: a marked square.
            case missing
        }

        package var content: Content
        /// The target-level tile whose area this layer fills; layers never draw outside it.
        package var target: TileID

        package init(_ content: Content, target: TileID) {
            self.content = content
            self.target = target
        }
    }

    /// The level that matches the zoom.
    package var level: Int
    /// Target-level tiles meeting the viewport, row by row.
    package var visibleTiles: [TileID]
    /// In drawing order: for each target tile, its fallbacks coarsest first, then the tile itself.
    package var layers: [Layer]
    /// Visible target tiles not held and not failed, nearest the viewport's centre first.
    package var wanted: [TileID]
    /// Every visible point is covered by something opaque (a tile of some level, the backdrop or a mark).
    package var isComplete: Bool
    /// Every visible target tile is held (opaque or fading in), failed, or stood for by an overview with as
    /// many pixels: nothing better is coming.
    package var isSharp: Bool
    /// The overview has at least the level's pixels and stands for its tiles: none of them is worth
    /// loading, on screen or ahead.
    package var overviewStandsIn = false
}

/// Works out coarse-to-fine drawing, vipsdisp style: where a target tile is not held yet (or is still
/// fading in), the nearest coarser tile that is held is drawn under it, or the four finer tiles if all of
/// them are held (zooming out), so the view never shows a hole a held tile could fill.
package struct TileDrawPlanner: Sendable {
    package let geometry: DeepZoomGeometry
    /// A failed tile is drawn as a tile still coming: the held coarser picture where there is one, the
    /// marked square only where there is none. For sources whose failures may pass (a server's), whose
    /// failed tiles are tried again; a broken file stays marked, as it stays broken.
    package let showsCoarserUnderFailures: Bool

    package init(geometry: DeepZoomGeometry, showsCoarserUnderFailures: Bool = false) {
        self.geometry = geometry
        self.showsCoarserUnderFailures = showsCoarserUnderFailures
    }

    /// - Parameters:
    ///   - level: the target level (from `DeepZoomGeometry.level(forScale:)`).
    ///   - visible: the visible part of the image, in full-resolution pixels.
    ///   - hasBackdrop: a whole-image overview exists to draw where no tile can.
    ///   - backdropIsSharp: that overview has at least the level's pixels, so where a tile is not held the
    ///     overview stands for it as sharp as the tile would be, and the tile is not wanted.
    ///   - availability: what the cache holds for a tile.
    package func plan(level: Int, visible: PixelRegion, hasBackdrop: Bool, backdropIsSharp: Bool = false,
                     availability: (TileID) -> TileAvailability) -> TileDrawPlan {
        let region = geometry.levelRegion(covering: visible, in: level)
        let tiles = geometry.tiles(in: level, intersecting: region)
        var layers: [TileDrawPlan.Layer] = []
        layers.reserveCapacity(tiles.count * 2)
        var wanted: [TileID] = []
        var complete = true
        var sharp = true

        for tile in tiles {
            let state = availability(tile)
            switch state {
            case .opaque:
                layers.append(.init(.tile(tile), target: tile))
                continue
            case .failed:
                let fallback = showsCoarserUnderFailures
                    ? fallback(for: tile, hasBackdrop: hasBackdrop, availability: availability) : (layers: [], covers: false)
                if fallback.covers {
                    for content in fallback.layers { layers.append(.init(content, target: tile)) }
                } else {
                    layers.append(.init(.missing, target: tile))
                }
                continue
            case .absent where hasBackdrop && backdropIsSharp:
                layers.append(.init(.backdrop, target: tile))
                continue
            case .absent:
                wanted.append(tile)
                sharp = false
            case .fading:
                break
            }
            // Something must show under (or instead of) this tile.
            let fallback = fallback(for: tile, hasBackdrop: hasBackdrop, availability: availability)
            for content in fallback.layers { layers.append(.init(content, target: tile)) }
            if state == .fading { layers.append(.init(.tile(tile), target: tile)) }
            if !fallback.covers { complete = false }
        }
        return TileDrawPlan(level: level, visibleTiles: tiles, layers: layers,
                            wanted: nearestFirst(wanted, around: visible, level: level),
                            isComplete: complete, isSharp: sharp, overviewStandsIn: hasBackdrop && backdropIsSharp)
    }

    /// Whether something opaque already shows where `tile` goes, without the tile itself: the backdrop, a
    /// held coarser tile, or all of its finer tiles. A tile arriving there fades in over it; one arriving
    /// over nothing appears at once.
    package func hasOpaqueFallback(_ tile: TileID, hasBackdrop: Bool, availability: (TileID) -> TileAvailability) -> Bool {
        fallback(for: tile, hasBackdrop: hasBackdrop, availability: availability).covers
    }

    /// What is drawn under (or instead of) `tile` where it is not opaque itself, in drawing order, and
    /// whether that covers its area: the four finer tiles if all of them are held opaque (zooming out);
    /// otherwise the coarser held tiles up to the nearest opaque one (those fading in too, under the tiles
    /// above them), or the backdrop when no coarser tile is opaque.
    private func fallback(for tile: TileID, hasBackdrop: Bool,
                          availability: (TileID) -> TileAvailability) -> (layers: [TileDrawPlan.Layer.Content], covers: Bool) {
        let children = geometry.children(of: tile)
        if !children.isEmpty, children.allSatisfy({ availability($0) == .opaque }) {
            return (children.map { .tile($0) }, true)
        }
        var ancestors: [TileDrawPlan.Layer.Content] = []
        var ancestor = geometry.parent(of: tile)
        while let current = ancestor {
            let held = availability(current)
            if held == .opaque || held == .fading { ancestors.append(.tile(current)) }
            if held == .opaque { return (ancestors.reversed(), true) }
            ancestor = geometry.parent(of: current)
        }
        if hasBackdrop { return ([.backdrop] + ancestors.reversed(), true) }
        return (ancestors.reversed(), false)
    }

    /// Tiles sorted by the distance of their centre from the visible region's centre (stable for ties).
    private func nearestFirst(_ tiles: [TileID], around visible: PixelRegion, level: Int) -> [TileID] {
        guard tiles.count > 1 else { return tiles }
        let cx = Double(visible.x) + Double(visible.width) / 2, cy = Double(visible.y) + Double(visible.height) / 2
        func distance(_ tile: TileID) -> Double {
            let r = geometry.imageRegion(of: tile)
            let dx = Double(r.x) + Double(r.width) / 2 - cx, dy = Double(r.y) + Double(r.height) / 2 - cy
            return dx * dx + dy * dy
        }
        return tiles.enumerated()
            .map { (offset: $0.offset, tile: $0.element, distance: distance($0.element)) }
            .sorted { ($0.distance, $0.offset) < ($1.distance, $1.offset) }
            .map(\.tile)
    }
}
