import Foundation
import TesseraCore
import TesseraImaging
import TesseraUI
import XCTest

/// Every format and variant the viewer promises, decoded through the viewer's own decoder chain
/// (`ImageDecoders.viewer`), checked pixel by pixel against what was encoded.
final class FormatDecodingTests: XCTestCase {
    private var folder: URL!
    private let loader = ImageLoader(decoders: ImageDecoders.viewer)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-formats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func write(_ data: Data, _ name: String) throws -> String {
        try data.write(to: URL(fileURLWithPath: path(name)))
        return path(name)
    }

    /// Samples the middle of each quadrant: top-left, top-right, bottom-left, bottom-right.
    private func assertQuadrants(_ image: PixelBuffer, _ expected: [RGBA], tolerance: Int, _ what: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let w = image.width, h = image.height
        let points = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
        for ((x, y), want) in zip(points, expected) {
            let got = image.pixel(x: x, y: y)
            XCTAssertTrue(got.isClose(to: want, tolerance: tolerance), "\(what) at \(x),\(y): \(got), expected \(want)",
                          file: file, line: line)
        }
    }

    private let upright = [FormatFixtures.topLeft, FormatFixtures.topRight, FormatFixtures.bottomLeft, FormatFixtures.bottomRight]

    // MARK: - JPEG

