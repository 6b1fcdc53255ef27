import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// Tiles carry no profile, so a tagged image is cut in sRGB (the JPEG and PNG row readers, and CMYK rows);
/// tile sources convert what they read to the display's colour space.
final class ColourTilingTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private let image = ColourFixtures.colourful(width: 300, height: 200)

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    /// Cuts `path` into lossless tiles and returns the full-resolution level, put back together.
    private func cutFullLevel(_ path: String, colourManager: ColourManager? = ColourManager()) throws -> PixelBuffer {
        var options = TileCutterOptions()
        options.format = .png
        options.tileSize = 128
        options.colourManager = colourManager
        let result = try TileCutter(options: options).cut(imageAt: path, into: dir.path("out-\(UUID().uuidString)"))
        let geometry = result.geometry
        let level = geometry.maxLevel
        var whole = PixelBuffer(width: geometry.width, height: geometry.height, filledWith: RGBA(r: 0, g: 0, b: 0, a: 0))
        for row in 0..<geometry.rows(level) {
            for column in 0..<geometry.columns(level) {
                let tile = TileID(level: level, column: column, row: row)
                let region = geometry.region(of: tile)
                let pixels = try TilingFixtures.decode(result.tilesFolder + "/\(level)/\(column)_\(row).png")
                for y in 0..<region.height {
                    let from = y * region.width * 4, to = ((region.y + y) * geometry.width + region.x) * 4
                    whole.bytes.replaceSubrange(to..<(to + region.width * 4), with: pixels.bytes[from..<(from + region.width * 4)])
                }
            }
        }
        return whole
    }

    private func opaque(_ pixels: PixelBuffer) -> PixelBuffer {
        var pixels = pixels
        for i in stride(from: 3, to: pixels.bytes.count, by: 4) { pixels.bytes[i] = 255 }
        return pixels
    }

    func testATaggedJPEGIsCutInSRGB() throws {
        let plain = TestJPEG.encode(.bgra(image), quality: 95)
        let tagged = try dir.write(ColourFixtures.jpeg(plain, withICC: ColourFixtures.displayP3), to: "p3.jpg")
        let raw = try TurboJPEGDecoder().decode(plain, format: .jpeg, targetSize: nil)
        let reference = ColourFixtures.reference(raw, from: ColourFixtures.displayP3)
        let tiles = try cutFullLevel(tagged)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(tiles, reference), 0.5)
        // Colour management off: the pixels as decoded.
        XCTAssertTrue(opaque(try cutFullLevel(tagged, colourManager: nil)).bytes == raw.bytes, "tiles were converted")
    }

    func testATaggedPNGIsCutInSRGB() throws {
        let tagged = ColourFixtures.png(image, iccProfile: ColourFixtures.displayP3, in: dir, name: "p3.png")
        let reference = ColourFixtures.reference(image, from: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(try cutFullLevel(tagged), reference), 0.5)
    }

    func testACMYKJPEGIsCutAsItIsShown() throws {
        var cmyk: [UInt8] = []
        for i in 0..<(image.width * image.height) {
            cmyk += [image.bytes[i * 4 + 2], image.bytes[i * 4 + 1], image.bytes[i * 4], UInt8(255 - i % 97)]
        }
        let jpeg = TestJPEG.encode(.cmyk(width: image.width, height: image.height, bytes: cmyk))
        let path = try dir.write(ColourFixtures.jpeg(jpeg, withICC: try ColourFixtures.ghostscriptCMYK()), to: "cmyk.jpg")
        let shown = try ImageLoader(decoders: ImageDecoders.standard()).load(path: path, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(try cutFullLevel(path), shown), 0.5)
    }

    func testPyramidsCutAsDecodedAreCachedApart() {
        let cache = TilePyramidCache(root: "/cache")
        let modified = Date(timeIntervalSince1970: 1_000_000)
        let managed = cache.folder(forImageAt: "/photos/a.jpg", byteSize: 10, modified: modified)
        XCTAssertEqual(managed, cache.folder(forImageAt: "/photos/a.jpg", byteSize: 10, modified: modified, colourManaged: true))
        XCTAssertNotEqual(managed, cache.folder(forImageAt: "/photos/a.jpg", byteSize: 10, modified: modified, colourManaged: false))
    }

    func testTileSourcesConvertToTheDisplay() throws {
        // A pyramid of sRGB tiles, shown on a Display P3 screen.
        let tiles = try dir.write(TilingFixtures.png(image, channels: .rgba), to: "plain.png")
        var options = TileCutterOptions()
        options.format = .png
        let result = try TileCutter(options: options).cut(imageAt: tiles, into: dir.path("pyramid"))
        let display = ColourConversion(displayProfile: ColourFixtures.displayP3, manager: ColourManager())
        let source = try DeepZoomTileSource(descriptorAt: try XCTUnwrap(result.descriptorPath),
                                            decoders: ImageDecoders.standard(), colour: display)
        let top = TileID(level: result.geometry.maxLevel, column: 0, row: 0)
        let region = result.geometry.region(of: top)
        let expected = ColourFixtures.reference(TilingFixtures.crop(image, region), from: nil, to: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(try source.loadTile(top), expected), 0.5)

        // A plain tagged image shown as one tile per level, on an sRGB screen.
        let tagged = ColourFixtures.png(image, iccProfile: ColourFixtures.displayP3, in: dir, name: "p3.png")
        let single = SingleImageTileSource(path: tagged, size: image.size,
                                           loader: ImageLoader(decoders: ImageDecoders.standard()))
        let full = try single.loadTile(TileID(level: single.geometry.maxLevel, column: 0, row: 0))
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(full, ColourFixtures.reference(image, from: ColourFixtures.displayP3)), 0.5)
    }
}
