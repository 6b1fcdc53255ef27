import Foundation
import TesseraCore

/// A static (level 0) IIIF Image API tree's arithmetic over a Deep Zoom geometry without overlap: the one
/// place that knows which request names a tile, for the cutter that writes the tree and the source that
/// reads it. A tile of the level at scale factor `s` (full resolution halved log2 `s` times) is the
/// request for its region in full-resolution pixels at the size it has in its level:
/// `X,Y,W,H/SW,SH/0/default.jpg` (Image API 3) or `X,Y,W,H/SW,/0/default.jpg` (2). The levels run from
/// the full resolution down to the first that fits one tile, the files `vips dzsave --layout iiif3`
/// writes; its `info.json` lists the scale factors of the levels of more than one tile, as vips's does.
package struct IIIFTree: Sendable {
    package let geometry: DeepZoomGeometry
    /// The Image API's major version, 2 or 3.
    package let version: Int

    package init(geometry: DeepZoomGeometry, version: Int) {
        self.geometry = geometry
        self.version = version
    }

    /// The finest level that fits in one tile: the coarsest the tree holds.
    package static func coarsestLevel(of geometry: DeepZoomGeometry) -> Int {
        (0...geometry.maxLevel).last { geometry.tileCount($0) == 1 } ?? 0
    }

    package var coarsestLevel: Int { Self.coarsestLevel(of: geometry) }

    /// How many full-resolution pixels a pixel of `level` stands for, along each side.
    package func scaleFactor(of level: Int) -> Int { 1 << geometry.reduction(of: level) }

    /// The request that names `tile`: its region and its size, as the path writes them.
    package func request(of tile: TileID) -> (region: String, size: String) {
        let factor = scaleFactor(of: tile.level)
        let inLevel = geometry.contentRegion(of: tile)
        let x = tile.column * geometry.tileSize * factor, y = tile.row * geometry.tileSize * factor
        let width = min(geometry.tileSize * factor, geometry.width - x)
        let height = min(geometry.tileSize * factor, geometry.height - y)
        let size = version == 2 ? "\(inLevel.width)," : "\(inLevel.width),\(inLevel.height)"
        return ("\(x),\(y),\(width),\(height)", size)
    }

    /// `tile`'s path inside the tree.
    package func path(of tile: TileID, extension ext: String) -> String {
        let request = request(of: tile)
        return "\(request.region)/\(request.size)/0/default.\(ext)"
    }

    /// The scale factors `info.json` lists: the tree's levels of more than one tile, finest first (the full
    /// resolution's alone when it fits one tile).
    package var listedScaleFactors: [Int] {
        let levels = (coarsestLevel...geometry.maxLevel).reversed().filter { geometry.tileCount($0) > 1 }
        return levels.isEmpty ? [1] : levels.map(scaleFactor(of:))
    }

    /// The tree's `info.json` for a service at `id`, tiles in `format` (its extension).
    package func infoJSON(id: String, format: String) -> String {
        let tiles: [[String: Any]] = [["width": geometry.tileSize, "scaleFactors": listedScaleFactors]]
        var info: [String: Any] = ["protocol": "http://iiif.io/api/image", "tiles": tiles,
                                   "width": geometry.width, "height": geometry.height]
        if version == 2 {
            info["@context"] = "http://iiif.io/api/image/2/context.json"
            info["@id"] = id
            info["profile"] = ["http://iiif.io/api/image/2/level0.json", ["formats": [format], "qualities": ["default"]]] as [Any]
        } else {
            info["@context"] = "http://iiif.io/api/image/3/context.json"
            info["id"] = id
            info["type"] = "ImageService3"
            info["profile"] = "level0"
        }
        let data = (try? JSONSerialization.data(withJSONObject: info, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
