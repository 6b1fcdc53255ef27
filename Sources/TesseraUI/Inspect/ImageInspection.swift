import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraTiling

/// The shown image examined on a worker, from the same tile source the view draws: its histogram and
/// clipping mask from the pyramid level that fits `overviewSide` (the whole picture, as shown, without
/// reading it at full size), and the exact value of a pixel from the full-resolution tile holding it
/// (one tile kept, so a pointer moving within it reads at once). Asked for lazily: nothing is read until
/// the overlay or the clipping marks want it. Main thread only, apart from its jobs.
final class ImageInspection {
    /// The histogram of the whole picture, and its clipped pixels marked, at the overview's size.
    struct Overview: Sendable {
        var histogram: Histogram
        var mask: PixelBuffer
    }

    /// The longest side of the level the histogram is counted on.
    static let overviewSide = 1024

    private enum Finished: Sendable {
        case overview(Overview)
        case tile(TileID, PixelBuffer?)
    }

    private let source: any TileSource
    private let lane: SerialWorkLane
    private let wake: @Sendable () -> Void
    private let finished = Inbox<Finished>()
    private(set) var overview: Overview?
    private var overviewAsked = false
    private var probe: (tile: TileID, pixels: PixelBuffer?)?
    private var probeAsked: TileID?

    init(source: any TileSource, lane: SerialWorkLane, wake: @escaping @Sendable () -> Void) {
        self.source = source
        self.lane = lane
        self.wake = wake
    }

    /// Takes what the worker finished.
    func update() {
        for result in finished.drain() {
            switch result {
            case .overview(let done): overview = done
            case .tile(let tile, let pixels):
                if probeAsked == tile { probeAsked = nil }
                probe = (tile, pixels)
            }
        }
    }

    /// Starts counting the histogram, once.
    func requestOverview() {
        guard !overviewAsked else { return }
        overviewAsked = true
        let source = source, finished = finished, wake = wake
        lane.perform {
            let picture = Self.wholeLevel(of: source, fitting: Self.overviewSide)
            finished.push(.overview(Overview(histogram: Histogram(picture), mask: Histogram.clippingMask(of: picture))))
            wake()
        }
    }

    /// The value of the full-resolution pixel at `x`, `y` as the view shows it; nil while its tile is
    /// read (the read starts here) or when it cannot be.
    func pixel(x: Int, y: Int) -> RGBA? {
        let geometry = source.geometry
        guard x >= 0, y >= 0, x < geometry.width, y < geometry.height else { return nil }
        let level = geometry.maxLevel
        guard let tile = geometry.tiles(in: level, intersecting: PixelRegion(x: x, y: y, width: 1, height: 1)).first else {
            return nil
        }
        if let probe, probe.tile == tile {
            guard let pixels = probe.pixels else { return nil }
            let region = geometry.region(of: tile)
            let px = x - region.x, py = y - region.y
            guard px >= 0, py >= 0, px < pixels.width, py < pixels.height else { return nil }
            return pixels.pixel(x: px, y: py)
        }
        guard probeAsked != tile, source.isAvailable(tile) else { return nil }
        probeAsked = tile
        let source = source, finished = finished, wake = wake
        lane.perform {
            finished.push(.tile(tile, try? source.loadTile(tile)))
            wake()
        }
        return nil
    }

    /// The level of `source` whose longest side is at most `side` (the full image when it is that small),
    /// read tile by tile into one picture; a tile that cannot be read stays transparent.
    static func wholeLevel(of source: any TileSource, fitting side: Int) -> PixelBuffer {
        let geometry = source.geometry
        let level = (0...geometry.maxLevel).last { level in
            let size = geometry.levelSize(level)
            return max(size.width, size.height) <= side
        } ?? 0
        let size = geometry.levelSize(level)
        var picture = PixelBuffer(width: size.width, height: size.height, filledWith: RGBA(r: 0, g: 0, b: 0, a: 0))
        for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
            guard let pixels = try? source.loadTile(tile) else { continue }
            let region = geometry.region(of: tile), content = geometry.contentRegion(of: tile)
            let dx = content.x - region.x, dy = content.y - region.y
            let width = min(content.width, pixels.width - dx)
            guard width > 0 else { continue }
            for row in 0..<min(content.height, pixels.height - dy) {
                let from = ((dy + row) * pixels.width + dx) * 4, to = ((content.y + row) * size.width + content.x) * 4
                picture.bytes.replaceSubrange(to..<(to + width * 4), with: pixels.bytes[from..<(from + width * 4)])
            }
        }
        return picture
    }
}
