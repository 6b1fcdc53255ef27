import CTurboJPEG
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling

/// A large JPEG read tile by tile at each level's scale (`JPEGRegionSource`): every tile shows what the
/// whole image decoded at that level shows there, upright, in this process and in a decode helper.
final class JPEGRegionSourceTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var helpers: DecodeHelperPool!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        let configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: 256 << 20, timeLimit: .seconds(20))
        helpers = DecodeHelperPool(configuration: configuration)
    }

    override func tearDown() {
        helpers.shutdown()
        dir = nil
    }

    /// 2600 x 1800 (three tiles by two at full size), red across and green down, so a tile from the wrong
    /// place or turned the wrong way does not match.
    private func write(orientation: UInt16?, progressive: Bool = false) throws -> String {
        let picture = TestPixels.gradient(width: 2600, height: 1800)
        var jpeg = progressive ? Self.progressive(picture) : TestJPEG.encode(.bgra(picture), subsampling: TJSAMP_420)
        if let orientation { jpeg = TestExif.jpeg(jpeg, orientation: orientation) }
        let path = dir.url.appendingPathComponent("photo-\(orientation ?? 0)-\(progressive).jpg").path
        try jpeg.write(to: URL(fileURLWithPath: path))
        return path
    }

    private static func progressive(_ picture: PixelBuffer) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = picture.bytes.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(picture.width), Int32(picture.width * 4), Int32(picture.height),
                        Int32(TJPF_BGRA.rawValue), &jpeg, &size, Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE)
        }
        precondition(rc == 0)
        defer { tjFree(jpeg) }
        return Data(bytes: jpeg!, count: Int(size))
    }

    func testEveryTileIsItsPartOfTheWholeImageAtItsLevel() throws {
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()], colour: nil)
        for (orientation, pool) in [(1, nil), (6, nil), (2, helpers), (1, helpers)] as [(UInt16, DecodeHelperPool?)] {
            let path = try write(orientation: orientation)
            let probe = try ImageProbe.probe(path)
            do {
                let source = try XCTUnwrap(JPEGRegionSource.open(path: path, probe: probe, turn: .up, colour: nil, decoding: SandboxedDecoding.service(in: pool)))
                let geometry = source.geometry
                XCTAssertEqual(PixelSize(width: geometry.width, height: geometry.height), probe.size)
                XCTAssertEqual(geometry.tileSize, JPEGRegionSource.tileSize)
                // Full size, 1/2 and 1/4 decoded in parts; 1/8 and 1/16 cut from the image at 1/8 and reduced.
                for level in (geometry.maxLevel - 4)...geometry.maxLevel {
                    let size = geometry.levelSize(level)
                    var whole = try loader.load(path: path, fitting: level == geometry.maxLevel ? nil : size)
                    if whole.size != size { whole = PixelScaler.scaled(whole, to: size) }
                    for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                        let pixels = try source.loadTile(tile)
                        let region = geometry.region(of: tile)
                        XCTAssertEqual(pixels.size, PixelSize(width: region.width, height: region.height), "\(tile)")
                        let expected = JPEGRegionSource.crop(whole, to: region)
                        let place = "orientation \(orientation), helpers \(pool != nil), tile \(tile)"
                        if source.decodeScale(of: level).denominator < 8 {
                            // Decoded where it lies at the level's scale: the whole decode's pixels to within
                            // the rounding of its faster IDCT, at the tile's edges as inside.
                            XCTAssertLessThanOrEqual(Self.largestDifference(pixels, expected), 3, place)
                        } else {
                            XCTAssertGreaterThan(TestPixels.psnr(pixels, expected), 36, place)
                        }
                    }
                }
            }
        }
    }

    /// A level read whole in one decode (what a view showing all of it asks for first) holds each of its
    /// tiles where the tile lies, turned as the tiles are.
    func testAWholeLevelHoldsEachOfItsTiles() throws {
        for (orientation, pool) in [(1, helpers), (6, nil)] as [(UInt16, DecodeHelperPool?)] {
            let path = try write(orientation: orientation)
            let probe = try ImageProbe.probe(path)
            let source = try XCTUnwrap(JPEGRegionSource.open(path: path, probe: probe, turn: .up, colour: nil,
                                                             decoding: SandboxedDecoding.service(in: pool)))
            let geometry = source.geometry
            for level in (geometry.maxLevel - 3)...geometry.maxLevel {
                let size = geometry.levelSize(level)
                let whole = try source.wholeLevel(level)
                XCTAssertEqual(whole.size, size)
                for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                    let part = JPEGRegionSource.crop(whole, to: geometry.region(of: tile))
                    XCTAssertLessThanOrEqual(Self.largestDifference(part, try source.loadTile(tile)), 3,
                                             "orientation \(orientation), tile \(tile)")
                }
            }
            XCTAssertThrowsError(try source.wholeLevel(geometry.maxLevel + 1))
        }
    }

    /// Tiles side by side are the level decoded whole, to the last pixel of each, also where the chroma
    /// changes at every pixel: a tile's edge column is upsampled with its true neighbours.
    func testTilesMeetWithoutSeams() throws {
        var picture = TestPixels.gradient(width: 2600, height: 1800)
        var seed: UInt32 = 7
        for i in picture.bytes.indices where i % 4 != 3 {
            seed = seed &* 1_103_515_245 &+ 12345
            picture.bytes[i] = UInt8(clamping: Int(picture.bytes[i]) + Int(seed >> 27) * 6 - 48)
        }
        let path = dir.url.appendingPathComponent("noisy.jpg").path
        try TestJPEG.encode(.bgra(picture), subsampling: TJSAMP_420).write(to: URL(fileURLWithPath: path))
        let source = try XCTUnwrap(JPEGRegionSource.open(path: path, probe: try ImageProbe.probe(path), turn: .up,
                                                         colour: nil, decoding: .inProcess))
        let file = try XCTUnwrap(FileHandle(forReadingAtPath: path))
        defer { try? file.close() }
        let geometry = source.geometry
        for level in (geometry.maxLevel - 2)...geometry.maxLevel {
            let size = geometry.levelSize(level)
            let whole = try JPEGRegionReader.read(fd: file.fileDescriptor, name: path,
                                                  denominator: source.decodeScale(of: level).denominator,
                                                  region: PixelRegion(x: 0, y: 0, width: size.width, height: size.height))
            for tile in geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                XCTAssertEqual(Self.largestDifference(try source.loadTile(tile), JPEGRegionSource.crop(whole, to: geometry.region(of: tile))),
                               0, "tile \(tile)")
            }
        }
    }

    /// The largest difference of one colour channel between two buffers of one size.
    private static func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.size == b.size)
        var largest = 0
        for i in a.bytes.indices where i % 4 != 3 { largest = max(largest, abs(Int(a.bytes[i]) - Int(b.bytes[i]))) }
        return largest
    }

    func testTheViewsTurnComesAfterTheFilesOrientation() throws {
        let path = try write(orientation: 6)
        let probe = try ImageProbe.probe(path)
        let source = try XCTUnwrap(JPEGRegionSource.open(path: path, probe: probe, turn: .rotated90, colour: nil, decoding: .inProcess))
        XCTAssertEqual(source.geometry.width, 2600, "two quarter turns: landscape again")
        let level = source.geometry.maxLevel - 3
        let tile = try source.loadTile(TileID(level: level, column: 0, row: 0))
        // The file's picture upright (a portrait), then turned a quarter more, at the level's size.
        let portrait = ImageOrientation.rotated90.orientedSize(source.geometry.levelSize(level))
        let upright = try ImageLoader(decoders: [TurboJPEGDecoder()], colour: nil).load(path: path, fitting: portrait)
        let expected = ImageOrientation.rotated90.apply(to: PixelScaler.scaled(upright, to: portrait))
        XCTAssertGreaterThan(TestPixels.psnr(tile, expected), 36)
    }

    func testAProgressiveJPEGIsLeftToBeShownWhole() throws {
        let path = try write(orientation: nil, progressive: true)
        XCTAssertNil(JPEGRegionSource.open(path: path, probe: try ImageProbe.probe(path), turn: .up, colour: nil, decoding: .inProcess))
    }

    /// A baseline frame whose first scan holds one component of three: libjpeg would keep the whole
    /// image's coefficients for it, as for a progressive one, so it is shown whole too.
    func testAJPEGWhoseComponentsComeInScansOfTheirOwnIsLeftToBeShownWhole() throws {
        let path = try write(orientation: nil)
        let probe = try ImageProbe.probe(path)
        XCTAssertNotNil(JPEGRegionSource.open(path: path, probe: probe, turn: .up, colour: nil, decoding: .inProcess))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var scan: JPEGSegments.Segment?
        _ = bytes.withUnsafeBytes { JPEGSegments.walk($0) { segment in
            if segment.marker == 0xDA { scan = segment }
            return true
        } }
        let sos = try XCTUnwrap(scan)
        // One component (the first, its tables 0 and 0), spectral selection 0 to 63, no approximation.
        let oneComponent: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        let separate = bytes.prefix(sos.offset) + oneComponent + bytes.suffix(from: sos.payload.upperBound)
        try separate.write(to: URL(fileURLWithPath: path))
        XCTAssertNil(JPEGRegionSource.open(path: path, probe: try ImageProbe.probe(path), turn: .up, colour: nil, decoding: .inProcess))
    }
}
