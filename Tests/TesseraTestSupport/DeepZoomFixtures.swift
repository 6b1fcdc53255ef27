import Foundation
import TesseraCore
import TesseraImaging
import TesseraTiling

/// Deep Zoom pyramids of known pixels, as `vips dzsave` writes them, for the tile source tests and the
/// zoom view's: each test target brings its own tile encoder (JPEG through TurboJPEG, PNG through SDL).
package enum DeepZoomFixtures {
    /// The pixels of `region` of `buffer`.
    package static func crop(_ buffer: PixelBuffer, _ region: PixelRegion) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: region.width * region.height * 4)
        for y in 0..<region.height {
            let from = ((region.y + y) * buffer.width + region.x) * 4
            bytes.replaceSubrange((y * region.width * 4)..<((y + 1) * region.width * 4),
                                  with: buffer.bytes[from..<(from + region.width * 4)])
        }
        return PixelBuffer(width: region.width, height: region.height, bytes: bytes)
    }

    /// `NAME.dzi` and `NAME_files/LEVEL/COLUMN_ROW.EXT` in `folder`, each level the whole image scaled to
    /// the level's size unless `levelImage` gives another picture (to tell levels apart); `writeTile`
    /// writes one tile's pixels to a path. `fileExtension` may differ from `format`, as with
    /// `vips dzsave --suffix .jpg`. Returns the descriptor's path.
    @discardableResult
    package static func writeDeepZoom(_ image: PixelBuffer, tileSize: Int, overlap: Int, in folder: String,
                                     name: String = "test", format: String, fileExtension: String? = nil,
                                     levelImage: ((Int, PixelSize) -> PixelBuffer?)? = nil,
                                     writeTile: (PixelBuffer, String) throws -> Void) throws -> String {
        let geometry = DeepZoomGeometry(width: image.width, height: image.height, tileSize: tileSize, overlap: overlap)
        for level in 0...geometry.maxLevel {
            let size = geometry.levelSize(level)
            let picture = levelImage?(level, size) ?? PixelScaler.scaled(image, to: size)
            let levelFolder = "\(folder)/\(name)_files/\(level)"
            try FileManager.default.createDirectory(atPath: levelFolder, withIntermediateDirectories: true)
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) {
                    let tile = TileID(level: level, column: column, row: row)
                    try writeTile(crop(picture, geometry.region(of: tile)),
                                  "\(levelFolder)/\(column)_\(row).\(fileExtension ?? format)")
                }
            }
        }
        let descriptor = DeepZoomDescriptor(width: image.width, height: image.height, tileSize: tileSize,
                                            overlap: overlap, format: format)
        let path = "\(folder)/\(name).dzi"
        try descriptor.xml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
