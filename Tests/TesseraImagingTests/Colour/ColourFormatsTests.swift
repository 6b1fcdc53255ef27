import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// The formats beyond JPEG, PNG and WebP through the loader's colour stage: a Display P3 AVIF named by
/// `nclx` code points, an ICC-tagged HEIC, TIFF and JPEG XL, and CMYK TIFFs, each against lcms2 applied
/// by the test to the same pixels (`ColourFixtures.reference`), within half a level.
final class ColourFormatsTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private var dir: TemporaryDirectory!
    private let image = ColourFixtures.colourful(width: 96, height: 64)
    private let box = PixelSize(width: 48, height: 48)

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private func loader(_ colour: ColourConversion?) -> ImageLoader {
        ImageLoader(decoders: ImageDecoders.standard(), colour: colour)
    }

    private var managed: ImageLoader { loader(ColourConversion(displayProfile: nil, manager: ColourManager())) }

    /// `tagged` through the colour stage against lcms2 applied to `plain` as decoded (the same pixels,
    /// untagged), from `profile` to sRGB, at full size and shrunk.
    private func assertManaged(plain: String, tagged: String, profile: [UInt8], _ what: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let raw = try loader(nil).load(path: plain, fitting: nil)
        let reference = ColourFixtures.reference(raw, from: profile)
        let ours = try managed.load(path: tagged, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5, what, file: file, line: line)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(raw, reference), 3, "\(what): the profile must matter",
                             file: file, line: line)
        XCTAssertNil(ours.colourProfile, what, file: file, line: line)
        XCTAssertNil(ours.colourCodePoints, what, file: file, line: line)

        let small = try managed.load(path: tagged, fitting: box)
        let rawSmall = try loader(nil).load(path: plain, fitting: box)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, ColourFixtures.reference(rawSmall, from: profile)), 0.5,
                          "\(what), shrunk", file: file, line: line)
    }

    /// The colourful picture's R, G, B samples, row by row, as TIFF stores them.
    private func rgbSamples(_ pixels: PixelBuffer) -> [UInt16] {
        stride(from: 0, to: pixels.bytes.count, by: 4).flatMap {
            [UInt16(pixels.bytes[$0 + 2]), UInt16(pixels.bytes[$0 + 1]), UInt16(pixels.bytes[$0])]
        }
    }

    // MARK: - HEIF and AVIF

    /// heif-enc's HEIC or AVIF (by `name`'s extension) of `png`, into `name`.
    private func heif(_ png: String, _ name: String) throws -> String {
        let output = dir.path(name)
        try Tools.run("heif-enc", ["-q", "95", "-p", "chroma=444", png, "-o", output], package: "libheif-examples")
        return output
    }

    /// Display P3 as phones write it: `nclx` primaries 12 with the sRGB transfer (13). heif-enc writes an
    /// AVIF's box with unspecified primaries and transfer whatever it is asked; the test rewrites those two.
    func testDisplayP3AVIFNamedByCodePoints() throws {
        let plain = try heif(try dir.write(TilingFixtures.png(image, channels: .rgb), to: "source.png"), "plain.avif")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        let colr = try XCTUnwrap(bytes.indices.first { bytes[$0...].starts(with: Array("colrnclx".utf8)) })
        bytes.replaceSubrange((colr + 8)..<(colr + 12), with: [0, 12, 0, 13])
        let tagged = try dir.write(Data(bytes), to: "p3.avif")
        XCTAssertEqual(try loader(nil).load(path: tagged, fitting: nil).colourCodePoints?.primaries, 12)
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3, "P3 AVIF")
    }

    /// A HEIC with a `prof` colour box: heif-enc copies a PNG's iCCP profile into one.
    func testICCTaggedHEIC() throws {
        let plain = try heif(try dir.write(TilingFixtures.png(image, channels: .rgb), to: "source.png"), "plain.heic")
        let tagged = try heif(ColourFixtures.png(image, iccProfile: ColourFixtures.displayP3, in: dir, name: "p3.png"), "p3.heic")
        XCTAssertEqual(try loader(nil).load(path: tagged, fitting: nil).colourProfile, ColourFixtures.displayP3)
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3, "P3 HEIC")
    }

    // MARK: - TIFF

    func testICCTaggedTIFF() throws {
        var page = TestTIFF.Page(width: image.width, height: image.height, samples: rgbSamples(image), samplesPerPixel: 3,
                                 photometric: 2)
        let plain = try dir.write(TestTIFF.file([page]), to: "plain.tif")
        page.icc = ColourFixtures.displayP3
        let tagged = try dir.write(TestTIFF.file([page]), to: "p3.tif")
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3, "P3 TIFF")
        // Tiled and compressed: the same colours.
        let tiled = dir.path("p3-tiled.tif")
        try Tools.run("tiffcp", ["-t", "-w", "32", "-l", "32", "-c", "zip", tagged, tiled], package: "libtiff-tools")
        try assertManaged(plain: plain, tagged: tiled, profile: ColourFixtures.displayP3, "tiled P3 TIFF")
    }

    /// C, M, Y, K values (0 = no ink) covering inks alone, overprints, black and paper.
    private static func cmykValues(width: Int, height: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                          UInt8((x + y) * 127 / max(1, width + height - 2) + 64), UInt8(x < width / 2 ? 0 : y * 200 / max(1, height - 1))]
            }
        }
        return bytes
    }

    /// CMYK TIFFs (InkSet 1: 0 is no ink) go through `CMYKConversion`: the standard profile when the file
    /// has none, its own when it has one; in strips and tiles, 8 and 16 bits, whole and shrunk on load.
    func testCMYKTIFFThroughTheColourManagedConversion() throws {
        let (w, h) = (40, 24)
        let values = Self.cmykValues(width: w, height: h)
        let swop = try ColourFixtures.ghostscriptCMYK()
        let page = TestTIFF.Page(width: w, height: h, samples: values.map(UInt16.init), samplesPerPixel: 4, photometric: 5)
        var withProfile = page
        withProfile.icc = swop
        var sixteen = page
        sixteen.bitsPerSample = 16
        sixteen.samples = values.map { UInt16($0) * 257 }
        let plain = try dir.write(TestTIFF.file([page]), to: "cmyk.tif")
        let tiled = dir.path("cmyk-tiled.tif")
        try Tools.run("tiffcp", ["-t", "-w", "16", "-l", "16", "-c", "lzw", plain, tiled], package: "libtiff-tools")
        let cases: [(String, String, [UInt8])] = [
            ("strips, standard profile", plain, DefaultCMYKProfile.bytes),
            ("tiles", tiled, DefaultCMYKProfile.bytes),
            ("16-bit", try dir.write(TestTIFF.file([sixteen]), to: "cmyk16.tif"), DefaultCMYKProfile.bytes),
            ("own profile", try dir.write(TestTIFF.file([withProfile]), to: "cmyk-swop.tif"), swop),
        ]
        for (what, path, profile) in cases {
            let reference = ColourFixtures.referenceCMYK(values, width: w, height: h, profile: profile, inverted: false)
            // With colour management off too: CMYK has to become RGB to be seen at all.
            for colour in [ColourConversion.sRGB, nil] {
                let ours = try loader(colour).load(path: path, fitting: nil)
                XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5, what)
                XCTAssertTrue(ours.isOpaque, what)
                XCTAssertNil(ours.colourProfile, "\(what): converted to sRGB, nothing left to declare")
            }
            let small = try managed.load(path: path, fitting: PixelSize(width: 20, height: 20))
            XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, PixelScaler.fit(reference, in: PixelSize(width: 20, height: 20))),
                              1.5, "\(what), shrunk")
        }
        let own = try loader(nil).load(path: cases[3].1, fitting: nil)
        let standard = try loader(nil).load(path: plain, fitting: nil)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(own, standard), 2, "the embedded profile was not used")
    }

    // MARK: - JPEG XL

    /// A CMYK JPEG XL (C, M, Y in the colour channels, K in a black extra channel, a CMYK profile) goes
    /// through `CMYKConversion` with its own profile, black included.
    func testCMYKJPEGXLWithItsBlackChannel() throws {
        let (w, h) = (40, 24)
        let values = Self.cmykValues(width: w, height: h)
        let swop = try ColourFixtures.ghostscriptCMYK()
        let path = try dir.write(JXLFixtures.cmyk(values, width: w, height: h, profile: swop), to: "cmyk.jxl")
        let reference = ColourFixtures.referenceCMYK(values, width: w, height: h, profile: swop, inverted: false)
        for colour in [ColourConversion.sRGB, nil] {
            let ours = try loader(colour).load(path: path, fitting: nil)
            XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
            XCTAssertTrue(ours.isOpaque)
            XCTAssertNil(ours.colourProfile, "converted to sRGB, nothing left to declare")
        }
        var withoutBlack = values
        for i in stride(from: 3, to: withoutBlack.count, by: 4) { withoutBlack[i] = 0 }
        let noBlack = ColourFixtures.referenceCMYK(withoutBlack, width: w, height: h, profile: swop, inverted: false)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(noBlack, reference), 5, "the black channel must matter")
    }

    /// A lossless JPEG XL of a Display P3 PNG keeps the profile (or the enumerated colour space libjxl
    /// recognises in it), and is converted like the PNG.
    func testICCTaggedJPEGXL() throws {
        let taggedPNG = ColourFixtures.png(image, iccProfile: ColourFixtures.displayP3, in: dir, name: "p3.png")
        let tagged = dir.path("p3.jxl")
        try Tools.run("cjxl", [taggedPNG, tagged, "-d", "0"], package: "libjxl-tools")
        let plain = dir.path("plain.jxl")
        try Tools.run("cjxl", [try dir.write(TilingFixtures.png(image, channels: .rgba), to: "plain.png"), plain, "-d", "0"],
                      package: "libjxl-tools")
        XCTAssertNotNil(try loader(nil).load(path: tagged, fitting: nil).colourProfile)
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3, "P3 JPEG XL")
    }
}
