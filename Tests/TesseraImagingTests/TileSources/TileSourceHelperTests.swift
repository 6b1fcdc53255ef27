import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling

/// The tiled view's region readers in sandboxed decode helpers (`DecodeHelperRegionServer`): a tiled TIFF's
/// levels and tiles, an SVG's size and tiles, come out byte for byte as in process; a corrupt tile is that
/// tile's error and the rest load; a helper that crashes, runs out of memory or time on one tile fails that
/// tile alone and the next tile loads. The helpers are the built binary's; its debug build carries the
/// test-only misbehaviours (`MisbehavingDecoder.beforeRegion`), switched on by an environment variable.
final class TileSourceHelperTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private func pool(timeLimit: Duration = .seconds(20), helperCount: Int = 1) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: helperCount, memoryLimit: 256 << 20,
                                                           timeLimit: timeLimit)
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        return DecodeHelperPool(configuration: configuration)
    }

    /// Every tile of every level of `source` (coarse levels whole, a few tiles of each finer one).
    private func tiles(of geometry: DeepZoomGeometry) -> [TileID] {
        (0...geometry.maxLevel).flatMap { level in
            geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: 1024, height: 1024))
        }
    }

    private func assertSameTiles(_ inProcess: any TileSource, _ helped: any TileSource, _ name: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(helped.geometry, inProcess.geometry, name, file: file, line: line)
        for tile in tiles(of: inProcess.geometry) {
            let expected = Result { try inProcess.loadTile(tile) }
            let got = Result { try helped.loadTile(tile) }
            switch (expected, got) {
            case (.success(let a), .success(let b)):
                XCTAssertEqual(b.size, a.size, "\(name) \(tile)", file: file, line: line)
                XCTAssertTrue(a.bytes == b.bytes, "\(name) \(tile): the same pixels", file: file, line: line)
            case (.failure(let a), .failure(let b)):
                XCTAssertEqual(b as? TileSourceError, a as? TileSourceError, "\(name) \(tile)", file: file, line: line)
            default:
                XCTFail("\(name) \(tile): \(expected) in process, \(got) through a helper", file: file, line: line)
            }
        }
    }

    private func tiff(_ path: String, colour: ColourConversion? = nil, helpers: DecodeHelperPool?) throws -> TiledTIFFSource {
        try XCTUnwrap(try TiledTIFFSource.open(path: path, colour: colour, maxCoarsestSide: 4096, decoding: SandboxedDecoding.service(in: helpers)))
    }

    // MARK: - Tiled TIFF

    func testTiledTIFFTilesThroughHelpersAreTheTilesInProcess() throws {
        let helpers = pool(helperCount: 2)
        defer { helpers.shutdown() }
        let image = TestPixels.gradient(width: 600, height: 400)
        let pyramid = TIFFFixtures.pyramid(of: image, downTo: 100)
        let thirds = [image, PixelScaler.scaled(image, to: PixelSize(width: 200, height: 133))]
        let cases: [(String, [PixelBuffer], TIFFFixtures.Layout, ColourConversion?)] = [
            ("lzw.tif", pyramid, .init(tileSize: 64, compression: .lzw), nil),
            ("deflate-thirds.tif", thirds, .init(tileSize: 48, compression: .deflate), nil),
            ("jpeg-subifds.tif", pyramid, .init(bigTIFF: true, tileSize: 128, compression: .jpeg, levelsAsSubIFDs: true), nil),
            ("p3.tif", pyramid, .init(tileSize: 256, compression: .deflate, iccProfile: ColourFixtures.displayP3), .sRGB),
        ]
        for (name, levels, layout, colour) in cases {
            let path = dir.path(name)
            try TIFFFixtures.write(levels, to: path, layout: layout)
            let inProcess = try tiff(path, colour: colour, helpers: nil)
            let helped = try tiff(path, colour: colour, helpers: helpers)
            XCTAssertEqual(helped.levels, inProcess.levels, name)
            assertSameTiles(inProcess, helped, name)
        }
    }

    /// CMYK tiles are turned into sRGB where they are read, through the file's profile or the standard
    /// one: in the helper, as in process.
    func testCMYKTilesThroughHelpersAreTheTilesInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let (width, height) = (96, 80)
        var samples: [UInt16] = []
        for i in 0..<(width * height) {
            samples += [UInt16(i % 251), UInt16(i / width * 3 % 256), UInt16(i % width * 255 / width), UInt16(255 - i % 97)]
        }
        let plain = try dir.write(TestTIFF.file([TestTIFF.Page(width: width, height: height, samples: samples,
                                                               samplesPerPixel: 4, photometric: 5)]), to: "cmyk-strips.tif")
        let path = dir.path("cmyk.tif")
        try FormatFixtureTools.run("tiffcp", ["-t", "-w", "32", "-l", "32", "-c", "zip", plain, path], package: "libtiff-tools")
        let inProcess = try tiff(path, helpers: nil)
        XCTAssertTrue(inProcess.levels[0].isSeparated)
        assertSameTiles(inProcess, try tiff(path, helpers: helpers), "cmyk.tif")
    }

    func testACorruptTileThroughHelpersIsThatTilesErrorAndTheRestLoad() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let path = dir.path("corrupt.tif")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 1024, height: 512), downTo: 256),
                               to: path, layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let inProcess = try tiff(path, helpers: nil)
        let helped = try tiff(path, helpers: helpers)
        let top = helped.geometry.maxLevel
        XCTAssertThrowsError(try helped.loadTile(TileID(level: top, column: 1, row: 0))) {
            guard case .unreadableTile = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
        assertSameTiles(inProcess, helped, "corrupt.tif")
    }

    func testAHelperThatFailsOnATIFFTileFailsThatTileAloneAndTheNextLoads() throws {
        let helpers = pool(timeLimit: .seconds(2))
        defer { helpers.shutdown() }
        for (word, failure) in [("tilecrash", "Decoder crashed"), ("tileallocate", "Decoder exceeded its memory limit"),
                                ("tileloop", "Decoder took too long")] {
            let path = dir.path("\(word).tif")
            try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 700, height: 500), downTo: 200),
                                   to: path, layout: .init(tileSize: 256, compression: .deflate))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("tessera-test:\(word)".utf8))
            try handle.close()
            let inProcess = try tiff(path, helpers: nil)
            let helped = try tiff(path, helpers: helpers)
            let top = helped.geometry.maxLevel
            XCTAssertThrowsError(try helped.loadTile(TileID(level: top, column: 0, row: 0)), word) {
                XCTAssertEqual(($0 as? TileSourceError)?.reason, .unreadableTile(failure), word)
            }
            for tile in [TileID(level: top, column: 1, row: 0), TileID(level: top, column: 2, row: 1)] {
                XCTAssertTrue(try helped.loadTile(tile).bytes == inProcess.loadTile(tile).bytes, "\(word) \(tile)")
            }
        }
    }

    /// A helper keeps a file parsed between tiles by the file's identity, size and modification time: a file
    /// rewritten in place (the same inode, the descriptor the view holds) is parsed anew.
    func testATIFFRewrittenInPlaceIsReadAnew() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let path = dir.path("changing.tif")
        let image = TestPixels.gradient(width: 512, height: 256)
        try TIFFFixtures.write([image], to: path, layout: .init(tileSize: 64))
        let inode = try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        let helped = try tiff(path, helpers: helpers)
        let tile = TileID(level: helped.geometry.maxLevel, column: 0, row: 0)
        let before = try helped.loadTile(tile)
        XCTAssertTrue(try before.bytes == tiff(path, helpers: nil).loadTile(tile).bytes)

        try TIFFFixtures.write([ImageOrientation.rotated180.apply(to: image)], to: path, layout: .init(tileSize: 64))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int, inode, "rewritten in place")
        let after = try helped.loadTile(tile)
        XCTAssertTrue(try after.bytes == tiff(path, helpers: nil).loadTile(tile).bytes, "the new pixels")
        XCTAssertFalse(after.bytes == before.bytes)
    }

    func testAnUnreadableTIFFIsRefusedAsInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let path = dir.path("pyramid.tif")
        try TIFFFixtures.write([TestPixels.gradient(width: 300, height: 200)], to: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for (name, data) in [("cut.tif", bytes.prefix(bytes.count / 3)), ("text.tif", Data("II*\0 not a TIFF at all".utf8))] {
            let broken = try dir.write(data, to: name)
            var expected: TileSourceError?
            XCTAssertThrowsError(try TiledTIFFSource.open(path: broken, colour: nil, maxCoarsestSide: 4096)) { expected = $0 as? TileSourceError }
            XCTAssertNotNil(expected, name)
            XCTAssertThrowsError(try TiledTIFFSource.open(path: broken, colour: nil, maxCoarsestSide: 4096, decoding: SandboxedDecoding.service(in: helpers))) {
                XCTAssertEqual($0 as? TileSourceError, expected, name)
            }
        }
        // Strips are left to the cutter either way.
        let strips = dir.path("strips.tif")
        try TIFFFixtures.write([TestPixels.gradient(width: 300, height: 200)], to: strips, layout: .init(tileSize: nil))
        XCTAssertNil(try TiledTIFFSource.open(path: strips, colour: nil, maxCoarsestSide: 4096, decoding: SandboxedDecoding.service(in: helpers)))
    }

    // MARK: - SVG

    /// 100 x 70: a white page, a red disc, a blue diagonal.
    private func svg(ending tail: String = "") -> Data {
        Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="100" height="70">\
            <rect width="100" height="70" fill="white"/><circle cx="40" cy="30" r="25" fill="rgb(200,30,30)"/>\
            <path d="M0 70 L100 0" stroke="rgb(20,40,220)" stroke-width="3"/></svg>\(tail)
            """.utf8)
    }

    private func svgSource(_ path: String, turn: ImageOrientation = .up, colour: ColourConversion? = nil,
                           helpers: DecodeHelperPool?) throws -> SVGTileSource {
        try SVGTileSource(path: path, pixelLimit: 100_000_000, maxMagnification: 4, colour: colour, turn: turn, decoding: SandboxedDecoding.service(in: helpers))
    }

    func testSVGTilesThroughHelpersAreTheTilesInProcess() throws {
        let helpers = pool(helperCount: 2)
        defer { helpers.shutdown() }
        let path = try dir.write(svg(), to: "drawing.svg")
        let colour = ColourConversion(displayProfile: ColourFixtures.displayP3, manager: ColourManager())
        for (turn, colour) in [(ImageOrientation.up, nil), (.rotated90, colour), (.transversed, nil)] {
            let inProcess = try svgSource(path, turn: turn, colour: colour, helpers: nil)
            let helped = try svgSource(path, turn: turn, colour: colour, helpers: helpers)
            XCTAssertEqual(helped.magnification, inProcess.magnification)
            assertSameTiles(inProcess, helped, "drawing.svg \(turn)")
        }
    }

    func testABrokenSVGIsRefusedAsInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let path = try dir.write(svg().prefix(60), to: "cut.svg")
        var expected: TileSourceError?
        XCTAssertThrowsError(try svgSource(path, helpers: nil)) { expected = $0 as? TileSourceError }
        XCTAssertNotNil(expected)
        XCTAssertThrowsError(try svgSource(path, helpers: helpers)) { XCTAssertEqual($0 as? TileSourceError, expected) }
    }

    func testAHelperThatCrashesOnAnSVGTileFailsThatTileAloneAndTheNextLoads() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let path = try dir.write(svg(ending: "<!--tessera-test:tilecrash-->"), to: "crash.svg")
        let inProcess = try svgSource(path, helpers: nil)
        let helped = try svgSource(path, helpers: helpers)
        let top = helped.geometry.maxLevel
        XCTAssertThrowsError(try helped.loadTile(TileID(level: top, column: 0, row: 0))) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .unreadableTile("Decoder crashed"))
        }
        let next = TileID(level: top, column: 1, row: 0)
        XCTAssertTrue(try helped.loadTile(next).bytes == inProcess.loadTile(next).bytes)
    }
}
