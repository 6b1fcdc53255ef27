import Foundation
import Logging
import TesseraCore
import TesseraImaging

/// Where a pyramid's tiles come from: a Deep Zoom folder, the book's flat folder of full-resolution tiles,
/// or one plain image. vipsdisp's `tilesource.c`: it knows files, formats and levels, and nothing about
/// which tiles are on screen or cached (that is the view's `TileStore`).
///
/// `loadTile` runs on several worker threads at once, so sources are `Sendable` and keep no unguarded state.
package protocol TileSource: Sendable {
    var geometry: DeepZoomGeometry { get }
    /// What the user calls it (the file or folder name), for the title bar.
    var name: String { get }
    /// The pixels of `tile`, exactly `geometry.region(of: tile)` in size (overlap included).
    func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer
    /// `loadTile(_:)`, given up with `.cancelled` once `cancellation` is set where the source waits on
    /// something that can be ended (a transfer); sources that only read files finish the tile.
    func loadTile(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> PixelBuffer
    /// How many pixels of `geometry` one pixel of the picture at its own size spans: 1, but for a vector
    /// image whose pyramid is drawn larger than it, so that zooming past 100 % draws rather than enlarges.
    var magnification: Int { get }
    /// Whether `tile` can be read now: a pyramid still being cut has only some of its tiles, and the view
    /// asks for no other.
    func isAvailable(_ tile: TileID) -> Bool
    /// The working memory reading `tile` is estimated to hold (see `DecodeMemory`), before it is read.
    func decodeMemoryEstimate(_ tile: TileID) -> Int
    /// Whether a tile's load waits mostly on something far away (a server), so that several run at
    /// once to good effect: the opening reads its first tiles side by side then.
    var loadsSlowly: Bool { get }
    /// Whether a tile that failed may load when asked again: a server's error or silence may pass, a
    /// broken file stays broken. The view tries such tiles again by itself.
    var failuresMayPass: Bool { get }
}

extension TileSource {
    package var magnification: Int { 1 }
    package func isAvailable(_ tile: TileID) -> Bool { true }
    package var loadsSlowly: Bool { false }
    package var failuresMayPass: Bool { loadsSlowly }
    package func loadTile(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> PixelBuffer {
        try loadTile(tile)
    }

    /// A tile file of its region's size, decoded whole: its pixels' share of `DecodeMemory`'s estimate.
    package func decodeMemoryEstimate(_ tile: TileID) -> Int {
        let region = geometry.region(of: tile)
        return DecodeMemory.estimate(header: nil, fileBytes: 0, fitting: PixelSize(width: region.width, height: region.height))
    }
}

/// Why a pyramid or one of its tiles cannot be read, with the path it happened to.
package struct TileSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Reason: Sendable, Equatable {
        /// No tile file at the path (any of the extensions tried).
        case missingTile
        /// The tile file exists but cannot be decoded; the text is the loader's short reason.
        case unreadableTile(String)
        /// Asked for a tile outside the pyramid.
        case noSuchTile
        /// The `.dzi` cannot be read or makes no sense, and its tile folder did not say more.
        case malformedDescriptor(String)
        /// An IIIF `info.json` cannot be read, or describes no tree of tiles.
        case malformedService(String)
        /// Nothing at the path looks like tiles.
        case noTiles(String)
        /// The plain image cannot be read; the text is the loader's short reason.
        case unreadableImage(String)
        /// A remote pyramid's description could not be fetched; the text is the fetcher's reason.
        case unreachable(String)
        /// The load was given up because nobody wants the tile any more: not a failure of the tile.
        case cancelled

        package var shortText: String {
            switch self {
            case .missingTile: "tile file missing"
            case .unreadableTile(let why): "tile unreadable: \(why)"
            case .noSuchTile: "no such tile"
            case .malformedDescriptor(let why): "Malformed Deep Zoom descriptor: \(why)"
            case .malformedService(let why): "Unreadable IIIF info.json: \(why)"
            case .noTiles(let why): "No tiles: \(why)"
            case .unreadableImage(let why): why
            case .unreachable(let why): why
            case .cancelled: "cancelled"
            }
        }
    }

    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason.shortText)" }
}

/// Reads one tile file through `ImageLoader` (so a tile with a lying header is refused like any image),
/// and logs exactly one line for a tile that cannot be read: the loader logs decode failures itself at
/// warning level but missing and unrecognised files only at debug level, so those are logged here.
struct TileFileReader: Sendable {
    let loader: ImageLoader
    static let logger = Logger(label: "tessera.tiles")

    init(decoders: [any ImageDecoding], colour: ColourConversion?, decoding: any DecodingService = .inProcess) {
        // Tiles carry no EXIF; a plain tile is never turned.
        loader = ImageLoader(decoders: decoders, applyOrientation: false, colour: colour, decoding: decoding)
    }

    /// The decoded file at the first of `paths` that exists (shrunk to fit `box` if given, on load where
    /// the decoder can); throws `.missingTile` (naming the first path) when none does.
    func read(firstOf paths: [String], fitting box: PixelSize? = nil) throws(TileSourceError) -> PixelBuffer {
        for path in paths {
            do {
                return try loader.load(path: path, fitting: box)
            } catch {
                switch error.reason {
                case .missing:
                    continue
                case .empty, .notAnImage, .unsupportedFormat:
                    Self.logger.warning("tile unreadable: \(path): \(error.reason.shortText)")
                default:
                    break  // the loader has logged it
                }
                throw TileSourceError(path: path, reason: .unreadableTile(error.reason.shortText))
            }
        }
        let path = paths.first ?? "?"
        Self.logger.warning("tile missing: \(path)")
        throw TileSourceError(path: path, reason: .missingTile)
    }

    /// Decodes a tile's bytes fetched from elsewhere; `name` (its URL) is for the error and the log.
    func decode(_ data: Data, name: String) throws(TileSourceError) -> PixelBuffer {
        do {
            return try loader.load(data: data, name: name, fitting: nil)
        } catch {
            switch error.reason {
            case .empty, .notAnImage, .unsupportedFormat:
                Self.logger.warning("tile unreadable: \(name): \(error.reason.shortText)")
            default:
                break  // the loader has logged it
            }
            throw TileSourceError(path: name, reason: .unreadableTile(error.reason.shortText))
        }
    }

    /// `pixels` at exactly `expected` size: a tile that does not match its pyramid's geometry (a `.dzi`
    /// whose sizes lie) is stretched to fit, with one log line, rather than leaving a gap or overlapping.
    static func normalized(_ pixels: PixelBuffer, to expected: PixelSize, path: String) -> PixelBuffer {
        guard pixels.size != expected else { return pixels }
        logger.warning("tile \(path) is \(pixels.size), the pyramid expects \(expected); scaled to fit")
        return PixelScaler.scaled(pixels, to: expected)
    }
}

extension String {
    /// The last path component ("a/b/c.dzi" -> "c.dzi").
    var lastPathComponentName: String { (self as NSString).lastPathComponent }
}
