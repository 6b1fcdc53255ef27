import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging

/// A JPEG larger than one tile, shown by decoding only the tiles the view needs, each at the scale of its
/// level: the view's memory follows what is on screen, not the photo's size. A tile of a level at 1/2 or
/// 1/4 of the image, or at full size, is its part of the file decoded at that scale by libjpeg, which crops
/// the columns and skips the rows around it (`JPEGRegionReader`); the level at 1/8 and the coarser ones
/// (a fitted view's, for a photo much larger than the screen) come from one decode of the whole image at
/// 1/8, libjpeg's smallest scale, kept while the source lives: every tile of a level needs the file's data
/// down to its last row, and at that scale decoding it once for all of them costs what one of them would.
///
/// Tiles are decoded where the view's decoding service decodes (`JPEGRegionDecoding`), several at once.
/// They come upright (the file's orientation, then the view's turn) and through the colour stage here.
package final class JPEGRegionSource: TileSource {
    package let path: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// Width and height as stored in the file.
    let storedSize: PixelSize
    /// From the stored pixels to the view's: the file's orientation, then the turn.
    let orientation: ImageOrientation
    private let colour: ColourConversion?
    /// Where the regions are decoded.
    package let decoding: any DecodingService
    private let regions: any JPEGRegionDecoding
    /// The whole image at 1/8 of its size, upright and colour-converted, once a coarse tile asked for it.
    private let eighth = Mutex<PixelBuffer?>(nil)

    /// Side of a tile: a few tiles cover a screen, so few decodes (each reading the file down to its last
    /// row) make a view sharp, and each holds 4 MB at most.
    package static let tileSize = 1024
    /// libjpeg's smallest scale, 1/8: levels at least this coarse come from the whole image at this scale.
    package static let coarsestDenominatorShift = 3

    /// A source for `probe`'s JPEG when its parts can be decoded alone (one sequential frame, as cameras
    /// and most encoders write); nil for a progressive JPEG or any other format, which the caller shows
    /// another way. The frame is read in Swift, so no C parser reads the file in this process when
    /// `decoding` isolates the libraries.
    package static func open(path: String, probe: ImageProbe, turn: ImageOrientation, colour: ColourConversion?,
                            decoding: any DecodingService) -> JPEGRegionSource? {
        guard probe.format == .jpeg, let file = try? ImageFile(path: path), decodesInParts(file) else { return nil }
        return JPEGRegionSource(path: path, storedSize: probe.storedSize, orientation: probe.orientation.followed(by: turn),
                                colour: colour, regions: decoding.jpegRegions(file), decoding: decoding)
    }

    /// Whether the JPEG at `path` is one sequential frame in one scan, whose parts libjpeg decodes alone.
    /// libjpeg holds every coefficient of a progressive or multi-scan one (3 bytes a pixel at 4:2:0) for
    /// any decode of it, even at 1/8.
    package static func decodesInParts(fileAt path: String) -> Bool {
        guard let file = try? ImageFile(path: path) else { return false }
        return decodesInParts(file)
    }

    private static func decodesInParts(_ file: ImageFile) -> Bool {
        guard let head = try? file.head(ImageLoader.headerProbeLength) else { return false }
        return head.withUnsafeBytes { ImageHeader.jpegIsSequential($0) }
    }

    private init(path: String, storedSize: PixelSize, orientation: ImageOrientation, colour: ColourConversion?,
                 regions: any JPEGRegionDecoding, decoding: any DecodingService) {
        self.path = path
        self.storedSize = storedSize
        self.orientation = orientation
        self.colour = colour
        self.regions = regions
        self.decoding = decoding
        let size = orientation.orientedSize(storedSize)
        geometry = DeepZoomGeometry(width: size.width, height: size.height, tileSize: Self.tileSize)
        name = path.lastPathComponentName
    }

    /// 1/`denominator` of the image, as libjpeg sizes it (rounded up), stored orientation.
    private func storedSize(atDenominator denominator: Int) -> PixelSize {
        PixelSize(width: (storedSize.width + denominator - 1) / denominator,
                  height: (storedSize.height + denominator - 1) / denominator)
    }

    /// The scale a level's tiles are decoded at, 1/`denominator`, and what is left to reduce after it.
    func decodeScale(of level: Int) -> (denominator: Int, furtherReduction: Int) {
        let reduction = geometry.reduction(of: level)
        let shift = min(reduction, Self.coarsestDenominatorShift)
        return (1 << shift, 1 << (reduction - shift))
    }

    package func decodeMemoryEstimate(_ tile: TileID) -> Int {
        let (denominator, _) = decodeScale(of: tile.level)
        if denominator == 1 << Self.coarsestDenominatorShift { return storedSize(atDenominator: denominator).area * 4 }
        let region = geometry.region(of: tile)
        return region.width * region.height * 4
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let region = geometry.region(of: tile)
        let (denominator, further) = decodeScale(of: tile.level)
        do throws(ImageLoadError.Reason) {
            if denominator < 1 << Self.coarsestDenominatorShift { return try decodeUpright(region, denominator: denominator) }
            let whole = try eighthImage()
            let part = PixelRegion(x: region.x * further, y: region.y * further,
                                   width: min(region.maxX * further, whole.width) - region.x * further,
                                   height: min(region.maxY * further, whole.height) - region.y * further)
            let cropped = Self.crop(whole, to: part)
            return further == 1 ? cropped : PixelScaler.scaled(cropped, to: PixelSize(width: region.width, height: region.height))
        } catch {
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
    }

    /// All of `level`, upright, in one decode: what a view showing the whole level needs, at the cost of one
    /// of its tiles, since each tile reads the file down to its last row.
    package func wholeLevel(_ level: Int) throws(TileSourceError) -> PixelBuffer {
        guard (0...geometry.maxLevel).contains(level) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let size = geometry.levelSize(level)
        let (denominator, _) = decodeScale(of: level)
        do throws(ImageLoadError.Reason) {
            let whole = denominator < 1 << Self.coarsestDenominatorShift
                ? try decodeUpright(PixelRegion(x: 0, y: 0, width: size.width, height: size.height), denominator: denominator)
                : try eighthImage()
            return whole.size == size ? whole : PixelScaler.scaled(whole, to: size)
        } catch {
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
    }

    /// `region` of the upright image at 1/`denominator`, decoded from the part of the file it comes from.
    private func decodeUpright(_ region: PixelRegion, denominator: Int) throws(ImageLoadError.Reason) -> PixelBuffer {
        let stored = orientation.storedRegion(of: region, storedSize: storedSize(atDenominator: denominator))
        var pixels = orientation.apply(to: try regions.read(stored, denominator: denominator))
        colour?.convert(&pixels, name: path)
        return pixels
    }

    /// The whole image at 1/8, decoded by the first coarse tile that needs it; the others wait for it.
    private func eighthImage() throws(ImageLoadError.Reason) -> PixelBuffer {
        let denominator = 1 << Self.coarsestDenominatorShift
        let size = orientation.orientedSize(storedSize(atDenominator: denominator))
        return try eighth.withLock { held throws(ImageLoadError.Reason) -> PixelBuffer in
            if let held { return held }
            let whole = try decodeUpright(PixelRegion(x: 0, y: 0, width: size.width, height: size.height),
                                          denominator: denominator)
            held = whole
            return whole
        }
    }

    /// The pixels of `region` of `pixels` (which holds all of it), in a buffer of their own.
    package static func crop(_ pixels: PixelBuffer, to region: PixelRegion) -> PixelBuffer {
        if region == PixelRegion(x: 0, y: 0, width: pixels.width, height: pixels.height) { return pixels }
        var bytes = [UInt8](repeating: 0, count: region.width * region.height * 4)
        let rowBytes = region.width * 4
        bytes.withUnsafeMutableBytes { target in
            pixels.bytes.withUnsafeBytes { source in
                for row in 0..<region.height {
                    let from = ((region.y + row) * pixels.width + region.x) * 4
                    target.baseAddress!.advanced(by: row * rowBytes)
                        .copyMemory(from: source.baseAddress!.advanced(by: from), byteCount: rowBytes)
                }
            }
        }
        var cropped = PixelBuffer(width: region.width, height: region.height, bytes: bytes)
        cropped.knownOpaque = pixels.knownOpaque
        cropped.keepFileFacts(of: pixels)
        return cropped
    }
}
