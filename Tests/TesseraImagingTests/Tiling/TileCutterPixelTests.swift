import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// The tiles' pixels: the source, and each level the one above halved with vips's 2x2 box.
final class TileCutterPixelTests: XCTestCase {
    /// Levels max, max-1 and max-2 of the reference pyramid, from the full-resolution pixels.
    private func referenceLevels(_ full: PixelBuffer, geometry: DeepZoomGeometry, count: Int) -> [Int: PixelBuffer] {
        var levels = [geometry.maxLevel: full]
        var current = full
        for level in stride(from: geometry.maxLevel - 1, through: max(0, geometry.maxLevel - count + 1), by: -1) {
            current = TilingFixtures.halved(current)
            XCTAssertEqual(current.size, geometry.levelSize(level))
            levels[level] = current
        }
        return levels
    }

    func testPNGRoundTripIsExact() throws {
        let dir = try TemporaryDirectory()
        let image = TilingFixtures.pattern(width: 301, height: 203)
        let source = try dir.write(TilingFixtures.png(image), to: "pattern.png")
        var options = TileCutterOptions()
        options.format = .png
        options.tileSize = 64
        options.overlap = 2
        let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("out"))
        let geometry = result.geometry
        let levels = referenceLevels(image, geometry: geometry, count: geometry.levelCount)
        for (level, reference) in levels {
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) {
                    let tile = TileID(level: level, column: column, row: row)
                    let decoded = try TilingFixtures.decode(result.tilesFolder + "/\(level)/\(column)_\(row).png")
                    let expected = TilingFixtures.crop(reference, geometry.region(of: tile))
                    XCTAssertEqual(decoded.size, expected.size, "\(tile)")
                    XCTAssertTrue(decoded.bytes == expected.bytes, "tile \(tile) differs")
                }
            }
        }
    }

    func testJPEGRoundTripIsClose() throws {
        let dir = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 700, height: 530)
        let data = TestJPEG.encode(.bgra(image), quality: 95)
        let source = try dir.write(data, to: "gradient.jpg")
        // The reference starts from the decoded source, as the cutter does.
        let decodedSource = try TurboJPEGDecoder().decode(data, format: .jpeg, targetSize: nil)
        var options = TileCutterOptions()
        options.overlap = 1
        options.quality = 92
        let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("out"))
        let geometry = result.geometry
        for (level, reference) in referenceLevels(decodedSource, geometry: geometry, count: 3) {
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) {
                    let tile = TileID(level: level, column: column, row: row)
                    let decoded = try TilingFixtures.decode(result.tilesFolder + "/\(level)/\(column)_\(row).jpeg")
                    let expected = TilingFixtures.crop(reference, geometry.region(of: tile))
                    XCTAssertGreaterThan(TestPixels.psnr(decoded, expected), 38, "tile \(tile)")
                }
            }
        }
    }

    func testAlphaIsKeptInPNGTilesAndFlattenedOnBlackInJPEGTiles() throws {
        let dir = try TemporaryDirectory()
        let image = PixelBuffer(width: 20, height: 10, filledWith: RGBA(r: 200, g: 100, b: 50, a: 128))
        let source = try dir.write(TilingFixtures.png(image, channels: .rgba), to: "alpha.png")
        var options = TileCutterOptions()
        options.format = .png
        let png = try TileCutter(options: options).cut(imageAt: source, into: dir.path("png"))
        let pngTile = try TilingFixtures.decode(png.tilesFolder + "/5/0_0.png")
        XCTAssertEqual(pngTile.pixel(x: 3, y: 3), RGBA(r: 200, g: 100, b: 50, a: 128))

        options.format = .jpeg
        let jpeg = try TileCutter(options: options).cut(imageAt: source, into: dir.path("jpeg"))
        let jpegTile = try TilingFixtures.decode(jpeg.tilesFolder + "/5/0_0.jpeg")
        // vips: c * a / 255 truncated = 100, 50, 25.
        XCTAssertTrue(jpegTile.pixel(x: 3, y: 3).isClose(to: RGBA(r: 100, g: 50, b: 25), tolerance: 3),
                      "\(jpegTile.pixel(x: 3, y: 3))")
    }

    func testGreySourceGivesGreyTiles() throws {
        let dir = try TemporaryDirectory()
        let grey = [UInt8]((0..<(40 * 30)).map { UInt8($0 % 251) })
        let source = try dir.write(TestJPEG.encode(.gray(width: 40, height: 30, bytes: grey)), to: "grey.jpg")
        let result = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("out"))
        let data = try Data(contentsOf: URL(fileURLWithPath: result.tilesFolder + "/6/0_0.jpeg"))
        // SOF0's component count: one component for a grey JPEG.
        let bytes = [UInt8](data)
        let sof = (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }!
        XCTAssertEqual(bytes[sof + 9], 1)
    }

    func testProgressiveJPEGBelowTheLimitIsCutWhole() throws {
        let dir = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 300, height: 200)
        let source = try dir.write(TilingFixtures.progressiveJPEG(image), to: "progressive.jpg")
        let result = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("out"))
        let tile = try TilingFixtures.decode(result.tilesFolder + "/9/0_0.jpeg")
        XCTAssertGreaterThan(TestPixels.psnr(tile, TilingFixtures.crop(image, PixelRegion(x: 0, y: 0, width: 256, height: 200))), 30)
    }

    func testOtherFormatsGoThroughTheFallbackDecoder() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestHeaders.bmp(width: 300, height: 100), to: "pic.bmp")
        let decoder = RecordingDecoder(formats: [.bmp], .solid(PixelSize(width: 300, height: 100)))
        let result = try TileCutter(options: TileCutterOptions(), fallbackDecoders: [decoder])
            .cut(imageAt: source, into: dir.path("out"))
        XCTAssertEqual(decoder.calls.count, 1)
        XCTAssertEqual(result.geometry, DeepZoomGeometry(width: 300, height: 100))
        let tile = try TilingFixtures.decode(result.tilesFolder + "/9/1_0.jpeg")
        XCTAssertTrue(tile.pixel(x: 10, y: 10).isClose(to: RGBA(r: 9, g: 9, b: 9), tolerance: 2))
    }
}
