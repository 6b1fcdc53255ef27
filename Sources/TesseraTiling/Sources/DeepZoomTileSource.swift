import Foundation
import Logging
import TesseraCore
import TesseraFiles
import TesseraImaging

/// A Deep Zoom pyramid on disk: `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.EXT`, ours or `vips dzsave`'s,
/// any tile size and overlap.
///
/// Extensions: the descriptor's Format names the extension, but `vips dzsave --suffix .jpg[Q=85]` writes
/// `.jpg` files whatever the format says, and "jpeg"/"jpg" are used interchangeably, so the spelling the
/// folder actually uses is found once when opening, and the other one is still tried per tile.
///
/// A descriptor that cannot be read does not end the show: the geometry is then worked out from the tile
/// folder (levels, grid, edge tiles' sizes), so whatever tiles exist are still drawn.
package struct DeepZoomTileSource: TileSource {
    package let descriptorPath: String?
    package let tilesFolder: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// Extensions to try, the one seen on disk first.
    package let extensions: [String]
    let reader: TileFileReader

    /// Opens `NAME.dzi` (and its `NAME_files` folder). Tiles are converted as `colour` says (see
    /// `ImageLoader.colour`); a tile that declares no colour space is sRGB.
    package init(descriptorAt path: String, decoders: [any ImageDecoding],
                colour: ColourConversion? = .sRGB, decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        let folder = DeepZoomDescriptor.tilesFolder(forDescriptorAt: path)
        let descriptor: DeepZoomDescriptor
        do throws(DeepZoomDescriptor.DescriptorError) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw DeepZoomDescriptor.DescriptorError("cannot read the file")
            }
            descriptor = try DeepZoomDescriptor.parse(String(decoding: data.prefix(1 << 20), as: UTF8.self))
        } catch {
            // The descriptor lies or is broken: let the tiles speak for themselves.
            guard let inferred = Self.inferDescriptor(tilesFolder: folder, decoding: decoding) else {
                throw TileSourceError(path: path, reason: .malformedDescriptor(error.description))
            }
            TileFileReader.logger.warning(
                "\(path): \(error.description); using the tile folder's own geometry \(inferred.width)x\(inferred.height)")
            descriptor = inferred
        }
        self.init(tilesFolder: folder, geometry: descriptor.geometry, format: descriptor.format, decoders: decoders,
                  colour: colour, descriptorPath: path, decoding: decoding)
    }

    /// A pyramid whose geometry is already known (the tile cutter's result).
    package init(tilesFolder: String, geometry: DeepZoomGeometry, format: String, decoders: [any ImageDecoding],
                colour: ColourConversion? = .sRGB, descriptorPath: String? = nil, decoding: any DecodingService = .inProcess) {
        self.tilesFolder = tilesFolder
        self.geometry = geometry
        self.descriptorPath = descriptorPath
        name = (descriptorPath ?? tilesFolder).lastPathComponentName
        reader = TileFileReader(decoders: decoders, colour: colour, decoding: decoding)
        var candidates = [format.lowercased()]
        for (a, b) in [("jpeg", "jpg"), ("jpg", "jpeg"), ("tif", "tiff"), ("tiff", "tif")] where candidates[0] == a {
            candidates.append(b)
        }
        // Whichever spelling the coarsest tile has on disk goes first.
        let probe = TileID(level: 0, column: 0, row: 0)
        let onDisk = candidates.first { FileManager.default.fileExists(atPath: Self.path(of: probe, in: tilesFolder, extension: $0)) }
        if let seen = onDisk {
            candidates.removeAll { $0 == seen }
            candidates.insert(seen, at: 0)
        }
        extensions = candidates
    }

    package func path(of tile: TileID) -> String {
        Self.path(of: tile, in: tilesFolder, extension: extensions[0])
    }

    static func path(of tile: TileID, in folder: String, extension ext: String) -> String {
        "\(folder)/\(tile.level)/\(tile.column)_\(tile.row).\(ext)"
    }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: path(of: tile), reason: .noSuchTile) }
        let pixels = try reader.read(firstOf: extensions.map { Self.path(of: tile, in: tilesFolder, extension: $0) })
        let expected = geometry.region(of: tile)
        return TileFileReader.normalized(pixels, to: PixelSize(width: expected.width, height: expected.height),
                                         path: path(of: tile))
    }

    // MARK: - Geometry from the folder

    /// Works out a descriptor from `NAME_files`: the highest numbered level folder is the full image; its
    /// grid comes from the file names, the tile size and overlap from the first tiles' sizes, and the image
    /// size from the last column's and row's tiles (their headers read through `decoding`). Nil when the folder
    /// does not hold such a level.
    static func inferDescriptor(tilesFolder: String, decoding: any DecodingService = .inProcess) -> DeepZoomDescriptor? {
        let fm = FileManager.default
        guard let levels = try? fm.contentsOfDirectory(atPath: tilesFolder).compactMap(Int.init), let top = levels.max(),
              let names = try? fm.contentsOfDirectory(atPath: "\(tilesFolder)/\(top)") else { return nil }
        var files: [GridPosition: String] = [:]
        var extensionCounts: [String: Int] = [:]
        for name in names {
            let url = URL(fileURLWithPath: name)
            let parts = url.deletingPathExtension().lastPathComponent.split(separator: "_")
            guard parts.count == 2, let column = Int(parts[0]), let row = Int(parts[1]), column >= 0, row >= 0 else { continue }
            files[GridPosition(column: column, row: row)] = "\(tilesFolder)/\(top)/\(name)"
            extensionCounts[url.pathExtension.lowercased(), default: 0] += 1
        }
        guard let grid = TileGridSizes.measure(files: files, decoding: decoding),
              let format = extensionCounts.max(by: { $0.value < $1.value })?.key else { return nil }
        let descriptor = DeepZoomDescriptor(width: grid.imageSize.width, height: grid.imageSize.height,
                                            tileSize: grid.tileSize, overlap: grid.overlap, format: format)
        // The folder's numbering must agree with the size, or every path would be wrong.
        guard descriptor.geometry.maxLevel == top else { return nil }
        return descriptor
    }
}

