import Foundation
import TesseraCore

/// One plain image small enough for a single texture, seen as a pyramid of one tile per level, so the
/// tiled view shows it with the same machinery: at a zoom that needs only a quarter of the pixels, the
/// level is decoded shrunk on load (TurboJPEG's 1/2, 1/4, 1/8 IDCT) instead of decoding everything and
/// throwing most of it away, and the full size is decoded only when zoomed in far enough to see it.
public struct SingleImageTileSource: TileSource {
    public let path: String
    public let geometry: DeepZoomGeometry
    public let name: String
    private let loader: ImageLoader
    /// A turn applied after the file's own orientation (the viewer's turns kept for the session).
    private let turn: ImageOrientation

    /// - Parameters:
    ///   - size: the image's size as shown (upright; see `ImageProbe`), before `turn`.
    ///   - loader: decodes the file (it turns the image upright and checks its limits).
    ///   - turn: turns the upright picture further (`.up`: not at all).
    public init(path: String, size: PixelSize, loader: ImageLoader, turn: ImageOrientation = .up) {
        self.path = path
        self.loader = loader
        self.turn = turn
        let size = turn.orientedSize(size)
        geometry = DeepZoomGeometry(width: size.width, height: size.height, tileSize: max(size.width, size.height))
        name = path.lastPathComponentName
    }

    /// The file's decode at the level's size: the full decode for the finest level.
    public func decodeMemoryEstimate(_ tile: TileID) -> Int {
        DecodeMemory.estimate(path: path, fitting: tile.level == geometry.maxLevel ? nil : turn.orientedSize(geometry.levelSize(tile.level)))
    }

    public func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        let size = geometry.levelSize(tile.level)
        let pixels: PixelBuffer
        do {
            pixels = turn.apply(to: try loader.load(path: path, fitting: tile.level == geometry.maxLevel ? nil : turn.orientedSize(size)))
        } catch {
            throw TileSourceError(path: path, reason: .unreadableImage(error.reason.shortText))
        }
        // Fitting rounds each side on its own; the level's sizes round up. A pixel's difference at most.
        return pixels.size == size ? pixels : PixelScaler.scaled(pixels, to: size)
    }
}

/// What a plain image is, read from its first bytes without decoding: format, stored size, EXIF
/// orientation, file size and modification time.
public struct ImageProbe: Sendable, Equatable {
    public var format: ImageFormat
    /// Width and height as stored in the file.
    public var storedSize: PixelSize
    public var orientation: ImageOrientation
    public var fileSize: Int
    public var modified: Date

    /// Width and height as shown (upright).
    public var size: PixelSize { orientation.orientedSize(storedSize) }

    /// How much of the file is read for the header and the EXIF orientation.
    static let headLength = 256 << 10
    /// The largest file read whole when its first `headLength` bytes do not hold its size (an SVG, a
    /// camera raw file): the loader's own byte limit.
    static let wholeFileLimit = 512 << 20

    /// Reads the header (and EXIF orientation) from the first 256 KB, or from the whole file for formats
    /// whose size a prefix does not give, or for a TIFF through libtiff, which reads only its directory. Errors carry the loader's reasons.
    public static func probe(_ path: String) throws(TileSourceError) -> ImageProbe {
        func failure(_ reason: ImageLoadError.Reason) -> TileSourceError {
            TileSourceError(path: path, reason: .unreadableImage(reason.shortText))
        }
        let file: ImageFile
        var prefix: Data
        do {
            file = try ImageFile(path: path)
            prefix = try file.head(headLength)
        } catch {
            throw failure(ImageLoadError.Reason(error))
        }
        guard !prefix.isEmpty else { throw failure(.empty) }
        let format = ImageFormat.sniff(prefix)
        guard format != .unknown else { throw failure(.notAnImage) }
        var header = ImageHeader.read(prefix, isWholeFile: prefix.count >= file.size)
        if header == nil && format != .tiff && prefix.count < file.size && file.size <= wholeFileLimit {
            do { prefix = try file.readAll() } catch { throw failure(ImageLoadError.Reason(error)) }
            header = ImageHeader.read(prefix)
        }
        if header == nil && format == .tiff, let main = TIFFReader.mainImage(ofFileAt: path) {
            // A TIFF's directory may sit anywhere, after gigabytes of tiles: libtiff finds it.
            return ImageProbe(format: format, storedSize: main.size,
                              orientation: ImageOrientation(exifValue: main.orientation) ?? .up,
                              fileSize: file.size, modified: file.modificationDate)
        }
        guard let header else { throw failure(.truncated) }
        return ImageProbe(format: format, storedSize: header.size,
                          orientation: ExifReader.orientation(in: prefix, format: format),
                          fileSize: file.size, modified: file.modificationDate)
    }
}
