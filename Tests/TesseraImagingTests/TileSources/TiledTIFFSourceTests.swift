import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// Tiled and pyramidal TIFFs read where they lie: each view level from the file's nearest level at least as
/// fine, only the tiles asked for, a broken tile an error of its own.
final class TiledTIFFSourceTests: XCTestCase {
    /// A pyramid whose reduced levels are other pictures than the main image shrunk (the gradient turned
    /// half round), so a tile tells which file level it was read from.
    private func markedPyramid(width: Int, height: Int, downTo smallest: Int) -> [PixelBuffer] {
        let image = TestPixels.gradient(width: width, height: height)
        let flipped = ImageOrientation.rotated180.apply(to: image)
        return TIFFFixtures.pyramid(of: image, downTo: smallest).enumerated().map { index, level in
            index == 0 ? level : PixelScaler.scaled(flipped, to: level.size)
        }
    }

    private func assertSamePixels(_ a: PixelBuffer, _ b: PixelBuffer, _ message: String = "",
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.size, b.size, message, file: file, line: line)
        XCTAssertTrue(a.bytes == b.bytes, "pixels differ: \(message)", file: file, line: line)
    }

    private func open(_ path: String) throws -> TiledTIFFSource {
        try XCTUnwrap(try TiledTIFFSource.open(path: path, colour: nil, maxCoarsestSide: 4096))
    }

    func testPyramidPagesServeEachViewLevelFromTheMatchingFileLevel() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/pyramid.tif"
        let levels = markedPyramid(width: 512, height: 384, downTo: 64)
        XCTAssertEqual(levels.map(\.width), [512, 256, 128, 64])
        try TIFFFixtures.write(levels, to: path, layout: .init(tileSize: 64, compression: .lzw))
        let source = try open(path)
        let geometry = source.geometry
        XCTAssertEqual(geometry, DeepZoomGeometry(width: 512, height: 384, tileSize: 256))
        XCTAssertEqual(source.levels.map(\.size.width), [512, 256, 128, 64])
        for (reduction, fileLevel) in [(0, 0), (1, 1), (2, 2), (3, 3)] {
            let level = geometry.maxLevel - reduction
            for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: 512, height: 512)) {
                let pixels = try source.loadTile(tile)
                let expected = DeepZoomFixtures.crop(levels[fileLevel], geometry.region(of: tile))
                assertSamePixels(pixels, expected, "view \(tile) is file level \(fileLevel)'s pixels exactly")
            }
        }
        // Coarser than the file's coarsest: reduced from it.
        let coarse = geometry.maxLevel - 5
        let tile = TileID(level: coarse, column: 0, row: 0)
        let expected = PixelScaler.scaled(levels[3], to: geometry.levelSize(coarse))
        assertSamePixels(try source.loadTile(tile), expected)
    }

    /// Levels a third apart, not halves: each view level comes from the nearest file level at least as
    /// large, reduced.
    func testLevelsThatDoNotHalveAreReducedFromTheNearestFinerOne() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/thirds.tif"
        let image = TestPixels.gradient(width: 900, height: 600)
        let levels = [image, PixelScaler.scaled(image, to: PixelSize(width: 300, height: 200)),
                      PixelScaler.scaled(image, to: PixelSize(width: 100, height: 67))]
        try TIFFFixtures.write(levels, to: path, layout: .init(tileSize: 64, compression: .deflate))
        let source = try open(path)
        let geometry = source.geometry
        let top = geometry.maxLevel
        // 450x300: from the full image, its tile's 512-pixel square halved.
        let half = try source.loadTile(TileID(level: top - 1, column: 0, row: 0))
        assertSamePixels(half, PixelScaler.scaled(DeepZoomFixtures.crop(image, PixelRegion(x: 0, y: 0, width: 512, height: 512)),
                                                  to: PixelSize(width: 256, height: 256)))
        // 225x150 and 113x75: from the 300x200 level; 57x38: from the 100x67 one.
        for (reduction, fileLevel) in [(2, 1), (3, 1), (4, 2)] {
            let level = top - reduction
            XCTAssertEqual(source.fileLevel(for: level).size, levels[fileLevel].size, "view level \(level)")
            assertSamePixels(try source.loadTile(TileID(level: level, column: 0, row: 0)),
                             PixelScaler.scaled(levels[fileLevel], to: geometry.levelSize(level)), "view level \(level)")
        }
    }

    func testSubIFDLevelsInABigTIFFWithJPEGTiles() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/subifds.tif"
        let levels = markedPyramid(width: 600, height: 400, downTo: 100)
        try TIFFFixtures.write(levels, to: path,
                               layout: .init(bigTIFF: true, tileSize: 128, compression: .jpeg, levelsAsSubIFDs: true))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(4), Data([0x49, 0x49, 0x2B, 0]), "BigTIFF")
        let source = try open(path)
        XCTAssertEqual(source.levels.map(\.size), levels.map(\.size))
        let geometry = source.geometry
        // The view's half-size level (300x200) is the file's first SubIFD; a 1/8 level (75x50) is reduced
        // from the 150x100 one.
        for (reduction, fileLevel) in [(0, 0), (1, 1), (3, 2)] {
            let level = geometry.maxLevel - reduction
            let tile = TileID(level: level, column: 0, row: 0)
            let pixels = try source.loadTile(tile)
            let region = geometry.region(of: tile)
            let size = geometry.levelSize(level)
            let expected = DeepZoomFixtures.crop(PixelScaler.scaled(levels[fileLevel], to: size), region)
            XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 30, "view level \(level) from file level \(fileLevel)")
        }
    }

    func testTilesLargerThanTheViewsAndRegionsAcrossSeveral() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/large-tiles.tif"
        let image = TestPixels.gradient(width: 700, height: 300)
        try TIFFFixtures.write([image], to: path, layout: .init(tileSize: 512, compression: .none))
        let source = try open(path)
        XCTAssertEqual(source.geometry.tileSize, 512, "the file's tile size")
        let geometry = source.geometry
        for tile in geometry.tiles(in: geometry.maxLevel, intersecting: PixelRegion(x: 0, y: 0, width: 700, height: 300)) {
            assertSamePixels(try source.loadTile(tile), DeepZoomFixtures.crop(image, geometry.region(of: tile)), "\(tile)")
        }
        try TIFFFixtures.write([image], to: folder.url.path + "/small-tiles.tif", layout: .init(tileSize: 48))
        let smallTiles = try open(folder.url.path + "/small-tiles.tif")
        XCTAssertEqual(smallTiles.geometry.tileSize, 256)
        let tile = TileID(level: smallTiles.geometry.maxLevel, column: 1, row: 0)
        assertSamePixels(try smallTiles.loadTile(tile), DeepZoomFixtures.crop(image, smallTiles.geometry.region(of: tile)),
                       "a view tile across several file tiles")
    }

    /// Tiles go through the colour stage: a Display P3 file's tiles come out converted to sRGB, the file's
    /// profile describing its reduced levels too.
    func testTilesAreConvertedFromTheFilesProfile() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/p3.tif"
        let image = TestPixels.gradient(width: 512, height: 256)
        let levels = TIFFFixtures.pyramid(of: image, downTo: 128)
        try TIFFFixtures.write(levels, to: path, layout: .init(tileSize: 128, compression: .deflate,
                                                               iccProfile: ColourFixtures.displayP3))
        let source = try XCTUnwrap(try TiledTIFFSource.open(path: path, colour: .sRGB, maxCoarsestSide: 4096))
        let geometry = source.geometry
        for reduction in [0, 1] {
            let tile = TileID(level: geometry.maxLevel - reduction, column: 0, row: 0)
            let stored = DeepZoomFixtures.crop(levels[reduction], geometry.region(of: tile))
            let expected = ColourFixtures.reference(stored, from: ColourFixtures.displayP3)
            let pixels = try source.loadTile(tile)
            XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 40, "level \(tile.level) converted")
            XCTAssertLessThan(TestPixels.psnr(pixels, stored), 40, "level \(tile.level) not left as stored")
        }
    }

    func testACorruptTileIsAnErrorOfItsOwn() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/corrupt.tif"
        let image = TestPixels.gradient(width: 256, height: 128)
        // Tiles of 64: the main image's tile 5 is the second row's second.
        try TIFFFixtures.write([image], to: path, layout: .init(tileSize: 64, compression: .deflate, corruptBlock: 5))
        let source = try TiledTIFFSource.open(path: path, colour: nil, maxCoarsestSide: 4096)
        let tiled = try XCTUnwrap(source)
        // View tiles of 64 would meet one file tile each; at 256 the one view tile holds it.
        let geometry = tiled.geometry
        XCTAssertThrowsError(try tiled.loadTile(TileID(level: geometry.maxLevel, column: 0, row: 0))) {
            guard case .unreadableTile = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try tiled.loadTile(TileID(level: geometry.maxLevel, column: 9, row: 0))) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .noSuchTile)
        }
        // The reader that failed is dropped; the next one reads the same file's good tiles.
        let second = folder.url.path + "/corrupt-second.tif"
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 1024, height: 512), downTo: 256),
                               to: second, layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let pyramid = try open(second)
        let top = pyramid.geometry.maxLevel
        XCTAssertThrowsError(try pyramid.loadTile(TileID(level: top, column: 1, row: 0)))
        XCTAssertNoThrow(try pyramid.loadTile(TileID(level: top, column: 0, row: 0)))
        XCTAssertNoThrow(try pyramid.loadTile(TileID(level: top, column: 2, row: 1)))
        XCTAssertNoThrow(try pyramid.loadTile(TileID(level: top - 1, column: 0, row: 0)), "a reduced level is whole")
    }

    func testStripsAndLargeCoarsestLevelsAreLeftToTheCutter() throws {
        let folder = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 300, height: 200)
        let strips = folder.url.path + "/strips.tif"
        try TIFFFixtures.write([image], to: strips, layout: .init(tileSize: nil))
        XCTAssertNil(try TiledTIFFSource.open(path: strips, colour: nil, maxCoarsestSide: 4096))
        let tiled = folder.url.path + "/tiled.tif"
        try TIFFFixtures.write([image], to: tiled)
        XCTAssertNil(try TiledTIFFSource.open(path: tiled, colour: nil, maxCoarsestSide: 200), "300 wide at its coarsest")
        XCTAssertNotNil(try TiledTIFFSource.open(path: tiled, colour: nil, maxCoarsestSide: 300))
    }

    /// libtiff writes a directory after the data it describes: beyond the first 256 KB of a large file,
    /// where the probe's prefix ends.
    func testTheProbeFindsADirectoryPastThePrefix() throws {
        let folder = try TemporaryDirectory()
        let path = folder.url.path + "/large.tif"
        try TIFFFixtures.write([TestPixels.gradient(width: 640, height: 480)], to: path,
                               layout: .init(tileSize: 64, compression: .none))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        XCTAssertGreaterThan(bytes.count, HeaderFacts.headLength)
        XCTAssertNil(ImageHeader.read(bytes.prefix(HeaderFacts.headLength)), "the prefix does not hold the directory")
        let probe = try ImageProbe.probe(path)
        XCTAssertEqual(probe.format, .tiff)
        XCTAssertEqual(probe.storedSize, PixelSize(width: 640, height: 480))
    }
}
