import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// A TIFF stored in tiles, pyramidal or not (classic or BigTIFF, any compression libtiff reads; reduced
/// levels as further pages or as SubIFDs), shown by reading only the tiles the view needs from the file's
/// level that fits: vipsdisp's way with such files, and nothing is cut to disk.
///
/// The view's pyramid is a Deep Zoom geometry of the full image; the file's levels need not match it (any
/// tile size, levels that do not halve exactly). A view tile is the region of its level that the nearest
/// file level at least as fine covers, read there and reduced to the tile's size; view levels coarser than
/// the file's coarsest are reduced from the coarsest, which is why `open` refuses a file whose coarsest
/// level is large (reading it whole for the coarse tiles would cost what cutting costs).
///
/// The file's levels and tiles are read by libtiff through the view's decoding service (`TiledTIFFReading`),
/// each tile on its own on whichever worker asks. Tiles go through the colour stage here like any decoded
/// image: the main image's ICC profile is theirs, CMYK is converted to sRGB where the region is read.
package final class TiledTIFFSource: TileSource {
    package let path: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// The file's levels, the full image first (then its SubIFDs and further pages, in the file's order).
    let levels: [TIFFReader.Directory]
    private let profile: [UInt8]?
    private let colour: ColourConversion?

    /// Where the file is read.
    package let decoding: any DecodingService
    private let regions: any TiledTIFFReading

    /// The view's tile size for a file's tile: the file's own when square and of a size a texture handles
    /// well, so a view tile decodes one file tile; otherwise the usual 256.
    static func viewTileSize(for fileTile: PixelSize?) -> Int {
        guard let fileTile, fileTile.width == fileTile.height, (256...1024).contains(fileTile.width) else { return 256 }
        return fileTile.width
    }

    /// Opens `path` when it is a TIFF whose full image is stored in tiles, upright (Orientation 1), with a
    /// coarsest level no larger than `maxCoarsestSide` on either side; nil for any other TIFF, which the
    /// caller shows another way. Throws when the file cannot be read as a TIFF at all. libtiff reads the file
    /// where `decoding` runs it.
    package static func open(path: String, colour: ColourConversion?, maxCoarsestSide: Int,
                            decoding: any DecodingService = .inProcess) throws(TileSourceError) -> TiledTIFFSource? {
        let regions: any TiledTIFFReading
        do throws(ImageLoadError.Reason) {
            let image: ImageFile
            do { image = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
            regions = try decoding.tiledTIFF(image)
        } catch {
            throw TileSourceError(path: path, reason: .unreadableImage(error.shortText))
        }
        let facts = regions.facts
        let main = facts.levels[0]
        guard main.tileSize != nil, main.orientation == 1,
              let coarsest = facts.levels.min(by: { $0.size.area < $1.size.area }),
              max(coarsest.size.width, coarsest.size.height) <= maxCoarsestSide else { return nil }
        return TiledTIFFSource(path: path, levels: facts.levels, profile: facts.profile, colour: colour, regions: regions,
                               decoding: decoding)
    }

    private init(path: String, levels: [TIFFReader.Directory], profile: [UInt8]?, colour: ColourConversion?,
                 regions: any TiledTIFFReading, decoding: any DecodingService) {
        self.path = path
        self.levels = levels
        self.profile = profile
        self.colour = colour
        self.regions = regions
        self.decoding = decoding
        let main = levels[0].size
        geometry = DeepZoomGeometry(width: main.width, height: main.height,
                                    tileSize: Self.viewTileSize(for: levels[0].tileSize))
        name = path.lastPathComponentName
    }

    /// The coarsest file level at least as large as the view's `level` (a pixel short on a side counts:
    /// writers round halved sizes down, Deep Zoom rounds them up).
    func fileLevel(for level: Int) -> TIFFReader.Directory {
        let wanted = geometry.levelSize(level)
        return levels.filter { $0.size.width + 1 >= wanted.width && $0.size.height + 1 >= wanted.height }
            .min { $0.size.area < $1.size.area } ?? levels[0]
    }

    /// The region of `fileLevel` that the view's `region` of `level` covers, rounded outwards.
    func fileRegion(of region: PixelRegion, in level: Int, fileLevel: PixelSize) -> PixelRegion {
        let reduction = 1 << geometry.reduction(of: level)
        let full = (x0: region.x * reduction, y0: region.y * reduction,
                    x1: min(region.maxX * reduction, geometry.width), y1: min(region.maxY * reduction, geometry.height))
        let x0 = full.x0 * fileLevel.width / geometry.width
        let y0 = full.y0 * fileLevel.height / geometry.height
        let x1 = min(fileLevel.width, (full.x1 * fileLevel.width + geometry.width - 1) / geometry.width)
        let y1 = min(fileLevel.height, (full.y1 * fileLevel.height + geometry.height - 1) / geometry.height)
        let x = min(x0, fileLevel.width - 1), y = min(y0, fileLevel.height - 1)
        return PixelRegion(x: x, y: y, width: max(1, x1 - x), height: max(1, y1 - y))
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let region = geometry.region(of: tile)
        let level = fileLevel(for: tile.level)
        let source = fileRegion(of: region, in: tile.level, fileLevel: level.size)
        let size = PixelSize(width: region.width, height: region.height)
        var pixels: PixelBuffer
        do throws(ImageLoadError.Reason) {
            pixels = try regions.read(source, of: level.place, reducedTo: size)
        } catch {
            let place = "\(path) tile \(tile) (level \(level.size.width)x\(level.size.height) at \(source.x),\(source.y))"
            TileFileReader.logger.warning("tile unreadable: \(place): \(error.shortText)")
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
        pixels.colourProfile = level.isSeparated ? nil : profile
        colour?.convert(&pixels, name: path)
        return pixels
    }
}
