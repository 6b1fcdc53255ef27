import Foundation
import TesseraCore
import TesseraTestSupport
@testable import TesseraImaging
@testable import TesseraTiling

/// Writes small Deep Zoom pyramids and flat tile folders of known pixels, as `vips dzsave` and the book's
/// TileCutter would, for the tile source tests.
enum TestPyramid {
    /// Every level of `image`, each the full image scaled to the level's size.
    static func levels(of image: PixelBuffer, geometry: DeepZoomGeometry) -> [PixelBuffer] {
        (0...geometry.maxLevel).map { PixelScaler.scaled(image, to: geometry.levelSize($0)) }
    }

    /// `NAME.dzi` and `NAME_files/` in `folder`, JPEG tiles; returns the descriptor's path. `fileExtension`
    /// may differ from `format`, as with `vips dzsave --suffix .jpg`.
    @discardableResult
    static func writeDeepZoom(_ image: PixelBuffer, tileSize: Int, overlap: Int, in folder: String, name: String = "test",
                              format: String = "jpeg", fileExtension: String? = nil) throws -> String {
        try DeepZoomFixtures.writeDeepZoom(image, tileSize: tileSize, overlap: overlap, in: folder, name: name,
                                           format: format, fileExtension: fileExtension) { tile, path in
            try TestJPEG.encode(.bgra(tile), quality: 98).write(to: URL(fileURLWithPath: path))
        }
    }

    /// The book's flat tiles: `NAME_CC_RR.jpg`, full resolution only.
    static func writeFlat(_ image: PixelBuffer, tileSize: Int, in folder: String, name: String = "Snowman") throws {
        let geometry = DeepZoomGeometry(width: image.width, height: image.height, tileSize: tileSize)
        let level = geometry.maxLevel
        for row in 0..<geometry.rows(level) {
            for column in 0..<geometry.columns(level) {
                let region = geometry.region(of: TileID(level: level, column: column, row: row))
                let data = TestJPEG.encode(.bgra(DeepZoomFixtures.crop(image, region)), quality: 98)
                let file = String(format: "%@/%@_%02d_%02d.jpg", folder, name, column, row)
                try data.write(to: URL(fileURLWithPath: file))
            }
        }
    }
}
