import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// One plain image small enough for a single texture, seen as a pyramid of one tile per level, so the
/// tiled view shows it with the same machinery: at a zoom that needs only a quarter of the pixels, the
/// level is decoded shrunk on load (TurboJPEG's 1/2, 1/4, 1/8 IDCT) instead of decoding everything and
/// throwing most of it away, and the full size is decoded only when zoomed in far enough to see it.
package struct SingleImageTileSource: TileSource {
    package let path: String
    package let geometry: DeepZoomGeometry
    package let name: String
    private let loader: ImageLoader
    /// A turn applied after the file's own orientation (the viewer's turns kept for the session).
    private let turn: ImageOrientation

    /// - Parameters:
    ///   - size: the image's size as shown (upright; see `ImageProbe`), before `turn`.
    ///   - loader: decodes the file (it turns the image upright and checks its limits).
    ///   - turn: turns the upright picture further (`.up`: not at all).
    package init(path: String, size: PixelSize, loader: ImageLoader, turn: ImageOrientation = .up) {
        self.path = path
        self.loader = loader
        self.turn = turn
        let size = turn.orientedSize(size)
        geometry = DeepZoomGeometry(width: size.width, height: size.height, tileSize: max(size.width, size.height))
        name = path.lastPathComponentName
    }

    /// The file's decode at the level's size: the full decode for the finest level.
    package func decodeMemoryEstimate(_ tile: TileID) -> Int {
        DecodeMemory.estimate(path: path, fitting: tile.level == geometry.maxLevel ? nil : turn.orientedSize(geometry.levelSize(tile.level)),
                              decoding: loader.decoding)
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
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
package struct ImageProbe: Sendable, Equatable {
    package var format: ImageFormat
    /// Width and height as stored in the file.
    package var storedSize: PixelSize
    package var orientation: ImageOrientation
    package var fileSize: Int
    package var modified: Date

    /// Width and height as shown (upright).
    package var size: PixelSize { orientation.orientedSize(storedSize) }

    /// Reads the format, size and EXIF orientation (`HeaderFacts`) of the file at `path` through
    /// `decoding`, since the header readers of several formats and the EXIF reader are C libraries. Errors
    /// carry the loader's reasons.
    package static func probe(_ path: String, decoding: any DecodingService = .inProcess) throws(TileSourceError) -> ImageProbe {
        func failure(_ reason: ImageLoadError.Reason) -> TileSourceError {
            TileSourceError(path: path, reason: .unreadableImage(reason.shortText))
        }
        do throws(ImageLoadError.Reason) {
            let file: ImageFile
            do { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
            let facts = try decoding.header(of: file)
            return ImageProbe(format: facts.format, storedSize: facts.storedSize, orientation: facts.orientation,
                              fileSize: file.size, modified: file.modificationDate)
        } catch {
            throw failure(error)
        }
    }
}