    func testJPEGBaselineProgressiveGrayscaleAndCMYK() throws {
        let cases: [(FormatFixtures.JPEGKind, [RGBA])] = [
            (.baseline, upright), (.progressive, upright), (.grayscale, upright.map(FormatFixtures.luma)),
            (.cmyk, upright.map(FormatFixtures.cmykShown)),
        ]
        for (kind, expected) in cases {
            let file = try write(FormatFixtures.jpeg(kind), "\(kind).jpg")
            let image = try loader.load(path: file, fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48), "\(kind)")
            assertQuadrants(image, expected, tolerance: 8, "\(kind) JPEG")
            // Shrink-on-load works for every kind.
            let small = try loader.load(path: file, fitting: PixelSize(width: 16, height: 16))
            XCTAssertEqual(small.size, PixelSize(width: 16, height: 12), "\(kind)")
            assertQuadrants(small, expected, tolerance: 12, "\(kind) JPEG at 16x12")
        }
    }

    // MARK: - PNG

    func testPNGBitDepthsPalettesAlphaAndInterlacing() throws {
        for kind in FormatFixtures.PNGKind.allCases {
            let file = path("\(kind).png")
            FormatFixtures.png(kind, to: file)
            let image = try loader.load(path: file, fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48), "\(kind)")
            switch kind {
            case .gray8:
                assertQuadrants(image, upright.map(FormatFixtures.luma), tolerance: 1, "\(kind)")
            case .rgba8, .rgba16:
                assertQuadrants(image, upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 1, "\(kind)")
            case .paletteWithTransparency:
                let c = upright
                let expected = [RGBA(r: c[0].r, g: c[0].g, b: c[0].b, a: 128), c[1], c[2]]
                assertQuadrants(image, expected, tolerance: 1, "\(kind)")
                XCTAssertEqual(image.pixel(x: 48, y: 36).a, 0, "fully transparent palette entry")
            case .rgb8, .rgb16, .palette, .interlaced:
                assertQuadrants(image, upright, tolerance: 1, "\(kind)")
            }
        }
    }

    /// An eXIf chunk's orientation is honoured for PNG too (6: turned 90° clockwise).
    func testPNGWithExifOrientation() throws {
        let plain = path("plain.png")
        FormatFixtures.png(.rgb8, to: plain)
        let tagged = FormatFixtures.inserting("eXIf", FormatFixtures.exifTIFF(orientation: 6),
                                              intoPNG: try Data(contentsOf: URL(fileURLWithPath: plain)))
        let image = try loader.load(path: try write(tagged, "tagged.png"), fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 48, height: 64))
        let c = upright
        assertQuadrants(image, [c[2], c[0], c[3], c[1]], tolerance: 1, "PNG, orientation 6")
    }

    // MARK: - GIF, BMP, TIFF

    func testGIFStillAndFirstFrameOfAnimation() throws {
        let still = try loader.load(path: try write(FormatFixtures.gif(), "still.gif"), fitting: nil)
        XCTAssertEqual(still.size, PixelSize(width: 64, height: 48))
        assertQuadrants(still, upright, tolerance: 0, "GIF")
        let animated = try loader.load(path: try write(FormatFixtures.gif(secondFrame: RGBA(r: 0, g: 0, b: 0)), "animated.gif"),
                                       fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(animated.size, PixelSize(width: 32, height: 24))
        assertQuadrants(animated, upright, tolerance: 0, "animated GIF, first frame")
    }

    func testBMP24BitBottomUpAnd32BitTopDown() throws {
        for bits in [24, 32] {
            let image = try loader.load(path: try write(FormatFixtures.bmp(bits: bits), "b\(bits).bmp"), fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 63, height: 48), "\(bits)-bit")
            assertQuadrants(image, upright, tolerance: 0, "\(bits)-bit BMP")
            XCTAssertEqual(image.pixel(x: 10, y: 10).a, 255)
        }
    }

    func testTIFFBothByteOrders() throws {
        for bigEndian in [false, true] {
            let image = try loader.load(path: try write(FormatFixtures.tiff(bigEndian: bigEndian), "t\(bigEndian).tif"), fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
            assertQuadrants(image, upright, tolerance: 0, "TIFF, big-endian \(bigEndian)")
        }
    }

    /// The TIFF Orientation tag, all eight values: flips keep the size, turns swap it; nothing is turned
    /// twice (the decoder hands over the rows as stored, the loader turns them).
    func testTIFFOrientations() throws {
        let c = upright
        let cases: [(UInt16, [RGBA])] = [
            (1, c), (2, [c[1], c[0], c[3], c[2]]), (3, [c[3], c[2], c[1], c[0]]), (4, [c[2], c[3], c[0], c[1]]),
            (5, [c[0], c[2], c[1], c[3]]), (6, [c[2], c[0], c[3], c[1]]), (7, [c[3], c[1], c[2], c[0]]), (8, [c[1], c[3], c[0], c[2]]),
        ]
        for (value, expected) in cases {
            let image = try loader.load(path: try write(FormatFixtures.tiff(orientation: value), "o\(value).tif"), fitting: nil)
            XCTAssertEqual(image.size, value >= 5 ? PixelSize(width: 48, height: 64) : PixelSize(width: 64, height: 48))
            assertQuadrants(image, expected, tolerance: 0, "TIFF orientation \(value)")
        }
    }

    // MARK: - WebP

    func testWebPLossyAndLosslessWithAlpha() throws {
        guard FormatFixtures.cwebp != nil else { throw XCTSkip("cwebp is not installed; no WebP encoder is reachable from Swift here") }
        let opaque = path("opaque.png"), translucent = path("translucent.png")
        FormatFixtures.png(.rgb8, to: opaque)
        FormatFixtures.png(.rgba8, alpha: 128, to: translucent)

        XCTAssertTrue(try FormatFixtures.runCWebP(["-q", "90", opaque], output: path("lossy.webp")))
        let lossy = try loader.load(path: path("lossy.webp"), fitting: nil)
        XCTAssertEqual(lossy.size, PixelSize(width: 64, height: 48))
        assertQuadrants(lossy, upright, tolerance: 16, "lossy WebP")

        XCTAssertTrue(try FormatFixtures.runCWebP(["-lossless", "-exact", translucent], output: path("lossless.webp")))
        let lossless = try loader.load(path: path("lossless.webp"), fitting: nil)
        assertQuadrants(lossless, upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 0, "lossless WebP with alpha")
        // Scaled decoding keeps alpha too.
        let small = try loader.load(path: path("lossless.webp"), fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(small.size, PixelSize(width: 32, height: 24))
        assertQuadrants(small, upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 2, "scaled lossless WebP")
    }

    /// cwebp carries a JPEG's EXIF over into the WebP's EXIF chunk; its orientation is honoured.
    func testWebPWithExifOrientation() throws {
        guard FormatFixtures.cwebp != nil else { throw XCTSkip("cwebp is not installed") }
        var jpeg = FormatFixtures.jpeg(.baseline)
        jpeg.insert(contentsOf: FormatFixtures.exifAPP1(orientation: 8), at: 2)
        let source = try write(jpeg, "tagged.jpg")
        guard try FormatFixtures.runCWebP(["-metadata", "exif", "-q", "90", source], output: path("tagged.webp")) else {
            throw XCTSkip("this cwebp cannot read JPEG or keep EXIF")
        }
        let image = try loader.load(path: path("tagged.webp"), fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 48, height: 64))
        let c = upright
        assertQuadrants(image, [c[1], c[3], c[0], c[2]], tolerance: 16, "WebP, orientation 8")
    }
}
