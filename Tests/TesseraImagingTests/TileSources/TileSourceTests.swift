import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

final class TileSourceTests: XCTestCase {
    private let decoders: [any ImageDecoding] = [TurboJPEGDecoder()]

    func testDeepZoomTilesMatchTheSourceAtEveryLevel() throws {
        let folder = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 300, height: 200)
        let path = try TestPyramid.writeDeepZoom(image, tileSize: 64, overlap: 1, in: folder.url.path)
        let source = try DeepZoomTileSource(descriptorAt: path, decoders: decoders)
        let geometry = source.geometry
        XCTAssertEqual(geometry, DeepZoomGeometry(width: 300, height: 200, tileSize: 64, overlap: 1))
        let levels = TestPyramid.levels(of: image, geometry: geometry)
        for level in [geometry.maxLevel, geometry.maxLevel - 2, 0] {
            for tile in [TileID(level: level, column: 0, row: 0),
                         TileID(level: level, column: geometry.columns(level) - 1, row: geometry.rows(level) - 1)] {
                let pixels = try source.loadTile(tile)
                let expected = DeepZoomFixtures.crop(levels[level], geometry.region(of: tile))
                XCTAssertEqual(pixels.size, expected.size, "\(tile)")
                XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 35, "\(tile)")
            }
        }
    }

    func testVipsSuffixIsFoundWhateverTheFormatSays() throws {
        let folder = try TemporaryDirectory()
        let path = try TestPyramid.writeDeepZoom(TestPixels.gradient(width: 100, height: 80), tileSize: 64, overlap: 0,
                                                 in: folder.url.path, format: "jpeg", fileExtension: "jpg")
        let source = try DeepZoomTileSource(descriptorAt: path, decoders: decoders)
        XCTAssertEqual(source.extensions.first, "jpg")
        XCTAssertEqual(try source.loadTile(TileID(level: 7, column: 1, row: 1)).size, PixelSize(width: 36, height: 16))
    }

    func testMissingCorruptAndOutOfRangeTilesAreTypedErrors() throws {
        let folder = try TemporaryDirectory()
        let path = try TestPyramid.writeDeepZoom(TestPixels.gradient(width: 200, height: 150), tileSize: 64, overlap: 0,
                                                 in: folder.url.path)
        let tiles = folder.url.path + "/test_files/8"
        try FileManager.default.removeItem(atPath: tiles + "/1_1.jpeg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 4, 1, 2]).write(to: URL(fileURLWithPath: tiles + "/2_1.jpeg"))
        let source = try DeepZoomTileSource(descriptorAt: path, decoders: decoders)
        XCTAssertThrowsError(try source.loadTile(TileID(level: 8, column: 1, row: 1))) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .missingTile)
        }
        XCTAssertThrowsError(try source.loadTile(TileID(level: 8, column: 2, row: 1))) {
            guard case .unreadableTile = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
        XCTAssertThrowsError(try source.loadTile(TileID(level: 8, column: 9, row: 0))) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .noSuchTile)
        }
        XCTAssertNoThrow(try source.loadTile(TileID(level: 8, column: 0, row: 0)))
    }

    func testMalformedDescriptorFallsBackToTheTileFolder() throws {
        let folder = try TemporaryDirectory()
        let path = try TestPyramid.writeDeepZoom(TestPixels.gradient(width: 300, height: 200), tileSize: 64, overlap: 1,
                                                 in: folder.url.path)
        try "<?xml version=\"1.0\"?><Image TileSize=\"64\" Overl".write(toFile: path, atomically: true, encoding: .utf8)
        let source = try DeepZoomTileSource(descriptorAt: path, decoders: decoders)
        XCTAssertEqual(source.geometry, DeepZoomGeometry(width: 300, height: 200, tileSize: 64, overlap: 1))
        XCTAssertNoThrow(try source.loadTile(TileID(level: 9, column: 4, row: 3)))

        try FileManager.default.removeItem(atPath: folder.url.path + "/test_files")
        XCTAssertThrowsError(try DeepZoomTileSource(descriptorAt: path, decoders: decoders)) {
            guard case .malformedDescriptor = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
    }

    func testTileOfTheWrongSizeIsScaledToItsPlace() throws {
        let folder = try TemporaryDirectory()
        let path = try TestPyramid.writeDeepZoom(TestPixels.gradient(width: 128, height: 128), tileSize: 64, overlap: 0,
                                                 in: folder.url.path)
        // The descriptor claims twice the size: the tiles on disk are half what each level expects.
        try DeepZoomDescriptor(width: 256, height: 256, tileSize: 64, overlap: 0, format: "jpeg").xml
            .write(toFile: path, atomically: true, encoding: .utf8)
        let source = try DeepZoomTileSource(descriptorAt: path, decoders: decoders)
        XCTAssertEqual(try source.loadTile(TileID(level: 2, column: 0, row: 0)).size, PixelSize(width: 4, height: 4))
        XCTAssertThrowsError(try source.loadTile(TileID(level: 8, column: 0, row: 0)), "that level does not exist")
    }

    func testFlatFolderGeometryFromNamesAndEdgeTilesAndMadeCoarseLevels() throws {
        let folder = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 300, height: 170)
        try TestPyramid.writeFlat(image, tileSize: 128, in: folder.url.path)
        try Data("not a tile".utf8).write(to: folder.url.appendingPathComponent("README_1_2.txt"))
        XCTAssertTrue(FlatTileFolderSource.looksLikeTileFolder(folder.url.path))
        let source = try FlatTileFolderSource(folder: folder.url.path, decoders: decoders)
        XCTAssertEqual(source.stem, "Snowman")
        XCTAssertEqual(source.geometry, DeepZoomGeometry(width: 300, height: 170, tileSize: 128))
        let geometry = source.geometry
        let levels = TestPyramid.levels(of: image, geometry: geometry)
        for tile in [TileID(level: geometry.maxLevel, column: 2, row: 1), TileID(level: geometry.maxLevel - 1, column: 1, row: 0),
                     TileID(level: 3, column: 0, row: 0)] {
            let pixels = try source.loadTile(tile)
            let expected = DeepZoomFixtures.crop(levels[tile.level], geometry.region(of: tile))
            XCTAssertEqual(pixels.size, expected.size, "\(tile)")
            XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 30, "\(tile)")
        }
    }

    func testSingleImageLevelsAreShrunkOnLoad() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 400, height: 300))), to: "photo.jpg")
        let probe = try ImageProbe.probe(path)
        XCTAssertEqual(probe.size, PixelSize(width: 400, height: 300))
        let source = SingleImageTileSource(path: path, size: probe.size, loader: ImageLoader(decoders: decoders))
        XCTAssertEqual(source.geometry.tileCount(source.geometry.maxLevel), 1)
        XCTAssertEqual(try source.loadTile(TileID(level: source.geometry.maxLevel - 2, column: 0, row: 0)).size,
                       PixelSize(width: 100, height: 75))
        XCTAssertEqual(try source.loadTile(TileID(level: source.geometry.maxLevel, column: 0, row: 0)).size,
                       PixelSize(width: 400, height: 300))
        XCTAssertThrowsError(try ImageProbe.probe(folder.path("nothing.jpg")))
    }

    func testPyramidCacheIsKeyedByPathSizeAndTime() {
        let cache = TilePyramidCache(root: "/tmp/c")
        let a = cache.folder(forImageAt: "/x/a.jpg", byteSize: 10, modified: Date(timeIntervalSince1970: 100))
        // Named after MD5("/x/a.jpg\0" + "10\0" + "100000"), milliseconds (digest from Python's hashlib):
        // pyramids cut by earlier builds are found again.
        XCTAssertEqual(a, "/tmp/c/c635db311953862e0b59222f7e944d9b")
        XCTAssertEqual(a, cache.folder(forImageAt: "/x/../x/a.jpg", byteSize: 10, modified: Date(timeIntervalSince1970: 100)))
        XCTAssertNotEqual(a, cache.folder(forImageAt: "/x/a.jpg", byteSize: 11, modified: Date(timeIntervalSince1970: 100)))
        XCTAssertNotEqual(a, cache.folder(forImageAt: "/x/a.jpg", byteSize: 10, modified: Date(timeIntervalSince1970: 101)))
        XCTAssertEqual(TilePyramidCache.defaultRoot(environment: ["XDG_CACHE_HOME": "/xdg", "HOME": "/home/u"]), "/xdg/tessera/tiles")
        XCTAssertEqual(TilePyramidCache.defaultRoot(environment: ["HOME": "/home/u"]), "/home/u/.cache/tessera/tiles")
    }
}
