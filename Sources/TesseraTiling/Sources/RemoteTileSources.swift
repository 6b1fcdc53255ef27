import Foundation
import Synchronization
import Logging
import TesseraCore
import TesseraImaging

/// Fetches what a remote pyramid reads: its description and its tiles. This module does no networking
/// itself (TesseraRemote's `HTTPFetcher` does), so its sources are tested and used with any fetcher.
package protocol TileFetching: Sendable {
    /// The body at `url`, at most `byteLimit` bytes. Runs on the view's fetch threads and blocks until the
    /// body is in or the fetch has failed, within the fetcher's own time limits; once `cancellation` is set
    /// the transfer is ended (its connection freed for the next) and the fetch fails with `isCancelled`.
    func get(_ url: String, byteLimit: Int, cancellation: DecodeCancellation?) throws(TileFetchError) -> Data
}

extension TileFetching {
    /// A fetch nobody cancels.
    package func get(_ url: String, byteLimit: Int) throws(TileFetchError) -> Data {
        try get(url, byteLimit: byteLimit, cancellation: nil)
    }
}

/// Why a fetch gave no body: one sentence, for the log and the error screen.
package struct TileFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    package let url: String
    /// What went wrong, without the URL ("the server answered 404 Not Found").
    package let reason: String
    /// The HTTP status the server answered with, when it answered with one other than success.
    package let status: Int?
    /// The fetch was ended because its cancellation was set, not because of the server.
    package let isCancelled: Bool

    package init(url: String, reason: String, status: Int? = nil, isCancelled: Bool = false) {
        self.url = url
        self.reason = reason
        self.status = status
        self.isCancelled = isCancelled
    }

    /// The fetch of `url` was given up on its cancellation.
    package static func cancelled(_ url: String) -> TileFetchError {
        TileFetchError(url: url, reason: "the fetch was cancelled", isCancelled: true)
    }

    package var description: String { "\(url): \(reason)" }
}

/// Tiles fetched whole and decoded from memory through the configured decoding service (they are the
/// network's, so as untrusted as any file), one request per tile; a spelling of the extension that the
/// server does not have (404) is followed by the other one.
struct RemoteTileReader: Sendable {
    let fetcher: any TileFetching
    let reader: TileFileReader

    /// The most one tile may weigh: a tile of 8192 pixels a side is a few MB even as PNG.
    static let tileByteLimit = 32 << 20

    /// The body at the first of `urls` the server has (only a 404 moves on to the next), and its URL;
    /// throws `.cancelled`, with nothing logged, once `cancellation` ends the fetch.
    func fetch(firstOf urls: [String], cancellation: DecodeCancellation?) throws(TileSourceError) -> (url: String, data: Data) {
        var lastError: TileFetchError?
        for url in urls {
            do {
                return (url, try fetcher.get(url, byteLimit: Self.tileByteLimit, cancellation: cancellation))
            } catch {
                if error.isCancelled { throw TileSourceError(path: url, reason: .cancelled) }
                lastError = error
                if error.status == 404 { continue }
                break
            }
        }
        let failure = lastError ?? TileFetchError(url: urls.first ?? "?", reason: "no URL to fetch")
        TileFileReader.logger.warning("tile not fetched: \(failure)")
        throw TileSourceError(path: failure.url, reason: .unreadableTile(failure.reason))
    }

    /// A fetched body's picture, decoded as any untrusted file is.
    func decode(_ body: (url: String, data: Data)) throws(TileSourceError) -> PixelBuffer {
        try reader.decode(body.data, name: body.url)
    }

    /// The description at `url`, at most `byteLimit` bytes.
    func description(at url: String, byteLimit: Int) throws(TileSourceError) -> Data {
        do {
            return try fetcher.get(url, byteLimit: byteLimit)
        } catch {
            throw TileSourceError(path: url, reason: .unreachable(error.reason))
        }
    }

    /// The last path component of `url`, percent-decoded, for the title bar.
    static func lastComponent(of url: String) -> String {
        let name = URLComponents(string: url)?.path.split(separator: "/").last.map(String.init) ?? url
        return name.removingPercentEncoding ?? name
    }
}

