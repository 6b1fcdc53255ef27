import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// JPEG XL through libjxl, on files cjxl makes from the quadrants picture.
final class JXLDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private var directory: TemporaryDirectory!
    /// The colour stage is off, so what the decoder declares stays on the pixels.
    private let loader = ImageLoader(decoders: [JXLDecoder()], colour: nil)

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// cjxl `arguments` on the quadrants picture, into `name`.
    private func encode(_ name: String, width: Int = 64, height: Int = 48, alpha: UInt8 = 255, _ arguments: [String]) throws -> String {
        let source = directory.path("source-\(name).png")
        try Tools.writeQuadrantsPNG(to: source, width: width, height: height, alpha: alpha)
        let output = directory.path(name)
        try Tools.run("cjxl", [source, output] + arguments, package: "libjxl-tools")
        return output
    }

    func testLosslessAndLossyDecodeToTheQuadrants() throws {
        for (name, arguments, tolerance) in [("lossless.jxl", ["-d", "0"], 0), ("lossy.jxl", ["-d", "1"], 12)] {
            let path = try encode(name, arguments)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(ImageFormat.sniff(data), .jxl)
            XCTAssertEqual(ImageHeader.read(data)?.size, PixelSize(width: 64, height: 48))
            XCTAssertEqual(ImageHeader.read(data.prefix(64), isWholeFile: false)?.size, PixelSize(width: 64, height: 48),
                           "the size is in the first bytes")
            let image = try loader.load(path: path, fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
            Tools.assertQuadrants(image, tolerance: tolerance, name)
            XCTAssertNil(image.colourProfile, "sRGB needs no profile")
        }
    }

    func testAlphaIsKept() throws {
        let image = try loader.load(path: try encode("alpha.jxl", alpha: 128, ["-d", "0"]), fitting: nil)
        Tools.assertQuadrants(image, Tools.upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 0, "alpha")
    }

    /// Display P3 (an enumerated colour space, no ICC in the file) comes with the profile libjxl makes for it.
    func testWideGamutComesWithAProfile() throws {
        let path = try encode("p3.jxl", ["-d", "0", "-x", "color_space=RGB_D65_DCI_Per_SRG"])
        let image = try loader.load(path: path, fitting: nil)
        let profile = try XCTUnwrap(image.colourProfile)
        XCTAssertEqual(Array(profile[36..<40]), Array("acsp".utf8), "an ICC profile")
        Tools.assertQuadrants(image, tolerance: 0, "pixels as coded, for the colour stage to convert")
    }

    /// A cell of a larger picture: decoded whole, scaled by the loader.
    func testSmallTargetOfALargePicture() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try encode("big.jxl", width: 512, height: 384, ["-d", "1"])))
        let recorder = RecordingDecoder(formats: [.jxl], .forward(JXLDecoder()))
        let cell = try ImageLoader(decoders: [recorder]).load(data: data, name: "big.jxl", fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(cell.size, PixelSize(width: 32, height: 24))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 512, height: 384))
        Tools.assertQuadrants(cell, tolerance: 12, "cell")
    }

    func testTruncatedFileIsAnErrorCellReason() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: try encode("cut.jxl", width: 128, height: 96, ["-d", "1"])))
        let cut = try directory.write(data.prefix(data.count * 2 / 3), to: "short.jxl")
        XCTAssertThrowsError(try loader.load(path: cut, fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
    }

    /// A codestream header claiming 60000 x 60000 in a few bytes is refused before anything is decoded.
    func testBombIsRefusedBeforeDecoding() throws {
        // SizeHeader: small = 0; height - 1 as U32 selector 3 (30 bits); ratio 0; width - 1 the same;
        // then ImageMetadata all_default = 1. Bits are written least significant first.
        var bits: [Bool] = []
        func put(_ value: UInt32, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
        put(0, 1); put(3, 2); put(59999, 30); put(0, 3); put(3, 2); put(59999, 30); put(1, 1)
        var bytes: [UInt8] = [0xFF, 0x0A]
        for start in stride(from: 0, to: bits.count, by: 8) {
            bytes.append(bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
        }
        let bomb = Data(bytes + [UInt8](repeating: 0, count: 64))
        XCTAssertEqual(ImageHeader.read(bomb)?.size, PixelSize(width: 60000, height: 60000))
        let recorder = RecordingDecoder(formats: [.jxl], .forward(JXLDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: bomb, name: "bomb.jxl", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }
}
