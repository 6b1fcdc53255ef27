import Foundation
import TesseraCore
import TesseraImaging

/// A folder of full-resolution tiles named `NAME_CC_RR.jpg` (column, then row: the Core Animation book's
/// TileCutter, listing 6.11), with no coarser levels and no descriptor.
///
/// The grid comes from the file names and the image size from the edge tiles' sizes. The coarser levels the
/// view needs are made on demand from the four tiles one level finer (decoded, put side by side, halved) and
/// remembered, so each is made once however many times it is asked for.
package struct FlatTileFolderSource: TileSource {
    package let folder: String
    package let geometry: DeepZoomGeometry
    package let name: String
    /// The tile-name stem ("Snowman" for Snowman_00_00.jpg).
    package let stem: String
    private let files: [GridPosition: String]
    private let reader: TileFileReader
    private let made: CostCache<TileID, PixelBuffer>

    /// - Parameters:
    ///   - colour: how tiles are converted (see `ImageLoader.colour`).
    ///   - madeTileBytes: how many bytes of made (coarser-level) tiles to keep.
    ///   - decoding: where tiles are decoded and their headers read.
    package init(folder: String, decoders: [any ImageDecoding], colour: ColourConversion? = .sRGB,
                madeTileBytes: Int = 64 << 20, decoding: any DecodingService = .inProcess) throws(TileSourceError) {
        guard let scan = Self.scan(folder) else {
            throw TileSourceError(path: folder, reason: .noTiles("no NAME_CC_RR tile files in the folder"))
        }
        guard let grid = TileGridSizes.measure(files: scan.files, decoding: decoding) else {
            throw TileSourceError(path: folder, reason: .noTiles("cannot read the first tile's size"))
        }
        self.folder = folder
        stem = scan.stem
        files = scan.files
        geometry = DeepZoomGeometry(width: grid.imageSize.width, height: grid.imageSize.height, tileSize: grid.tileSize)
        name = folder.lastPathComponentName
        reader = TileFileReader(decoders: decoders, colour: colour, decoding: decoding)
        made = CostCache(totalCostLimit: madeTileBytes)
    }

    /// Whether `folder` holds `NAME_CC_RR` tiles (cheap: names only).
    package static func looksLikeTileFolder(_ folder: String) -> Bool { scan(folder) != nil }

    package func loadTile(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        guard geometry.contains(tile) else { throw TileSourceError(path: folder, reason: .noSuchTile) }
        if tile.level == geometry.maxLevel { return try loadFile(tile) }
        if let pixels = made.value(for: tile) { return pixels }
        let pixels = try make(tile)
        made.insert(pixels, for: tile, cost: pixels.cost)
        return pixels
    }

    private func loadFile(_ tile: TileID, fitting box: PixelSize? = nil) throws(TileSourceError) -> PixelBuffer {
        let position = GridPosition(column: tile.column, row: tile.row)
        let path = files[position] ?? "\(folder)/\(stem)_\(String(format: "%02d_%02d", tile.column, tile.row)).jpg"
        let pixels = try reader.read(firstOf: [path], fitting: box)
        let region = geometry.region(of: tile)
        let expected = box ?? PixelSize(width: region.width, height: region.height)
        return TileFileReader.normalized(pixels, to: expected, path: path)
    }

    /// A coarser tile, made from the tiles up to three levels finer that it stands for. From the files
    /// themselves they are decoded shrunk on load (TurboJPEG's 1/2, 1/4, 1/8), so even the base level
    /// costs a fraction of decoding every file at full size; further down, from made tiles (remembered).
    /// A part that cannot be read stays black rather than losing the whole coarser tile.
    private func make(_ tile: TileID) throws(TileSourceError) -> PixelBuffer {
        let region = geometry.region(of: tile)
        let step = min(3, geometry.maxLevel - tile.level)
        let factor = 1 << step
        let level = tile.level + step
        let columns = (tile.column * factor)..<min((tile.column + 1) * factor, geometry.columns(level))
        let rows = (tile.row * factor)..<min((tile.row + 1) * factor, geometry.rows(level))
        let origin = geometry.region(of: TileID(level: level, column: columns.lowerBound, row: rows.lowerBound))
        let last = geometry.region(of: TileID(level: level, column: columns.upperBound - 1, row: rows.upperBound - 1))
        // Each finer tile's place in the made tile, edges rounded so that neighbours meet exactly.
        func shrunk(_ v: Int) -> Int { (v + factor - 1) / factor }
        let width = shrunk(last.maxX - origin.x), height = shrunk(last.maxY - origin.y)
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var readAny = false
        var firstError: TileSourceError?
        for row in rows {
            for column in columns {
                let part = TileID(level: level, column: column, row: row)
                let r = geometry.region(of: part)
                let x0 = (r.x - origin.x) / factor, y0 = (r.y - origin.y) / factor
                let size = PixelSize(width: shrunk(r.maxX - origin.x) - x0, height: shrunk(r.maxY - origin.y) - y0)
                let pixels: PixelBuffer
                do {
                    pixels = level == geometry.maxLevel
                        ? try loadFile(part, fitting: size) : PixelScaler.scaled(try loadTile(part), to: size)
                } catch {
                    firstError = firstError ?? error
                    continue
                }
                readAny = true
                pixels.bytes.withUnsafeBufferPointer { src in
                    canvas.withUnsafeMutableBufferPointer { dst in
                        for y in 0..<pixels.height {
                            dst.baseAddress!.advanced(by: ((y0 + y) * width + x0) * 4)
                                .update(from: src.baseAddress!.advanced(by: y * pixels.bytesPerRow), count: pixels.bytesPerRow)
                        }
                    }
                }
            }
        }
        if !readAny, let firstError { throw firstError }
        let made = PixelBuffer(width: width, height: height, bytes: canvas)
        return made.width == region.width && made.height == region.height
            ? made : PixelScaler.scaled(made, to: PixelSize(width: region.width, height: region.height))
    }

    /// Tile files by grid position, for the most common stem and extension in the folder.
    private static func scan(_ folder: String) -> (stem: String, files: [GridPosition: String])? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        var groups: [String: [GridPosition: String]] = [:]
        for name in names {
            let url = URL(fileURLWithPath: name)
            guard ["jpg", "jpeg", "png", "webp"].contains(url.pathExtension.lowercased()) else { continue }
            let parts = url.deletingPathExtension().lastPathComponent.split(separator: "_", omittingEmptySubsequences: false)
            guard parts.count >= 3, let column = Int(parts[parts.count - 2]), let row = Int(parts[parts.count - 1]),
                  column >= 0, row >= 0 else { continue }
            let stem = parts.dropLast(2).joined(separator: "_")
            groups["\(stem)\u{0}\(url.pathExtension)", default: [:]][GridPosition(column: column, row: row)] = "\(folder)/\(name)"
        }
        guard let best = groups.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else { return nil }
        let stem = String(best.key.split(separator: "\u{0}", omittingEmptySubsequences: false)[0])
        return (stem, best.value)
    }
}
