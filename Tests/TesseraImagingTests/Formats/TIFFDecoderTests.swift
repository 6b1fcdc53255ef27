import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// TIFF through libtiff: layouts, depths and compressions, orientation, reduced-resolution levels, colour
/// profiles, cut and lying files.
final class TIFFDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private typealias Page = TestTIFF.Page
    private var directory: TemporaryDirectory!
    /// The colour stage is off, so what the decoder declares stays on the pixels.
    private let loader = ImageLoader(decoders: [TIFFDecoder()], colour: nil)
    private let colours = Tools.upright.map { ($0.r, $0.g, $0.b) }

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func rgbPage(width: Int = 64, height: Int = 48) -> Page {
        Page(width: width, height: height, samples: TestTIFF.quadrantSamples(width: width, height: height, colours: colours),
             samplesPerPixel: 3, photometric: 2)
    }

    private func load(_ pages: [Page], fitting box: PixelSize? = nil) throws -> PixelBuffer {
        try loader.load(data: TestTIFF.file(pages), name: "t.tif", fitting: box)
    }

    func testCompressionsAndTiles() throws {
        let source = try directory.write(TestTIFF.file([rgbPage()]), to: "plain.tif")
        let cases: [(String, [String], Int)] = [
            ("lzw", ["-c", "lzw"], 0), ("deflate", ["-c", "zip"], 0), ("packbits", ["-c", "packbits"], 0),
            ("jpeg", ["-c", "jpeg:95", "-r", "16"], 12), ("tiles", ["-t", "-w", "16", "-l", "16", "-c", "lzw"], 0),
            ("strips", ["-s", "-r", "5", "-c", "zip"], 0),
        ]
        for (name, arguments, tolerance) in cases {
            let output = directory.path("\(name).tif")
            try Tools.run("tiffcp", arguments + [source, output], package: "libtiff-tools")
            let image = try loader.load(path: output, fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48), name)
            Tools.assertQuadrants(image, tolerance: tolerance, name)
            // Streamed band by band into the downscaler when there is a target.
            let small = try loader.load(path: output, fitting: PixelSize(width: 32, height: 32))
            XCTAssertEqual(small.size, PixelSize(width: 32, height: 24), name)
            Tools.assertQuadrants(small, tolerance: tolerance + 2, "\(name) at 32x24")
        }
    }

    func testGreyPaletteAndAlphaLayouts() throws {
        let (w, h) = (64, 48)
        let grey = Page(width: w, height: h, samples: (0..<(w * h)).map { UInt16($0 % w < w / 2 ? 40 : 200) },
                        samplesPerPixel: 1, photometric: 1)
        let greyImage = try load([grey])
        XCTAssertEqual(greyImage.pixel(x: 10, y: 10), RGBA(r: 40, g: 40, b: 40))
        XCTAssertEqual(greyImage.pixel(x: 50, y: 10), RGBA(r: 200, g: 200, b: 200))

        let greyAlpha = Page(width: w, height: h, samples: (0..<(w * h)).flatMap { _ in [UInt16(100), UInt16(128)] },
                             samplesPerPixel: 2, photometric: 1, extraSample: 2)
        let greyAlphaPixel = try load([greyAlpha]).pixel(x: 5, y: 5)
        XCTAssertTrue(greyAlphaPixel.isClose(to: RGBA(r: 100, g: 100, b: 100, a: 128), tolerance: 1), "\(greyAlphaPixel)")

        let rgba = Page(width: w, height: h, samples: TestTIFF.quadrantSamples(width: w, height: h, colours: colours, alpha: 128),
                        samplesPerPixel: 4, photometric: 2, extraSample: 2)
        Tools.assertQuadrants(try load([rgba]), Tools.upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }, tolerance: 1,
                              "straight alpha, as the file has it")

        // A colour map has 2^bits entries per channel: all reds, then all greens, then all blues.
        func channel(_ value: (RGBA) -> UInt8) -> [UInt16] {
            Tools.upright.map { UInt16(value($0)) * 257 } + [UInt16](repeating: 0, count: 252)
        }
        let indices = (0..<(w * h)).map { p in UInt16((p / w < h / 2 ? 0 : 2) + (p % w < w / 2 ? 0 : 1)) }
        let palette = Page(width: w, height: h, samples: indices, samplesPerPixel: 1, photometric: 3,
                           colourMap: channel(\.r) + channel(\.g) + channel(\.b))
        Tools.assertQuadrants(try load([palette]), tolerance: 0, "palette")
    }

    /// 16-bit samples are rounded to the nearest 8-bit level, not cut to their high byte.
    func testSixteenBitSamplesAreRounded() throws {
        // 511 is 1.99 levels (high byte 1), 65024 is 253.01 (high byte 254), 32896 is 128.
        let page = Page(width: 4, height: 4, samples: (0..<16).flatMap { _ in [UInt16(511), UInt16(65024), UInt16(32896)] },
                        samplesPerPixel: 3, bitsPerSample: 16, photometric: 2)
        XCTAssertEqual(try load([page]).pixel(x: 1, y: 1), RGBA(r: 2, g: 253, b: 128))
    }

    /// CMYK (InkSet 1) goes through the colour-managed conversion, not libtiff's formula (which makes full
    /// cyan 0, 255, 255); a profile that is not a usable CMYK one gives way to the standard profile, and
    /// none is handed on with the sRGB pixels. ColourFormatsTests compares whole pictures.
    func testCMYKThroughTheColourManagedConversion() throws {
        let values: [UInt8] = (0..<8).flatMap { $0 < 4 ? [0, 0, 0, 0] : [255, 0, 0, 0] as [UInt8] }
        let page = Page(width: 4, height: 2, samples: values.map(UInt16.init), samplesPerPixel: 4, photometric: 5,
                        icc: Array(repeating: 7, count: 200))
        let image = try load([page])
        let reference = ColourFixtures.referenceCMYK(values, width: 4, height: 2, profile: DefaultCMYKProfile.bytes,
                                                     inverted: false)
        for y in 0..<2 {
            XCTAssertTrue(image.pixel(x: 1, y: y).isClose(to: reference.pixel(x: 1, y: y), tolerance: 1),
                          "\(image.pixel(x: 1, y: y)), expected \(reference.pixel(x: 1, y: y))")
        }
        XCTAssertGreaterThan(Int(image.pixel(x: 0, y: 0).r) + Int(image.pixel(x: 0, y: 0).g) + Int(image.pixel(x: 0, y: 0).b),
                             3 * 240, "no ink is paper white")
        XCTAssertFalse(image.pixel(x: 0, y: 1).isClose(to: RGBA(r: 0, g: 255, b: 255), tolerance: 20), "not libtiff's formula")
        XCTAssertNil(image.colourProfile, "a CMYK profile does not describe the RGB pixels that come out")
    }

    /// The layouts read straight from libtiff's strips and tiles show what its RGBA interface shows:
    /// alpha stored premultiplied comes out straight, a fourth RGB sample the file says nothing of is
    /// taken as premultiplied alpha (as libtiff takes it), 16-bit samples round, JPEG-compressed YCbCr comes
    /// out RGB; white-is-zero grey, still read through the RGBA interface, comes out inverted.
    func testStraightAndRGBAInterfaceLayouts() throws {
        let (w, h) = (64, 48)
        let half = Tools.upright.map { RGBA(r: $0.r, g: $0.g, b: $0.b, a: 128) }
        // Premultiplied by 128/255, as associated alpha is stored.
        let premultiplied = TestTIFF.quadrantSamples(width: w, height: h, colours: colours.map {
            (UInt8((Int($0.0) * 128 + 127) / 255), UInt8((Int($0.1) * 128 + 127) / 255), UInt8((Int($0.2) * 128 + 127) / 255))
        }, alpha: 128)
        let associated = Page(width: w, height: h, samples: premultiplied, samplesPerPixel: 4, photometric: 2, extraSample: 1)
        Tools.assertQuadrants(try load([associated]), half, tolerance: 2, "associated alpha")
        let untold = Page(width: w, height: h, samples: premultiplied, samplesPerPixel: 4, photometric: 2)
        Tools.assertQuadrants(try load([untold]), half, tolerance: 2, "a fourth sample, untold")

        let greyAlpha16 = Page(width: w, height: h, samples: (0..<(w * h)).flatMap { _ in [UInt16(100 * 257 + 100), UInt16(128 * 257)] },
                               samplesPerPixel: 2, bitsPerSample: 16, photometric: 1, extraSample: 2)
        XCTAssertEqual(try load([greyAlpha16]).pixel(x: 5, y: 5), RGBA(r: 100, g: 100, b: 100, a: 128), "16-bit grey with alpha")

        var rgb16 = rgbPage()
        rgb16.bitsPerSample = 16
        rgb16.samples = rgb16.samples.map { $0 * 257 }
        let source16 = try directory.write(TestTIFF.file([rgb16]), to: "rgb16.tif")
        let tiled16 = directory.path("rgb16-tiled.tif")
        try Tools.run("tiffcp", ["-t", "-w", "16", "-l", "16", source16, tiled16], package: "libtiff-tools")
        Tools.assertQuadrants(try loader.load(path: tiled16, fitting: nil), tolerance: 0, "16-bit tiles")
        Tools.assertQuadrants(try loader.load(path: tiled16, fitting: PixelSize(width: 32, height: 32)), tolerance: 1,
                              "16-bit tiles shrunk")

        let plain = try directory.write(TestTIFF.file([rgbPage()]), to: "plain.tif")
        let jpegTiles = directory.path("jpeg-tiles.tif")
        try Tools.run("tiffcp", ["-t", "-w", "32", "-l", "16", "-c", "jpeg:95", plain, jpegTiles], package: "libtiff-tools")
        Tools.assertQuadrants(try loader.load(path: jpegTiles, fitting: nil), tolerance: 12, "JPEG-compressed YCbCr tiles")

        let whiteIsZero = Page(width: w, height: h, samples: (0..<(w * h)).map { UInt16($0 % w < w / 2 ? 40 : 200) },
                               samplesPerPixel: 1, photometric: 0)
        XCTAssertEqual(try load([whiteIsZero]).pixel(x: 10, y: 10), RGBA(r: 215, g: 215, b: 215))
    }

    /// The Orientation tag is honoured for all eight values (6: turned 90° clockwise).
    func testOrientationFromTheTag() throws {
        var page = rgbPage()
        page.orientation = 6
        let image = try load([page])
        XCTAssertEqual(image.size, PixelSize(width: 48, height: 64))
        let c = Tools.upright
        Tools.assertQuadrants(image, [c[2], c[0], c[3], c[1]], tolerance: 0, "orientation 6")
    }

    func testFirstPageOfSeveral() throws {
        var second = rgbPage()
        second.samples = Array(repeating: 0, count: second.samples.count)
        second.subfileType = 2
        Tools.assertQuadrants(try load([rgbPage(), second]), tolerance: 0, "first page")
    }

    /// Each page of a multi-page TIFF (a scanned document) decodes as itself, at its own size and turned as
    /// its own Orientation tag says; a reduced level is no page, and a page past the last is refused.
    func testEveryPageOfSeveralDecodesAsItself() throws {
        var second = Page(width: 40, height: 30, samples: Array(repeating: 200, count: 40 * 30 * 3), samplesPerPixel: 3,
                          photometric: 2)
        second.subfileType = 2
        var reduced = rgbPage(width: 32, height: 24)
        reduced.subfileType = 1
        var third = Page(width: 50, height: 20, samples: Array(repeating: 0, count: 50 * 20 * 3), samplesPerPixel: 3,
                         photometric: 2)
        third.subfileType = 2
        third.orientation = 6  // stored on its side, shown upright
        let data = TestTIFF.file([rgbPage(), reduced, second, third])
        func page(_ index: Int) throws -> PixelBuffer {
            try ImageLoader(decoders: [TIFFDecoder()], colour: nil, page: index).load(data: data, name: "scan.tif", fitting: nil)
        }
        Tools.assertQuadrants(try page(0), tolerance: 0, "page 1")
        XCTAssertEqual(try page(1).size, PixelSize(width: 40, height: 30))
        XCTAssertEqual(try page(1).pixel(x: 5, y: 5), RGBA(r: 200, g: 200, b: 200))
        XCTAssertEqual(try page(2).size, PixelSize(width: 20, height: 50))
        XCTAssertEqual(try page(2).pixel(x: 5, y: 5), RGBA(r: 0, g: 0, b: 0))
        XCTAssertThrowsError(try page(3)) {
            XCTAssertEqual(($0 as? ImageLoadError)?.reason, .decodeFailed("the file has no page 4"))
        }
    }

    /// A reduced-resolution level (a later page, or a SubIFD) that covers the target is read instead of
    /// the full image: the levels here are black, so the colours say which was read.
    func testReducedResolutionLevelsShrinkOnLoad() throws {
        var reduced = rgbPage(width: 64, height: 48)
        reduced.samples = Array(repeating: 0, count: reduced.samples.count)
        reduced.subfileType = 1
        var asSubIFD = rgbPage(width: 256, height: 192)
        asSubIFD.subPages = [reduced]
        for (name, pages) in [("page", [rgbPage(width: 256, height: 192), reduced]), ("SubIFD", [asSubIFD])] {
            let cell = try load(pages, fitting: PixelSize(width: 32, height: 32))
            XCTAssertEqual(cell.size, PixelSize(width: 32, height: 24))
            XCTAssertEqual(cell.pixel(x: 8, y: 6), RGBA(r: 0, g: 0, b: 0), "\(name): the reduced level was read")
            let large = try load(pages, fitting: PixelSize(width: 100, height: 100))
            Tools.assertQuadrants(large, tolerance: 2, "\(name): too small a level, the full image")
            Tools.assertQuadrants(try load(pages), tolerance: 0, "\(name): full size")
        }
    }

    func testICCProfileGoesWithThePixels() throws {
        var page = rgbPage()
        page.icc = Array(0..<200).map { UInt8($0) }
        XCTAssertEqual(try load([page]).colourProfile, Array(0..<200).map { UInt8($0) })
        XCTAssertNil(try load([rgbPage()]).colourProfile)
    }

    func testTruncatedAndHugeFiles() {
        let data = TestTIFF.file([rgbPage()])
        XCTAssertThrowsError(try loader.load(data: data.prefix(data.count * 2 / 3), name: "cut.tif", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
        let recorder = RecordingDecoder(formats: [.tiff], .forward(TIFFDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: TestHeaders.tiff(width: 60000, height: 60000, bigEndian: false),
                                                                      name: "bomb.tif", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }
}
