import Foundation
import Synchronization
import TesseraCore
import TesseraFiles

/// An SVG in the tiled view, drawn by librsvg tile by tile at each level's own size, so it is sharp at
/// every zoom. Its pyramid is `magnification` times the document's own size: the largest power of two up
/// to the view's zoom limit whose pixels stay within the pixel limit, so the level machinery asks for
/// drawn tiles past 100 % as it asks for finer levels of any pyramid. The levels below are the document
/// drawn smaller, not a large drawing shrunk, and nothing is drawn whole: a tile costs a tile's pixels.
///
/// With the view's decode helpers, librsvg parses and draws in them alone: the document's own size is a
/// question (`ImageFacts.Kind.drawingSize`), each tile a request of its own on whichever helper is idle,
/// which keeps the parsed document for the tiles after it. Without helpers tiles are drawn here on the
/// view's workers, several at once; a parsed document is for one thread at a time, so each draw borrows one
/// from a pool (parsing another when all are lent) and gives it back. The turn and the colour stage run
/// here either way.
public struct SVGTileSource: TileSource {
    public let path: String
    public let geometry: DeepZoomGeometry
    public let name: String
    public let magnification: Int
    private let drawings: Drawings
    /// A turn applied to the document as drawn (the viewer's turns kept for the session).
    private let turn: ImageOrientation
    private let colour: ColourConversion?

    /// Reads and parses the SVG at `path`; fails, in the loader's words, when it cannot be read or its own
    /// size is over `pixelLimit`.
    /// - Parameters:
    ///   - maxMagnification: how far past its own size it is drawn at most (the view's zoom limit).
    ///   - colour: from sRGB (what SVG colours are) to the display's; nil leaves the pixels as drawn.
    ///   - turn: turns the drawing (`.up`: not at all).
    ///   - helpers: where librsvg runs; nil: in this process.
    public init(path: String, pixelLimit: Int, maxMagnification: Double, colour: ColourConversion?,
                turn: ImageOrientation = .up, helpers: DecodeHelperPool? = nil) throws(TileSourceError) {
        func failure(_ reason: ImageLoadError.Reason) -> TileSourceError {
            TileSourceError(path: path, reason: .unreadableImage(reason.shortText))
        }
        let drawings: Drawings
        let own: PixelSize
        do throws(ImageLoadError.Reason) {
            let file: ImageFile
            do { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
            if let helpers {
                guard case .drawingSize(let size) = try helpers.facts(.drawingSize, of: file), size.width > 0, size.height > 0 else {
                    throw .helperFailed(.unavailable("a wrong answer"))
                }
                own = size
                drawings = .helpers(helpers, SharedDescriptor(file))
            } else {
                let bytes: Data
                do { bytes = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
                let documents = Documents(bytes)
                own = try documents.borrow { $0.size }
                drawings = .inProcess(documents)
            }
        } catch {
            throw failure(error)
        }
        guard own.area <= pixelLimit else {
            throw failure(.tooLarge(width: own.width, height: own.height, limit: pixelLimit))
        }
        var magnification = 1
        while Double(magnification * 2) <= maxMagnification && own.area * (magnification * 2) * (magnification * 2) <= pixelLimit {
            magnification *= 2
        }
        let shown = turn.orientedSize(own)
        self.path = path
        self.drawings = drawings
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
        let drawing = (width: Double(level.width), height: Double(level.height))
        do throws(ImageLoadError.Reason) {
            switch drawings {
            case .inProcess(let documents):
                pixels = try documents.borrow { document throws(ImageLoadError.Reason) in try document.render(part, ofDrawing: drawing) }
            case .helpers(let helpers, let file):
                pixels = try helpers.svgTile(part, ofDrawing: drawing, in: file)
            }
        } catch {
            throw TileSourceError(path: path, reason: .unreadableTile(error.shortText))
        }
        pixels = turn.apply(to: pixels)
        colour?.convert(&pixels, name: path)
        return pixels
    }

    /// The helpers that draw the tiles; nil when they are drawn in this process.
    var helpers: DecodeHelperPool? {
        if case .helpers(let helpers, _) = drawings { return helpers }
        return nil
    }

    /// Where tiles are drawn.
    private enum Drawings: Sendable {
        case inProcess(Documents)
        /// By the pool's helpers, the file (kept open here) attached to each request.
        case helpers(DecodeHelperPool, SharedDescriptor)
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
