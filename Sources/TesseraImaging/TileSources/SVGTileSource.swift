import Foundation
import Synchronization
import TesseraCore

/// An SVG in the tiled view, drawn by librsvg tile by tile at each level's own size, so it is sharp at
/// every zoom. Its pyramid is `magnification` times the document's own size: the largest power of two up
/// to the view's zoom limit whose pixels stay within the pixel limit, so the level machinery asks for
/// drawn tiles past 100 % as it asks for finer levels of any pyramid. The levels below are the document
/// drawn smaller, not a large drawing shrunk, and nothing is drawn whole: a tile costs a tile's pixels.
///
/// Tiles are drawn on the view's workers, several at once. A parsed document is for one thread at a
/// time, so each draw borrows one from a pool (parsing another when all are lent) and gives it back.
public struct SVGTileSource: TileSource {
    public let path: String
    public let geometry: DeepZoomGeometry
    public let name: String
    public let magnification: Int
    private let documents: Documents
    /// A turn applied to the document as drawn (the viewer's turns kept for the session).
    private let turn: ImageOrientation
    private let colour: ColourConversion?

    /// Reads and parses the SVG at `path`; fails, in the loader's words, when it cannot be read or its own
    /// size is over `pixelLimit`.
    /// - Parameters:
    ///   - maxMagnification: how far past its own size it is drawn at most (the view's zoom limit).
    ///   - colour: from sRGB (what SVG colours are) to the display's; nil leaves the pixels as drawn.
    ///   - turn: turns the drawing (`.up`: not at all).
    public init(path: String, pixelLimit: Int, maxMagnification: Double, colour: ColourConversion?,
                turn: ImageOrientation = .up) throws(TileSourceError) {
        func failure(_ reason: ImageLoadError.Reason) -> TileSourceError {
            TileSourceError(path: path, reason: .unreadableImage(reason.shortText))
        }
        let bytes: Data
        do { bytes = try ImageFile(path: path).readAll() } catch { throw failure(ImageLoadError.Reason(error)) }
        let documents = Documents(bytes)
        let own: PixelSize
        do { own = try documents.borrow { $0.size } } catch { throw failure(error) }
        guard own.area <= pixelLimit else {
            throw failure(.tooLarge(width: own.width, height: own.height, limit: pixelLimit))
        }
        var magnification = 1
        while Double(magnification * 2) <= maxMagnification && own.area * (magnification * 2) * (magnification * 2) <= pixelLimit {
            magnification *= 2
        }
        let shown = turn.orientedSize(own)
        self.path = path
        self.documents = documents
        self.turn = turn
        self.colour = colour
        self.magnification = magnification
        geometry = DeepZoomGeometry(width: shown.width * magnification, height: shown.height * magnification)
        name = path.lastPathComponentName
    }

    public func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path, reason: .noSuchTile) }
        // The level as stored (before the turn), drawn whole at its own size; the tile's part of it.
        let level = turn.orientedSize(geometry.levelSize(tile.level))
        let part = turn.storedRegion(of: geometry.region(of: tile), storedSize: level)
        var pixels: PixelBuffer
        do {
            pixels = try documents.borrow { document throws(ImageLoadError.Reason) in
                try document.render(part, ofDrawing: (Double(level.width), Double(level.height)))
            }
        } catch {
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
        pixels = turn.apply(to: pixels)
        colour?.convert(&pixels, name: path)
        return pixels
    }

    /// The parsed documents of one file, each lent to one thread at a time.
    private final class Documents: Sendable {
        /// A document no thread is using: one is taken out of the pool whole, used by the thread that took
        /// it alone, and put back, so librsvg's handle moves between threads but is never used by two.
        private struct Parked: @unchecked Sendable {
            let document: SVGDocument
        }

        private let bytes: Data
        private let idle = Mutex<[Parked]>([])

        init(_ bytes: Data) { self.bytes = bytes }

        /// Runs `body` with a document no other thread has meanwhile.
        func borrow<Result>(_ body: (SVGDocument) throws(ImageLoadError.Reason) -> Result) throws(ImageLoadError.Reason) -> Result {
            let document: SVGDocument
            if let parked = idle.withLock({ $0.popLast() }) {
                document = parked.document
            } else {
                do {
                    document = try bytes.withUnsafeBytes { raw in try SVGDocument(raw) }
                } catch let reason as ImageLoadError.Reason {
                    throw reason
                } catch {
                    throw .decodeFailed(String(describing: error))
                }
            }
            defer {
                let parked = Parked(document: document)
                idle.withLock { $0.append(parked) }
            }
            return try body(document)
        }
    }
}