/// An IIIF Image API service over HTTP, version 3 or 2, given its `info.json` URL: a static (level 0) tree
/// or a level 1 or 2 server, read with the same requests as a tree on disk (`IIIFTileSource`), which such
/// a server answers as it answers any region. A service that lists no tiles is refused.
package struct RemoteIIIFTileSource: FetchingTileSource {
    package var loadsSlowly: Bool { true }
    package let infoURL: String
    /// What each tile's request follows: the URL given without `/info.json`, or the service's own id when
    /// that is on the same server.
    package let base: String
    package let geometry: DeepZoomGeometry
    package let name: String
    let tree: IIIFTree
    /// The coarsest level the tree holds (its one-tile level).
    let coarsest: Int
    /// The tile formats' extensions, in the order they are tried (`IIIFTileSource.Service`).
    let tileExtensions: [String]
    /// A level 1 or 2 server, which draws any size asked for.
    let drawsAnyRegion: Bool
    /// The whole image's sizes the service lists as ready.
    let sizes: [PixelSize]
    let reader: RemoteTileReader
    /// The tree's one-tile level, once fetched: every coarser level is made from it, so that the view's
    /// base levels cost one request, not one each.
    private let coarsestPicture = CoarsestPicture()

    private final class CoarsestPicture: Sendable {
        let held = Mutex<PixelBuffer?>(nil)
    }

    package init(infoURL: String, fetcher: any TileFetching, decoders: [any ImageDecoding],
                 colour: ColourConversion? = .sRGB, decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        guard var components = URLComponents(string: infoURL), components.path.hasSuffix("/info.json") else {
            throw TileSourceError(path: infoURL, reason: .malformedService("the URL does not end in /info.json"))
        }
        reader = RemoteTileReader(fetcher: fetcher, reader: TileFileReader(decoders: decoders, colour: colour, decoding: decoding))
        let service = try IIIFTileSource.Service(
            json: reader.description(at: infoURL, byteLimit: IIIFTileSource.infoByteLimit), path: infoURL)
        components.path = String(components.path.dropLast("/info.json".count))
        components.query = nil
        components.fragment = nil
        let given = components.string ?? String(infoURL.dropLast("/info.json".count))
        self.infoURL = infoURL
        base = Self.base(given: given, id: service.id)
        geometry = service.geometry
        tree = IIIFTree(geometry: geometry, version: service.version)
        coarsest = tree.coarsestLevel
        tileExtensions = service.tileExtensions
        drawsAnyRegion = service.drawsAnyRegion
        sizes = service.sizes
        name = RemoteTileReader.lastComponent(of: given)
    }

    /// A picture of the whole image for a box of `box` pixels: a level 1 or 2 server draws it at that size;
    /// a static tree gives the smallest size it lists that fills the box (else its largest), and without
    /// sizes its one-tile level, which every tree holds.
    package func thumbnailURL(fitting box: PixelSize) -> String {
        if drawsAnyRegion {
            return Self.drawnURL(base: base, imageSize: PixelSize(width: geometry.width, height: geometry.height), fitting: box)
        }
        let fills = sizes.filter { $0.width >= box.width || $0.height >= box.height }
        if let size = fills.min(by: { $0.width < $1.width }) ?? sizes.max(by: { $0.width < $1.width }) {
            let request = tree.version == 2 ? "\(size.width)," : "\(size.width),\(size.height)"
            return "\(base)/full/\(request)/0/default.\(tileExtensions[0])"
        }
        return url(of: TileID(level: coarsest, column: 0, row: 0))
    }

    /// The request of a level 1 or 2 service at `base` for its whole image of `imageSize` fitted into `box`
    /// (never enlarged): by its width alone (`full/W,/0/default.jpg`), which both levels draw.
    package static func drawnURL(base: String, imageSize: PixelSize, fitting box: PixelSize) -> String {
        let scale = min(1, Double(box.width) / Double(imageSize.width), Double(box.height) / Double(imageSize.height))
        let width = max(1, Int((Double(imageSize.width) * scale).rounded()))
        return "\(base)/full/\(width),/0/default.jpg"
    }

    /// The service's id when it names the same scheme, host and port as the URL given (a server knows its
    /// own paths, say behind a prefix); the URL given otherwise, as a copied tree's id often names where it
    /// was made rather than where it is.
    static func base(given: String, id: String?) -> String {
        guard let id, let idParts = URLComponents(string: id), let givenParts = URLComponents(string: given),
              let scheme = idParts.scheme?.lowercased(), scheme == "http" || scheme == "https",
              scheme == givenParts.scheme?.lowercased(), idParts.host?.lowercased() == givenParts.host?.lowercased(),
              idParts.port == givenParts.port else { return given }
        return id.hasSuffix("/") ? String(id.dropLast()) : id
    }

    package func url(of tile: TileID, extension ext: String? = nil) -> String {
        base + "/" + tree.path(of: tile, extension: ext ?? tileExtensions[0])
    }

    /// A tile of the tree, or, coarser than the tree goes, its one-tile level (nothing, once that is held).
    package func fetch(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> FetchedTile {
        guard geometry.contains(tile) else { throw TileSourceError(path: url(of: tile), reason: .noSuchTile) }
        if tile.level < coarsest, coarsestPicture.held.withLock({ $0 }) != nil { return FetchedTile(tile: tile, body: nil) }
        let fetched = TileID(level: max(tile.level, coarsest), column: tile.level < coarsest ? 0 : tile.column,
                             row: tile.level < coarsest ? 0 : tile.row)
        return FetchedTile(tile: tile, body: try reader.fetch(firstOf: tileExtensions.map { url(of: fetched, extension: $0) },
                                                              cancellation: cancellation))
    }

    package func decode(_ fetched: FetchedTile) throws(TileSourceError) -> PixelBuffer {
        let tile = fetched.tile
        let expected = geometry.region(of: tile)
        let size = PixelSize(width: expected.width, height: expected.height)
        let pixels: PixelBuffer
        if let body = fetched.body {
            pixels = try reader.decode(body)
        } else if let held = coarsestPicture.held.withLock({ $0 }) {
            pixels = held
        } else {
            throw TileSourceError(path: url(of: tile), reason: .missingTile)
        }
        guard tile.level < coarsest else {
            if tile.level == coarsest { coarsestPicture.held.withLock { $0 = pixels } }
            return TileFileReader.normalized(pixels, to: size, path: url(of: tile))
        }
        // Coarser than the tree goes: its one-tile level, scaled down (a level this coarse is one tile too).
        coarsestPicture.held.withLock { $0 = pixels }
        return PixelScaler.scaled(pixels, to: size)
    }
}

/// A Deep Zoom pyramid over HTTP: `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.EXT` beside it. The
/// descriptor must be readable (a tile folder cannot be listed over HTTP to work the geometry out).
package struct RemoteDeepZoomTileSource: FetchingTileSource {
    package var loadsSlowly: Bool { true }
    package let descriptorURL: String
    /// The URL of `NAME_files`.
    package let tilesBase: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// Extensions to try, the descriptor's first ("jpeg" and "jpg" are used interchangeably).
    package let extensions: [String]
    let reader: RemoteTileReader

    package init(descriptorURL: String, fetcher: any TileFetching, decoders: [any ImageDecoding],
                 colour: ColourConversion? = .sRGB, decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        guard var components = URLComponents(string: descriptorURL), components.path.lowercased().hasSuffix(".dzi") else {
            throw TileSourceError(path: descriptorURL, reason: .malformedDescriptor("the URL does not end in .dzi"))
        }
        reader = RemoteTileReader(fetcher: fetcher, reader: TileFileReader(decoders: decoders, colour: colour, decoding: decoding))
        let data = try reader.description(at: descriptorURL, byteLimit: 1 << 20)
        let descriptor: DeepZoomDescriptor
        do throws(DeepZoomDescriptor.DescriptorError) {
            descriptor = try DeepZoomDescriptor.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw TileSourceError(path: descriptorURL, reason: .malformedDescriptor(error.description))
        }
        components.path = String(components.path.dropLast(".dzi".count)) + "_files"
        components.query = nil
        components.fragment = nil
        self.descriptorURL = descriptorURL
        tilesBase = components.string ?? String(descriptorURL.dropLast(".dzi".count)) + "_files"
        geometry = descriptor.geometry
        name = RemoteTileReader.lastComponent(of: descriptorURL)
        var candidates = [descriptor.format]
        for (a, b) in [("jpeg", "jpg"), ("jpg", "jpeg"), ("tif", "tiff"), ("tiff", "tif")] where candidates[0] == a {
            candidates.append(b)
        }
        extensions = candidates
    }

    package func url(of tile: TileID, extension ext: String? = nil) -> String {
        "\(tilesBase)/\(tile.level)/\(tile.column)_\(tile.row).\(ext ?? extensions[0])"
    }

    package func fetch(_ tile: TileID, cancellation: DecodeCancellation?) throws(TileSourceError) -> FetchedTile {
        guard geometry.contains(tile) else { throw TileSourceError(path: url(of: tile), reason: .noSuchTile) }
        return FetchedTile(tile: tile, body: try reader.fetch(firstOf: extensions.map { url(of: tile, extension: $0) },
                                                              cancellation: cancellation))
    }

    package func decode(_ fetched: FetchedTile) throws(TileSourceError) -> PixelBuffer {
        let tile = fetched.tile
        guard let body = fetched.body else { throw TileSourceError(path: url(of: tile), reason: .missingTile) }
        let pixels = try reader.decode(body)
        let expected = geometry.region(of: tile)
        return TileFileReader.normalized(pixels, to: PixelSize(width: expected.width, height: expected.height),
                                         path: url(of: tile))
    }
}