/// A tile's place in a grid of files.
struct GridPosition: Hashable, Sendable {
    var column: Int
    var row: Int
}

/// Tile size, overlap and image size of one full-resolution grid of tile files, measured from the headers of
/// the first, second and last tiles of the first row and column (no pixels decoded).
struct TileGridSizes: Equatable {
    var tileSize: Int
    var overlap: Int
    var imageSize: PixelSize
    var columns: Int
    var rows: Int

    /// Each tile's header is read through `decoding` (see `headerSize`).
    static func measure(files: [GridPosition: String], decoding: any DecodingService = .inProcess) -> TileGridSizes? {
        guard !files.isEmpty else { return nil }
        let columns = (files.keys.map(\.column).max() ?? 0) + 1
        let rows = (files.keys.map(\.row).max() ?? 0) + 1
        func size(_ column: Int, _ row: Int) -> PixelSize? {
            guard let path = files[GridPosition(column: column, row: row)] else { return nil }
            return headerSize(path, decoding: decoding)
        }
        guard let first = size(0, 0) else { return nil }
        // With overlap o: the first tile is T + o wide, inner ones T + 2o (when there are three or more).
        var overlap = 0
        if columns >= 3, let second = size(1, 0) { overlap = max(0, second.width - first.width) }
        else if rows >= 3, let second = size(0, 1) { overlap = max(0, second.height - first.height) }
        var tileSize: Int
        if columns > 1 { tileSize = first.width - overlap } else if rows > 1 { tileSize = first.height - overlap } else {
            tileSize = max(first.width, first.height)
        }
        guard tileSize > 0 else { return nil }
        let lastWidth = columns > 1 ? (size(columns - 1, 0)?.width ?? tileSize + overlap) : first.width
        let lastHeight = rows > 1 ? (size(0, rows - 1)?.height ?? tileSize + overlap) : first.height
        // The last tile starts at (n-1)T - o (or at 0 when it is also the first).
        let width = columns > 1 ? (columns - 1) * tileSize - overlap + lastWidth : lastWidth
        let height = rows > 1 ? (rows - 1) * tileSize - overlap + lastHeight : lastHeight
        guard width > 0, height > 0 else { return nil }
        return TileGridSizes(tileSize: tileSize, overlap: overlap, imageSize: PixelSize(width: width, height: height),
                             columns: columns, rows: rows)
    }

    /// The pixel size from a file's header (`HeaderFacts`), read through `decoding`, as the header of a
    /// JPEG, HEIF or JPEG XL tile takes a C library.
    static func headerSize(_ path: String, decoding: any DecodingService = .inProcess) -> PixelSize? {
        guard let file = try? ImageFile(path: path) else { return nil }
        return try? decoding.header(of: file).storedSize
    }
}
