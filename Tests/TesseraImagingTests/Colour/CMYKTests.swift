import CTurboJPEG
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// CMYK and YCCK JPEGs (Adobe's inverted CMYK, as Photoshop writes it): converted through their
/// embedded profile, or the standard one libvips assumes, to what lcms2 gives for the same values.
final class CMYKTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    /// Inverted CMYK values (255 = no ink) covering inks alone, overprints, black and paper.
    private static func cmykValues(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = UInt8(255 - (x * 255 / max(1, width - 1)))
                let m = UInt8(255 - (y * 255 / max(1, height - 1)))
                let yellow = UInt8((x + y) * 127 / max(1, width + height - 2) + 64)
                let k = UInt8(x < width / 2 ? 255 : 255 - (y * 200 / max(1, height - 1)))
                bytes += [c, m, yellow, k]
            }
        }
        return bytes
    }

    /// The C, M, Y, K bytes TurboJPEG decodes from `jpeg` (what the converter is handed).
    private static func decodedCMYK(_ jpeg: Data) -> (bytes: [UInt8], width: Int, height: Int) {
        let handle = tjInitDecompress()!
        defer { tjDestroy(handle) }
        return jpeg.withUnsafeBytes { raw in
            let src = raw.bindMemory(to: UInt8.self)
            var w: Int32 = 0, h: Int32 = 0, s: Int32 = 0, c: Int32 = 0
            precondition(tjDecompressHeader3(handle, src.baseAddress, UInt(src.count), &w, &h, &s, &c) == 0)
            var out = [UInt8](repeating: 0, count: Int(w * h * 4))
            precondition(tjDecompress2(handle, src.baseAddress, UInt(src.count), &out, w, w * 4, h, Int32(TJPF_CMYK.rawValue), 0) == 0)
            return (out, Int(w), Int(h))
        }
    }

    private let loader = ImageLoader(decoders: ImageDecoders.standard())

    func testCMYKJPEGWithoutAProfileUsesTheStandardOne() throws {
        let jpeg = TestJPEG.encode(.cmyk(width: 48, height: 32, bytes: Self.cmykValues(width: 48, height: 32)))
        let path = try dir.write(jpeg, to: "cmyk.jpg")
        let values = Self.decodedCMYK(jpeg)
        let reference = ColourFixtures.referenceCMYK(values.bytes, width: 48, height: 32, profile: DefaultCMYKProfile.bytes,
                                                     inverted: true)
        let ours = try loader.load(path: path, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
        XCTAssertTrue(ours.isOpaque)
        XCTAssertNil(ours.colourProfile, "converted to sRGB: nothing left to declare")
        // The standard profile is libvips's fallback, "Chemical proof", cut to its CMYK -> Lab tables.
        XCTAssertEqual(DefaultCMYKProfile.bytes.count, 54222)
        XCTAssertEqual(String(decoding: DefaultCMYKProfile.bytes[36..<40], as: UTF8.self), "acsp")
    }

    func testCMYKJPEGWithItsOwnProfile() throws {
        let swop = try ColourFixtures.ghostscriptCMYK()
        let plain = TestJPEG.encode(.cmyk(width: 48, height: 32, bytes: Self.cmykValues(width: 48, height: 32)))
        // Ghostscript's profile is 187 KB: three APP2 segments.
        let path = try dir.write(ColourFixtures.jpeg(plain, withICC: swop), to: "cmyk-swop.jpg")
        let values = Self.decodedCMYK(plain)
        let reference = ColourFixtures.referenceCMYK(values.bytes, width: 48, height: 32, profile: swop, inverted: true)
        let ours = try loader.load(path: path, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
        let withStandard = try loader.load(path: try dir.write(plain, to: "cmyk.jpg"), fitting: nil)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(ours, withStandard), 2, "the embedded profile was not used")
        // Shrunk on load, then converted: the same colours.
        let small = try loader.load(path: path, fitting: PixelSize(width: 12, height: 8))
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, PixelScaler.fit(reference, in: PixelSize(width: 12, height: 8))), 1.5)
    }

    func testABrokenCMYKProfileFallsBackToTheStandardOneWithALogLine() throws {
        let plain = TestJPEG.encode(.cmyk(width: 16, height: 16, bytes: Self.cmykValues(width: 16, height: 16)))
        let tagged = ColourFixtures.jpeg(plain, withICC: ColourFixtures.displayP3)  // an RGB profile on CMYK
        let log = CapturedLog()
        var pixels = Self.decodedCMYK(tagged).bytes
        CMYKConversion(profile: ColourFixtures.displayP3, inverted: true, name: "cmyk.jpg", manager: ColourManager(),
                       logger: log.logger).apply(&pixels)
        XCTAssertEqual(log.warnings.count, 1)
        let standard = try loader.load(data: plain, name: "p", fitting: nil).bytes
        XCTAssertTrue(try loader.load(data: tagged, name: "t", fitting: nil).bytes == standard, "not the standard profile")
        XCTAssertTrue(pixels == standard, "not the standard profile")
    }

    func testUninvertedCMYKAsTIFFStoresIt() {
        // 0 = no ink: paper white and full black at both ends.
        var pixels: [UInt8] = [0, 0, 0, 0, 255, 255, 255, 255]
        CMYKConversion(profile: nil, inverted: false, name: "t").apply(&pixels)
        XCTAssertGreaterThan(Int(pixels[0]) + Int(pixels[1]) + Int(pixels[2]), 3 * 240, "paper is white: \(pixels)")
        XCTAssertLessThan(Int(pixels[4]) + Int(pixels[5]) + Int(pixels[6]), 3 * 60, "all inks are dark: \(pixels)")
        XCTAssertEqual([pixels[3], pixels[7]], [255, 255])
    }
}
