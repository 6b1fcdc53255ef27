import Foundation
import TesseraCore
import TesseraImaging

/// A whole-slide image (Aperio SVS, Hamamatsu NDPI and VMS, MIRAX MRXS, Leica SCN, Philips, Ventana,
/// Sakura; and any tiled TIFF when asked) read through OpenSlide, region by region from the slide's level
/// that fits, as vipsdisp reads them: nothing is decoded whole nor cut to disk.
///
/// View levels map onto the slide's as `TiledTIFFSource` maps a TIFF's: a view tile is read from the
/// slide's nearest level at least as fine (OpenSlide's best level for the downsample) and reduced; view
/// levels coarser than the slide's coarsest are reduced from it, which is why `open` refuses a slide
/// whose coarsest level is large.
///
/// The slide is read by OpenSlide where the view's decoding service runs it (`SlideReading`; a sandboxed
/// service gives the slide a helper of its own, since OpenSlide opens it by path). A corrupt tile is that tile's error and the slide reads on. OpenSlide 3.4 gives no colour
/// profile: tiles are taken as sRGB on their way through the colour stage, here either way.
package final class OpenSlideTileSource: TileSource {
    package let path: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// What OpenSlide calls the format ("aperio", "hamamatsu", "mirax", "generic-tiff", ...).
    package var vendor: String { facts.vendor }
    /// The slide's levels used (OpenSlide's index, size and downsample), the full image first.
    var levels: [SlideFacts.Level] { facts.levels }
    private let facts: SlideFacts
    private let colour: ColourConversion?
    private let slide: any SlideReading
    /// Where the slide is read.
    package let decoding: any DecodingService

    /// Opens `path` when OpenSlide recognises it, as a format of its own (or as a generic tiled TIFF
    /// when `acceptGenericTIFF`; libtiff reads those directly, `TiledTIFFSource`), with a coarsest level
    /// no larger than `maxCoarsestSide`; nil otherwise. Throws when OpenSlide recognises the file but
    /// cannot read it. OpenSlide runs where `decoding` runs it, from recognising the file on.
    package static func open(path: String, colour: ColourConversion?, maxCoarsestSide: Int, acceptGenericTIFF: Bool = false,
                            decoding: any DecodingService = .inProcess) throws(TileSourceError) -> OpenSlideTileSource? {
        let slide: any SlideReading
        do throws(ImageLoadError.Reason) {
            guard let opened = try decoding.slide(at: path, acceptGenericTIFF: acceptGenericTIFF) else { return nil }
            slide = opened
        } catch {
            if case .decodeFailed(let why) = error { throw TileSourceError(path: path, reason: .unreadableImage(why)) }
            throw TileSourceError(path: path, reason: .unreadableImage(error.shortText))
        }
        let facts = slide.facts
        guard let coarsest = facts.levels.last, max(coarsest.size.width, coarsest.size.height) <= maxCoarsestSide else { return nil }
        return OpenSlideTileSource(path: path, facts: facts, slide: slide, colour: colour, decoding: decoding)
    }

    private init(path: String, facts: SlideFacts, slide: any SlideReading, colour: ColourConversion?,
                 decoding: any DecodingService) {
        self.path = path
        self.facts = facts
        self.slide = slide
        self.decoding = decoding
        self.colour = colour
        geometry = DeepZoomGeometry(width: facts.levels[0].size.width, height: facts.levels[0].size.height)
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

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let region = geometry.region(of: tile)
        let level = levels[slideLevel(for: tile.level)]
        // The tile's place in full-resolution pixels, then its size in the slide level's.
        let reduction = 1 << geometry.reduction(of: tile.level)
        let x0 = region.x * reduction, y0 = region.y * reduction
        let x1 = min(region.maxX * reduction, geometry.width), y1 = min(region.maxY * reduction, geometry.height)
        let width = max(1, min(level.size.width, Int((Double(x1 - x0) / level.downsample).rounded(.up))))
        let height = max(1, min(level.size.height, Int((Double(y1 - y0) / level.downsample).rounded(.up))))
        let size = PixelSize(width: region.width, height: region.height)
        var pixels: PixelBuffer
        let failure: String
        do throws(ImageLoadError.Reason) {
            pixels = try slide.read(x: x0, y: y0, level: level.index, width: width, height: height, reducedTo: size)
            colour?.convert(&pixels, name: path)
            return pixels
        } catch .decodeFailed(let why) {
            failure = why
        } catch {
            failure = error.shortText
        }
        TileFileReader.logger.warning("tile unreadable: \(path) tile \(tile): \(failure)")
        throw TileSourceError(path: path, reason: .unreadableTile(failure))
    }
}
