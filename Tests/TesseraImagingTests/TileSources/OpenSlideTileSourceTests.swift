import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// Whole-slide images through OpenSlide, tried on the one format a test can write: a generic tiled TIFF
/// (which the viewer itself leaves to libtiff).
final class OpenSlideTileSourceTests: XCTestCase {
    private func open(_ path: String) throws -> OpenSlideTileSource {
        try XCTUnwrap(try OpenSlideTileSource.open(path: path, colour: nil, maxCoarsestSide: 4096, acceptGenericTIFF: true))
    }

    func testAGenericTiledTIFFReadsEachViewLevelFromTheSlidesLevels() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/slide.tif"
        let image = TestPixels.gradient(width: 512, height: 384)
        let flipped = ImageOrientation.rotated180.apply(to: image)
        // Reduced levels show another picture, so a tile tells which level it came from.
        let levels = TIFFFixtures.pyramid(of: image, downTo: 128).enumerated().map { index, level in
            index == 0 ? level : PixelScaler.scaled(flipped, to: level.size)
        }
        try TIFFFixtures.write(levels, to: path, layout: .init(tileSize: 64, compression: .lzw))
        XCTAssertNil(try OpenSlideTileSource.open(path: path, colour: nil, maxCoarsestSide: 4096),
                     "a generic TIFF is libtiff's unless asked")
        let source = try open(path)
        XCTAssertEqual(source.vendor, "generic-tiff")
        XCTAssertEqual(source.levels.map(\.size.width), [512, 256, 128])
        let geometry = source.geometry
        XCTAssertEqual(geometry, DeepZoomGeometry(width: 512, height: 384))
        for (reduction, slideLevel) in [(0, 0), (1, 1), (2, 2)] {
            let level = geometry.maxLevel - reduction
            let tile = TileID(level: level, column: 0, row: 0)
            let pixels = try source.loadTile(tile)
            let expected = DeepZoomFixtures.crop(levels[slideLevel], geometry.region(of: tile))
            XCTAssertEqual(pixels.size, expected.size)
            XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 45, "view level \(level) is slide level \(slideLevel)")
        }
        let coarse = try source.loadTile(TileID(level: geometry.maxLevel - 6, column: 0, row: 0))
        XCTAssertEqual(coarse.size, geometry.levelSize(geometry.maxLevel - 6), "reduced from the coarsest level")
    }

    func testACorruptTileFailsAloneAndTheSlideReadsOn() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/corrupt.tif"
        let image = TestPixels.gradient(width: 1024, height: 512)
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 128), to: path,
                               layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let source = try open(path)
        let top = source.geometry.maxLevel
        XCTAssertThrowsError(try source.loadTile(TileID(level: top, column: 1, row: 0))) {
            guard case .unreadableTile = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
        let next = try source.loadTile(TileID(level: top, column: 2, row: 1))
        XCTAssertGreaterThan(TestPixels.psnr(next, DeepZoomFixtures.crop(image, source.geometry.region(of: TileID(level: top, column: 2, row: 1)))), 45)
    }

    /// A TIFF whose description starts "Aperio" is an SVS slide to OpenSlide, read without being asked to.
    func testAnAperioSlideIsOpenSlides() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/slide.svs"
        let image = TestPixels.gradient(width: 1024, height: 768)
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 256), to: path,
                               layout: .init(tileSize: 256, compression: .jpeg,
                                             description: "Aperio Image Library v11.2.1\r\n1024x768 [0,0 1024x768] (256x256) JPEG/RGB Q=95|AppMag = 20|MPP = 0.5"))
        let source = try XCTUnwrap(try OpenSlideTileSource.open(path: path, colour: nil, maxCoarsestSide: 4096))
        XCTAssertEqual(source.vendor, "aperio")
        // 256x192 is less than one 256-pixel tile high, which OpenSlide 3.4 reads as transparent: left out.
        XCTAssertEqual(source.levels.map(\.size.width), [1024, 512])
        let tile = TileID(level: source.geometry.maxLevel, column: 1, row: 1)
        XCTAssertGreaterThan(TestPixels.psnr(try source.loadTile(tile), DeepZoomFixtures.crop(image, source.geometry.region(of: tile))), 35)
    }

    func testFilesOpenSlideDoesNotKnowAreLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 64, height: 64))), to: "plain.jpg")
        XCTAssertNil(try OpenSlideTileSource.open(path: path, colour: nil, maxCoarsestSide: 4096, acceptGenericTIFF: true))
    }
}
