import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// HEIC and AVIF through libheif, on files heif-enc makes from the quadrants picture.
final class HEIFDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private var directory: TemporaryDirectory!
    /// The colour stage is off, so what the decoder declares stays on the pixels.
    private let loader = ImageLoader(decoders: [HEIFDecoder()], colour: nil)

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    /// heif-enc `arguments` on the quadrants picture (width x height), into `name`.
    private func encode(_ name: String, width: Int = 64, height: Int = 48, _ arguments: [String] = []) throws -> String {
        let source = directory.path("source-\(name).png")
        try Tools.writeQuadrantsPNG(to: source, width: width, height: height)
        let output = directory.path(name)
        try Tools.run("heif-enc", ["-q", "95", "-p", "chroma=444"] + arguments + [source, "-o", output], package: "libheif-examples")
        return output
    }

    func testHEICAndAVIFDecodeToTheQuadrants() throws {
        for name in ["q.heic", "q.avif"] {
            let path = try encode(name)
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            XCTAssertEqual(ImageFormat.sniff(data), name.hasSuffix("avif") ? .avif : .heif)
            XCTAssertEqual(ImageHeader.read(data)?.size, PixelSize(width: 64, height: 48))
            // libheif refuses a file whose items reach past its end, so a prefix gives no size (the loader
            // then reads the whole file before asking again).
            XCTAssertNil(ImageHeader.read(data.prefix(data.count / 2), isWholeFile: false))
            let image = try loader.load(path: path, fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48), name)
            Tools.assertQuadrants(image, tolerance: 12, name)
            XCTAssertEqual(image.pixel(x: 5, y: 5).a, 255)
            XCTAssertNil(image.colourProfile, "heif-enc writes sRGB code points, which need no conversion")
            XCTAssertNil(image.colourCodePoints)
        }
    }

    /// A cell that the stored thumbnail covers gets the thumbnail decoded; a bigger one the full picture.
    func testStoredThumbnailIsDecodedWhenItCoversTheTarget() throws {
        let path = try encode("thumbed.heic", width: 256, height: 192, ["-t", "64"])
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let recorder = RecordingDecoder(formats: [.heif], .forward(HEIFDecoder()))
        let loader = ImageLoader(decoders: [recorder])

        let cell = try loader.load(data: data, name: "thumbed.heic", fitting: PixelSize(width: 48, height: 48))
        XCTAssertEqual(cell.size, PixelSize(width: 48, height: 36))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 64, height: 48), "the thumbnail was decoded")
        Tools.assertQuadrants(cell, tolerance: 16, "from the thumbnail")

        _ = try loader.load(data: data, name: "thumbed.heic", fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 256, height: 192), "the thumbnail is too small")
        _ = try loader.load(data: data, name: "thumbed.heic", fitting: nil)
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 256, height: 192))
    }

    /// An AVIF whose colour is stored premultiplied by its alpha (avifenc --premultiply) comes out with
    /// straight colours, not darkened where it is half transparent.
    func testPremultipliedAlphaIsUndone() throws {
        let source = directory.path("half.png")
        try Tools.writeQuadrantsPNG(to: source, alpha: 128)
        let output = directory.path("premultiplied.avif")
        try Tools.run("avifenc", ["--premultiply", "-y", "444", "--min", "0", "--max", "0", "--minalpha", "0", "--maxalpha", "0",
                                  source, output], package: "libavif-bin")
        let image = try loader.load(path: output, fitting: nil)
        Tools.assertQuadrants(image, Tools.upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 4, "straight colours")
    }

    /// A HEIF collection's images, the primary first: each decodes as itself.
    func testEachImageOfACollectionDecodes() throws {
        let red = directory.path("red.png"), blue = directory.path("blue.png")
        try PNGEncoder.write(PixelBuffer(width: 48, height: 32, filledWith: RGBA(r: 220, g: 30, b: 30)), to: red)
        try PNGEncoder.write(PixelBuffer(width: 32, height: 48, filledWith: RGBA(r: 30, g: 30, b: 220)), to: blue)
        let output = directory.path("two.heic")
        try Tools.run("heif-enc", ["-q", "90", red, blue, "-o", output], package: "libheif-examples")
        let first = try loader.load(path: output, fitting: nil)
        let second = try ImageLoader(decoders: [HEIFDecoder()], colour: nil, page: 1).load(path: output, fitting: nil)
        XCTAssertEqual(first.size, PixelSize(width: 48, height: 32))
        XCTAssertTrue(first.pixel(x: 10, y: 10).isClose(to: RGBA(r: 220, g: 30, b: 30), tolerance: 12))
        XCTAssertEqual(second.size, PixelSize(width: 32, height: 48))
        XCTAssertTrue(second.pixel(x: 10, y: 10).isClose(to: RGBA(r: 30, g: 30, b: 220), tolerance: 12))
    }

    /// A stored thumbnail of another shape than its image (cropped, or padded to a square, as some
    /// encoders write them) is not taken for the cell: it would frame another picture.
    func testAThumbnailFramedOtherwiseIsNotUsed() {
        let primary = PixelSize(width: 4032, height: 3024)
        XCTAssertTrue(HEIFDecoder.sameFraming(PixelSize(width: 320, height: 240), primary))
        XCTAssertTrue(HEIFDecoder.sameFraming(PixelSize(width: 321, height: 240), primary), "rounding")
        XCTAssertFalse(HEIFDecoder.sameFraming(PixelSize(width: 240, height: 240), primary), "padded to a square")
        XCTAssertFalse(HEIFDecoder.sameFraming(PixelSize(width: 320, height: 180), primary), "cropped to 16:9")
        XCTAssertFalse(HEIFDecoder.sameFraming(PixelSize(width: 240, height: 320), primary), "turned")
    }

    /// Display P3 named by code points, as phones write it, travels with the pixels for the colour stage.
    func testNonSRGBCodePointsGoWithThePixels() throws {
        // heif-enc 1.15 writes an nclx box of unspecified primaries and transfer whatever it is asked;
        // the box is rewritten to Display P3's: primaries 12, transfer 13 (sRGB's curve), matrix 6.
        let data = try Data(contentsOf: URL(fileURLWithPath: try encode("p3.avif")))
        var bytes = [UInt8](data)
        let colr = try XCTUnwrap(bytes.indices.first { bytes[$0...].starts(with: Array("colrnclx".utf8)) })
        bytes.replaceSubrange((colr + 8)..<(colr + 14), with: [0, 12, 0, 13, 0, 6])
        let image = try loader.load(data: Data(bytes), name: "p3.avif", fitting: nil)
        XCTAssertEqual(image.colourCodePoints?.primaries, 12)
        XCTAssertEqual(image.colourCodePoints?.transfer, 13)
        XCTAssertNil(image.colourProfile)
    }

    func testTruncatedFileIsAnErrorCellReason() throws {
        for name in ["cut.heic", "cut.avif"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: try encode(name, width: 128, height: 96)))
            let cut = try directory.write(data.prefix(data.count * 2 / 3), to: "short-" + name)
            XCTAssertThrowsError(try loader.load(path: cut, fitting: nil), name) { error in
                XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(name): \(error)")
            }
        }
    }

    /// A tiny file whose image spatial extents claim 60000 x 60000 is refused before any decoding.
    func testBombIsRefusedBeforeDecoding() throws {
        for name in ["bomb.heic", "bomb.avif"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: try encode(name)))
            // ispe: version and flags (4 bytes), then width and height.
            let bomb = Tools.patchingFields(after: "ispe", skip: 4, count: 2, to: 60000, in: data)
            let recorder = RecordingDecoder(formats: [.heif, .avif], .forward(HEIFDecoder()))
            XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: bomb, name: name, fitting: nil)) { error in
                XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
            }
            XCTAssertTrue(recorder.calls.isEmpty, "\(name): nothing was decoded")
        }
    }
}
