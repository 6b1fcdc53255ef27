import COpenSlide
import Foundation
import Synchronization
import TesseraCore

/// A whole-slide image (Aperio SVS, Hamamatsu NDPI and VMS, MIRAX MRXS, Leica SCN, Philips, Ventana,
/// Sakura; and any tiled TIFF when asked) read through OpenSlide, region by region from the slide's level
/// that fits, as vipsdisp reads them: nothing is decoded whole nor cut to disk.
///
/// View levels map onto the slide's as `TiledTIFFSource` maps a TIFF's: a view tile is read from the
/// slide's nearest level at least as fine (OpenSlide's best level for the downsample) and reduced; view
/// levels coarser than the slide's coarsest are reduced from it, which is why `open` refuses a slide
/// whose coarsest level is large.
///
/// OpenSlide's objects are thread-safe, so the workers share one; but an error (a corrupt tile) puts an
/// object in an error state for good, so the tile that failed reports its error and the object is
/// replaced by a newly opened one for the tiles after it (the old one closes when its last reader lets
/// go). OpenSlide 3.4 gives no colour profile: tiles are taken as sRGB on their way through the colour
/// stage.
public final class OpenSlideTileSource: TileSource {
    public let path: String
    public let geometry: DeepZoomGeometry
    public let name: String
    /// What OpenSlide calls the format ("aperio", "hamamatsu", "mirax", "generic-tiff", ...).
    public let vendor: String
    /// The slide's levels used (OpenSlide's index, size and downsample), the full image first.
    let levels: [(index: Int, size: PixelSize, downsample: Double)]
    private let colour: ColourConversion?
    private let slide: Mutex<Slide>

    /// One open OpenSlide object, closed when the last tile reading it is done.
    private final class Slide: @unchecked Sendable {
        let pointer: OpaquePointer

        init(_ pointer: OpaquePointer) { self.pointer = pointer }

        deinit { openslide_close(pointer) }

        var error: String? { openslide_get_error(pointer).map { String(cString: $0) } }
    }

    /// Opens `path` when OpenSlide recognises it, as a format of its own (or as a generic tiled TIFF
    /// when `acceptGenericTIFF`; libtiff reads those directly, `TiledTIFFSource`), with a coarsest level
    /// no larger than `maxCoarsestSide`; nil otherwise. Throws when OpenSlide recognises the file but
    /// cannot read it.
    public static func open(path: String, colour: ColourConversion?, maxCoarsestSide: Int,
                            acceptGenericTIFF: Bool = false) throws(TileSourceError) -> OpenSlideTileSource? {
        guard let vendor = openslide_detect_vendor(path).map({ String(cString: $0) }),
              acceptGenericTIFF || vendor != "generic-tiff" else { return nil }
        let slide = try openSlide(path)
        var levels: [(index: Int, size: PixelSize, downsample: Double)] = []
        for level in 0..<max(0, Int(openslide_get_level_count(slide.pointer))) {
            var width: Int64 = 0, height: Int64 = 0
            openslide_get_level_dimensions(slide.pointer, Int32(level), &width, &height)
            guard width > 0, height > 0, width <= Int32.max, height <= Int32.max else { continue }
            // OpenSlide 3.4 reads a level less than one tile high or wide as transparent: such a level is
            // left out, and the view reduces the level above it instead.
            if level > 0, let tile = tileSize(slide, level: level), width < tile.width || height < tile.height { continue }
            levels.append((level, PixelSize(width: Int(width), height: Int(height)),
                           openslide_get_level_downsample(slide.pointer, Int32(level))))
        }
        guard let coarsest = levels.last, let full = levels.first else {
            throw TileSourceError(path: path, reason: .unreadableImage(slide.error ?? "the slide has no levels"))
        }
        guard max(coarsest.size.width, coarsest.size.height) <= maxCoarsestSide else { return nil }
        return OpenSlideTileSource(path: path, vendor: vendor, slide: slide, levels: levels, full: full.size, colour: colour)
    }

    /// A level's tile size, from the properties OpenSlide sets for formats stored in tiles.
    private static func tileSize(_ slide: Slide, level: Int) -> PixelSize? {
        func property(_ name: String) -> Int? {
            openslide_get_property_value(slide.pointer, "openslide.level[\(level)].\(name)").flatMap { Int(String(cString: $0)) }
        }
        guard let width = property("tile-width"), let height = property("tile-height") else { return nil }
        return PixelSize(width: width, height: height)
    }

    private static func openSlide(_ path: String) throws(TileSourceError) -> Slide {
        guard let pointer = openslide_open(path) else {
            throw TileSourceError(path: path, reason: .unreadableImage("OpenSlide cannot open the slide"))
        }
        let slide = Slide(pointer)
        if let error = slide.error { throw TileSourceError(path: path, reason: .unreadableImage(error)) }
        return slide
    }

    private init(path: String, vendor: String, slide: Slide, levels: [(index: Int, size: PixelSize, downsample: Double)],
                 full: PixelSize, colour: ColourConversion?) {
        self.path = path
        self.vendor = vendor
        self.slide = Mutex(slide)
        self.levels = levels
        self.colour = colour
        geometry = DeepZoomGeometry(width: full.width, height: full.height)
        name = path.lastPathComponentName
    }

    /// Which of `levels` is the coarsest at least as large as the view's `level` (a pixel short on a side
    /// counts).
    func slideLevel(for level: Int) -> Int {
        let wanted = geometry.levelSize(level)
        var best = 0
        for (index, candidate) in levels.enumerated()
        where candidate.size.width + 1 >= wanted.width && candidate.size.height + 1 >= wanted.height
            && candidate.size.area < levels[best].size.area {
            best = index
        }
        return best
    }

    public func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let region = geometry.region(of: tile)
        let level = levels[slideLevel(for: tile.level)]
        // The tile's place in full-resolution pixels, then its size in the slide level's.
        let reduction = 1 << geometry.reduction(of: tile.level)
        let x0 = region.x * reduction, y0 = region.y * reduction
        let x1 = min(region.maxX * reduction, geometry.width), y1 = min(region.maxY * reduction, geometry.height)
        let width = max(1, min(level.size.width, Int((Double(x1 - x0) / level.downsample).rounded(.up))))
        let height = max(1, min(level.size.height, Int((Double(y1 - y0) / level.downsample).rounded(.up))))
        let current = slide.withLock { $0 }
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        bytes.withUnsafeMutableBytes { raw in
            openslide_read_region(current.pointer, raw.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                  Int64(x0), Int64(y0), Int32(level.index), Int64(width), Int64(height))
        }
        if let error = current.error {
            TileFileReader.logger.warning("tile unreadable: \(path) tile \(tile): \(error)")
            replace(current)
            throw TileSourceError(path: path, reason: .unreadableTile(error))
        }
        // OpenSlide's ARGB words are B, G, R, A bytes in memory here, colour premultiplied by alpha.
        bytes.withUnsafeMutableBufferPointer { PixelConversion.unpremultiply($0) }
        var pixels = PixelScaler.scaled(PixelBuffer(width: width, height: height, bytes: bytes),
                                        to: PixelSize(width: region.width, height: region.height))
        colour?.convert(&pixels, name: path)
        return pixels
    }

    /// A slide object in its error state is swapped for a newly opened one (once, whichever tile saw it first).
    private func replace(_ failed: Slide) {
        guard let fresh = try? Self.openSlide(path) else { return }
        slide.withLock { if $0 === failed { $0 = fresh } }
    }
}
