import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling

/// Whole-slide images read by OpenSlide in a helper of the slide's own (`SlideHelper`, opened by path under
/// its lock-down, Landlock letting it read the slide's folder): the levels and every tile come out as in
/// process; a corrupt tile is that tile's error; a helper that crashes on a tile fails that tile alone and
/// the next tile loads in a new helper. Tried on the formats a test can write: a generic tiled TIFF and an
/// Aperio SVS.
final class SlideHelperTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var helpers: DecodeHelperPool!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: 256 << 20, timeLimit: .seconds(20))
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        helpers = DecodeHelperPool(configuration: configuration)
    }

    override func tearDown() {
        helpers.shutdown()
        dir = nil
    }

    private func open(_ path: String, helpers: DecodeHelperPool?) throws -> OpenSlideTileSource {
        try XCTUnwrap(try OpenSlideTileSource.open(path: path, colour: nil, maxCoarsestSide: 4096, acceptGenericTIFF: true,
                                                   decoding: SandboxedDecoding.service(in: helpers)))
    }

    private func assertSameTiles(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let inProcess = try open(path, helpers: nil)
        let helped = try open(path, helpers: helpers)
        XCTAssertEqual(helped.vendor, inProcess.vendor, file: file, line: line)
        XCTAssertEqual(helped.levels, inProcess.levels, file: file, line: line)
        let geometry = inProcess.geometry
        XCTAssertEqual(helped.geometry, geometry, file: file, line: line)
        for level in 0...geometry.maxLevel {
            for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: 1024, height: 1024)) {
                switch (Result { try inProcess.loadTile(tile) }, Result { try helped.loadTile(tile) }) {
                case (.success(let a), .success(let b)):
                    XCTAssertTrue(a.size == b.size && a.bytes == b.bytes, "\(path) \(tile)", file: file, line: line)
                case (.failure(let a), .failure(let b)):
                    XCTAssertEqual(b as? TileSourceError, a as? TileSourceError, "\(path) \(tile)", file: file, line: line)
                case (let a, let b):
                    XCTFail("\(path) \(tile): \(a) in process, \(b) through a helper", file: file, line: line)
                }
            }
        }
    }

    func testSlideTilesThroughItsHelperAreTheTilesInProcess() throws {
        let image = TestPixels.gradient(width: 1024, height: 768)
        let generic = dir.path("slide.tif")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 128), to: generic,
                               layout: .init(tileSize: 64, compression: .lzw))
        try assertSameTiles(generic)
        let aperio = dir.path("slide.svs")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: image, downTo: 256), to: aperio,
                               layout: .init(tileSize: 256, compression: .jpeg,
                                             description: "Aperio Image Library v11.2.1\r\n1024x768 [0,0 1024x768] (256x256) JPEG/RGB Q=95|AppMag = 20|MPP = 0.5"))
        XCTAssertEqual(try XCTUnwrap(try OpenSlideTileSource.open(path: aperio, colour: nil, maxCoarsestSide: 4096,
                                                                  decoding: SandboxedDecoding.service(in: helpers))).vendor, "aperio")
        try assertSameTiles(aperio)
    }

    func testACorruptSlideTileIsThatTilesErrorAndTheRestLoad() throws {
        let path = dir.path("corrupt.tif")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 1024, height: 512), downTo: 128), to: path,
                               layout: .init(tileSize: 256, compression: .deflate, corruptBlock: 1))
        let helped = try open(path, helpers: helpers)
        XCTAssertThrowsError(try helped.loadTile(TileID(level: helped.geometry.maxLevel, column: 1, row: 0))) {
            guard case .unreadableTile = ($0 as? TileSourceError)?.reason else { return XCTFail("\($0)") }
        }
        try assertSameTiles(path)
    }

    func testAHelperThatCrashesOnASlideTileFailsThatTileAloneAndTheNextLoads() throws {
        let path = dir.path("crash.tif")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 700, height: 500), downTo: 200), to: path,
                               layout: .init(tileSize: 256, compression: .deflate))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("tessera-test:tilecrash".utf8))
        try handle.close()
        let inProcess = try open(path, helpers: nil)
        let helped = try open(path, helpers: helpers)
        let top = helped.geometry.maxLevel
        XCTAssertThrowsError(try helped.loadTile(TileID(level: top, column: 0, row: 0))) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .unreadableTile("Decoder crashed"))
        }
        for tile in [TileID(level: top, column: 1, row: 0), TileID(level: top, column: 2, row: 1)] {
            XCTAssertTrue(try helped.loadTile(tile).bytes == inProcess.loadTile(tile).bytes, "\(tile)")
        }
    }

    func testFilesOpenSlideDoesNotKnowAreLeftAlone() throws {
        let jpeg = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 64, height: 64))), to: "plain.jpg")
        XCTAssertNil(try OpenSlideTileSource.open(path: jpeg, colour: nil, maxCoarsestSide: 4096, acceptGenericTIFF: true,
                                                  decoding: SandboxedDecoding.service(in: helpers)))
        let generic = dir.path("generic.tif")
        try TIFFFixtures.write([TestPixels.gradient(width: 300, height: 200)], to: generic)
        XCTAssertNil(try OpenSlideTileSource.open(path: generic, colour: nil, maxCoarsestSide: 4096, decoding: SandboxedDecoding.service(in: helpers)),
                     "a generic TIFF is libtiff's unless asked")
    }
}
