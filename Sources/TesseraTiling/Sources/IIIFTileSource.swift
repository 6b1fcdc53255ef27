import Foundation
import TesseraCore
import TesseraImaging

/// A static (level 0) IIIF Image API tree on disk, version 3 or 2: `info.json` and a file per tile named
/// by its request (`IIIFTree`), as `tessera tile --layout iiif3` and `vips dzsave --layout iiif3` write
/// them. The levels coarser than the tree's last (one tile) are that tile scaled down.
///
/// `info.json` is read with Foundation's JSON decoder, at most `infoByteLimit` of it; a document that is
/// not an image service, names no tiles, or gives sizes no pyramid can have, is refused with why.
package struct IIIFTileSource: TileSource {
    /// The tree's folder, which holds `info.json`.
    package let folder: String
    package let geometry: DeepZoomGeometry
    package let name: String
    let tree: IIIFTree
    /// The coarsest level the tree holds (its one-tile level).
    let coarsest: Int
    /// The tile formats' extensions, in the order they are tried.
    let tileExtensions: [String]
    let reader: TileFileReader

    /// The most of `info.json` read: a service description is a few hundred bytes.
    package static let infoByteLimit = 1 << 20

    /// The service's description, as both versions write it.
    struct Info: Decodable {
        var context: ContextValue?
        var width: Int
        var height: Int
        var tiles: [Tiles]?
        var extraFormats: [String]?
        var profile: ProfileValue?
        var id: String?
        var atID: String?
        var sizes: SizeList?

        struct Tiles: Decodable {
            var width: Int
            var height: Int?
            var scaleFactors: [Int]
        }

        /// `sizes`, which only a thumbnail is chosen from: a list that is no list, or an entry without
        /// whole numbers, is passed over rather than refusing a service whose tiles are fine.
        struct SizeList: Decodable {
            var entries: [Size]
            init(from decoder: any Decoder) throws {
                entries = (try? decoder.singleValueContainer().decode([Size].self)) ?? []
            }
        }

        struct Size: Decodable {
            var width: Int?
            var height: Int?
            private enum Keys: String, CodingKey { case width, height }
            init(from decoder: any Decoder) throws {
                let container = try? decoder.container(keyedBy: Keys.self)
                width = try? container?.decode(Int.self, forKey: .width)
                height = try? container?.decode(Int.self, forKey: .height)
            }
        }

        enum CodingKeys: String, CodingKey {
            case context = "@context", atID = "@id", id, width, height, tiles, extraFormats, profile, sizes
        }

        /// `@context` is a string or a list of them.
        enum ContextValue: Decodable {
            case one(String), many([String])
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let one = try? container.decode(String.self) { self = .one(one) } else { self = .many(try container.decode([String].self)) }
            }
            var texts: [String] { if case .one(let text) = self { [text] } else if case .many(let texts) = self { texts } else { [] } }
        }

        /// Version 2's profile: its level's URI, then what the service offers (its formats).
        enum ProfileValue: Decodable {
            case level(String), described([ProfileEntry])
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let level = try? container.decode(String.self) { self = .level(level) } else {
                    self = .described(try container.decode([ProfileEntry].self))
                }
            }
            var formats: [String] {
                guard case .described(let entries) = self else { return [] }
                return entries.flatMap { $0.formats ?? [] }
            }

            /// The compliance level the profile names ("level0", or version 2's ".../level0.json").
            var level: String? {
                switch self {
                case .level(let level): level
                case .described(let entries): entries.lazy.compactMap { if case .uri(let uri) = $0 { uri } else { nil } }.first
                }
            }
        }

        enum ProfileEntry: Decodable {
            case uri(String), offer(formats: [String]?)
            private enum Keys: String, CodingKey { case formats }
            init(from decoder: any Decoder) throws {
                if let uri = try? decoder.singleValueContainer().decode(String.self) { self = .uri(uri); return }
                let container = try decoder.container(keyedBy: Keys.self)
                self = .offer(formats: try container.decodeIfPresent([String].self, forKey: .formats))
            }
            var formats: [String]? { if case .offer(let formats) = self { formats } else { nil } }
        }
    }

    /// Opens the tree whose `info.json` is at `path`.
    package init(infoAt path: String, decoders: [any ImageDecoding], colour: ColourConversion? = .sRGB,
                 decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw TileSourceError(path: path, reason: .malformedService("cannot read the file"))
        }
        defer { try? handle.close() }
        let service = try Service(json: (try? handle.read(upToCount: Self.infoByteLimit + 1)) ?? Data(), path: path)
        // Absolute, so that a tree opened as `info.json` from inside its folder finds its tiles.
        folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        geometry = service.geometry
        tree = IIIFTree(geometry: geometry, version: service.version)
        coarsest = tree.coarsestLevel
        tileExtensions = service.tileExtensions
        name = folder.lastPathComponentName
        reader = TileFileReader(decoders: decoders, colour: colour, decoding: decoding)
    }

    /// What an `info.json` says of a tree, checked: for a tree on disk and one served over HTTP alike.
    package struct Service: Sendable {
        package let geometry: DeepZoomGeometry
        /// The Image API's major version, 2 or 3.
        package let version: Int
        /// The tile formats' extensions, in the order they are tried: JPEG, every service's format, then
        /// the other image formats the service lists (only those the Image API names, so that a listed
        /// "format" never becomes a path of its own), then PNG, which a version 3 tree need not list.
        package let tileExtensions: [String]
        /// The service's own base URI (`id`, or version 2's `@id`), as written.
        package let id: String?
        /// A level 1 or 2 server: it draws any region at any size asked for.
        package let drawsAnyRegion: Bool
        /// The whole image's sizes the service lists as ready (a static tree's `full/W,H` pictures).
        package let sizes: [PixelSize]
        /// The formats the Image API names for images.
        static let imageFormats: Set<String> = ["jpg", "png", "webp", "gif", "tif", "jp2"]

        /// Reads `data`, the `info.json` at `path` (named in the errors); more than `infoByteLimit`
        /// bytes, or anything but an image service with square tiles, is refused with why.
        package init(json data: Data, path: String) throws(TileSourceError) {
            func refused(_ why: String) -> TileSourceError { TileSourceError(path: path, reason: .malformedService(why)) }
            guard data.count <= IIIFTileSource.infoByteLimit else {
                throw refused("larger than \(IIIFTileSource.infoByteLimit >> 20) MB, not a service description")
            }
            let info: Info
            do {
                info = try JSONDecoder().decode(Info.self, from: data)
            } catch {
                throw refused("not an IIIF image service's info.json (\(IIIFTileSource.describe(error)))")
            }
            let contexts = info.context?.texts ?? []
            // Version 1.1 names its tiles and qualities otherwise (`tile_width`, `native.jpg`): read as a
            // later version, every request would be refused, so the service is, once, with the reason.
            if contexts.contains(where: { $0.contains("/image-api/1") }) {
                throw refused("IIIF Image API 1.1, which is not read (versions 2 and 3 are)")
            }
            // With no @context, version 2's `@id` says which.
            version = contexts.contains { $0.contains("/image/2/") } || (contexts.isEmpty && info.atID != nil) ? 2 : 3
            guard info.width > 0, info.height > 0, info.width <= 1 << 24, info.height <= 1 << 24 else {
                throw refused("an image of \(info.width) × \(info.height) pixels")
            }
            // A level 1 or 2 server draws any region at any size: without tiles of its own, it is asked for
            // the requests a tree of 512-pixel tiles would have, which it draws as asked.
            drawsAnyRegion = info.profile?.level.map { $0.contains("level1") || $0.contains("level2") } ?? false
            guard let tiles = info.tiles?.first ?? (drawsAnyRegion ? Info.Tiles(width: 512, height: nil, scaleFactors: []) : nil) else {
                throw refused("it names no tiles; a static tree has them")
            }
            guard (1...8192).contains(tiles.width), tiles.height.map({ $0 == tiles.width }) ?? true else {
                throw refused("tiles of \(tiles.width) × \(tiles.height ?? tiles.width) pixels; square tiles up to 8192 are read")
            }
            guard tiles.scaleFactors.allSatisfy({ $0 > 0 && $0 <= 1 << 24 && $0 & ($0 - 1) == 0 }) else {
                throw refused("scale factors \(tiles.scaleFactors) are not all powers of two, as a pyramid's are")
            }
            geometry = DeepZoomGeometry(width: info.width, height: info.height, tileSize: tiles.width)
            let listed = ((info.extraFormats ?? []) + (info.profile?.formats ?? [])).map { $0.lowercased() }
            tileExtensions = (["jpg"] + listed.filter(Service.imageFormats.contains) + ["png"]).reduce(into: []) { kept, format in
                if !kept.contains(format) { kept.append(format) }
            }
            id = info.id ?? info.atID
            sizes = (info.sizes?.entries ?? []).compactMap { size in
                guard let width = size.width, let height = size.height, width > 0, height > 0 else { return nil }
                return PixelSize(width: width, height: height)
            }
        }
    }

    /// The tree at `folder` (the folder that holds its `info.json`).
    package static func looksLikeTree(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/info.json")
    }

    package func path(of tile: TileID) -> String {
        folder + "/" + tree.path(of: tile, extension: tileExtensions[0])
    }

    /// `tile`'s file in each format the tree may hold.
    private func candidates(of tile: TileID) -> [String] {
        tileExtensions.map { folder + "/" + tree.path(of: tile, extension: $0) }
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path(of: tile), reason: .noSuchTile) }
        let expected = geometry.region(of: tile)
        let size = PixelSize(width: expected.width, height: expected.height)
        guard tile.level < coarsest else {
            let pixels = try reader.read(firstOf: candidates(of: tile))
            return TileFileReader.normalized(pixels, to: size, path: path(of: tile))
        }
        // Coarser than the tree goes: its one-tile level, scaled down (a level this coarse is one tile too).
        let whole = try reader.read(firstOf: candidates(of: TileID(level: coarsest, column: 0, row: 0)))
        return PixelScaler.scaled(whole, to: size)
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "no \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "\(context.codingPath.map(\.stringValue).joined(separator: ".")) is not what the API says"
        case DecodingError.dataCorrupted: "not JSON"
        default: "\(error)"
        }
    }
}
