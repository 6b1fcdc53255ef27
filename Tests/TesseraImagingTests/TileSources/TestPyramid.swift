import Foundation
import TesseraCore
@testable import TesseraImaging

/// Writes small Deep Zoom pyramids and flat tile folders of known pixels, as `vips dzsave` and the book's
/// TileCutter would, for the tile source tests.
enum TestPyramid {
    /// The pixels of `region` of `buffer`.
    static func crop(_ buffer: PixelBuffer, _ region: PixelRegion) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: region.width * region.height * 4)
        for y in 0..<region.height {
            let from = ((region.y + y) * buffer.width + region.x) * 4
            bytes.replaceSubrange((y * region.width * 4)..<((y + 1) * region.width * 4),
                                  with: buffer.bytes[from..<(from + region.width * 4)])
        }
        return PixelBuffer(width: region.width, height: region.height, bytes: bytes)
    }

    /// Every level of `image`, each the full image scaled to the level's size.
    static func levels(of image: PixelBuffer, geometry: DeepZoomGeometry) -> [PixelBuffer] {
        (0...geometry.maxLevel).map { PixelScaler.scaled(image, to: geometry.levelSize($0)) }
    }

    /// `NAME.dzi` and `NAME_files/` in `folder`; returns the descriptor's path. `fileExtension` may differ
    /// from `format`, as with `vips dzsave --suffix .jpg`.
    @discardableResult
    static func writeDeepZoom(_ image: PixelBuffer, tileSize: Int, overlap: Int, in folder: String, name: String = "test",
                              format: String = "jpeg", fileExtension: String? = nil) throws -> String {
        let geometry = DeepZoomGeometry(width: image.width, height: image.height, tileSize: tileSize, overlap: overlap)
        let tiles = "\(folder)/\(name)_files"
        let levels = levels(of: image, geometry: geometry)
        for level in 0...geometry.maxLevel {
            try FileManager.default.createDirectory(atPath: "\(tiles)/\(level)", withIntermediateDirectories: true)
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) {
                    let tile = TileID(level: level, column: column, row: row)
                    let data = TestJPEG.encode(.bgra(crop(levels[level], geometry.region(of: tile))), quality: 98)
                    try data.write(to: URL(fileURLWithPath: "\(tiles)/\(level)/\(column)_\(row).\(fileExtension ?? format)"))
                }
            }
        }
        let descriptor = DeepZoomDescriptor(width: image.width, height: image.height, tileSize: tileSize,
                                            overlap: overlap, format: format)
        let path = "\(folder)/\(name).dzi"
        try descriptor.xml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The book's flat tiles: `NAME_CC_RR.jpg`, full resolution only.
    static func writeFlat(_ image: PixelBuffer, tileSize: Int, in folder: String, name: String = "Snowman") throws {
        let geometry = DeepZoomGeometry(width: image.width, height: image.height, tileSize: tileSize)
        let level = geometry.maxLevel
        for row in 0..<geometry.rows(level) {
            for column in 0..<geometry.columns(level) {
                let region = geometry.region(of: TileID(level: level, column: column, row: row))
                let data = TestJPEG.encode(.bgra(crop(image, region)), quality: 98)
                let file = String(format: "%@/%@_%02d_%02d.jpg", folder, name, column, row)
                try data.write(to: URL(fileURLWithPath: file))
            }
        }
    }
}
