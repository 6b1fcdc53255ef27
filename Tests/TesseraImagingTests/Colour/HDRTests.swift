import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// HDR photos (the PQ and HLG transfers with BT.2020 primaries, as HDR AVIF, HEIC and JPEG XL files
/// declare them) on an SDR screen. Each file is made from a known SDR picture placed at reference white
/// (203 cd/m², BT.2408), with BT.2100's formulas computed here, and must come out as that picture.
final class HDRTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private let loader = ImageLoader(decoders: ImageDecoders.standard(),
                                     colour: ColourConversion(displayProfile: nil, manager: ColourManager()))

    enum Transfer { case pq, hlg }

    // MARK: - The SDR picture in HDR terms (BT.2100, BT.2087, BT.2408)

    private static func sRGBToLinear(_ level: UInt8) -> Double {
        let v = Double(level) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    /// BT.2087's BT.709 to BT.2020 matrix for linear light.
    private static func toBT2020(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        (0.6274 * r + 0.3293 * g + 0.0433 * b, 0.0691 * r + 0.9195 * g + 0.0114 * b, 0.0164 * r + 0.0880 * g + 0.8956 * b)
    }

    /// ST 2084's inverse EOTF.
    static func pqSignal(nits: Double) -> Double {
        let m1 = 2610.0 / 16384, m2 = 2523.0 / 4096 * 128
        let c1 = 3424.0 / 4096, c2 = 2413.0 / 4096 * 32, c3 = 2392.0 / 4096 * 32
        let y = pow(max(nits, 0) / 10000, m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// HLG signals for display light (cd/m², BT.2020) on BT.2100's 1000 cd/m² display: the inverse OOTF
    /// (system gamma 1.2), then the OETF.
    static func hlgSignals(nits rgb: (Double, Double, Double)) -> (Double, Double, Double) {
        let displayLuminance = 0.2627 * rgb.0 + 0.6780 * rgb.1 + 0.0593 * rgb.2
        guard displayLuminance > 0 else { return (0, 0, 0) }
        let sceneLuminance = pow(displayLuminance / 1000, 1 / 1.2)
        let gain = 1000 * pow(sceneLuminance, 0.2)
        func oetf(_ e: Double) -> Double {
            let a = 0.17883277, b = 1 - 4 * a, c = 0.5 - a * log(4 * a)
            return e <= 1.0 / 12 ? (3 * e).squareRoot() : a * log(12 * e - b) + c
        }
        return (oetf(rgb.0 / gain), oetf(rgb.1 / gain), oetf(rgb.2 / gain))
    }

    /// 16-bit R, G, B samples of `picture` (sRGB) with its white at reference white, in BT.2020 and `transfer`.
    static func hdrSamples(_ picture: PixelBuffer, _ transfer: Transfer) -> [UInt16] {
        var samples: [UInt16] = []
        samples.reserveCapacity(picture.width * picture.height * 3)
        for i in stride(from: 0, to: picture.bytes.count, by: 4) {
            let (r, g, b) = toBT2020(sRGBToLinear(picture.bytes[i + 2]), sRGBToLinear(picture.bytes[i + 1]),
                                     sRGBToLinear(picture.bytes[i]))
            let signals: (Double, Double, Double)
            switch transfer {
            case .pq: signals = (pqSignal(nits: r * 203), pqSignal(nits: g * 203), pqSignal(nits: b * 203))
            case .hlg: signals = hlgSignals(nits: (r * 203, g * 203, b * 203))
            }
            samples += [signals.0, signals.1, signals.2].map { UInt16((min(max($0, 0), 1) * 65535).rounded()) }
        }
        return samples
    }

    /// `picture` as an HDR file written by `tool` (heif-enc for HEIC, avifenc for AVIF, cjxl for JPEG XL).
    private func hdrFile(_ picture: PixelBuffer, _ transfer: Transfer, _ name: String,
                         samples: [UInt16]? = nil) throws -> String {
        let source = dir.path("\(name).png")
        ColourFixtures.png16(samples ?? Self.hdrSamples(picture, transfer), width: picture.width, height: picture.height, to: source)
        let output = dir.path(name)
        let code = transfer == .pq ? 16 : 18
        switch URL(fileURLWithPath: name).pathExtension {
        case "heic":
            try Tools.run("heif-enc", ["-b", "10", "-q", "98", "-p", "chroma=444", "--colour_primaries", "9",
                                       "--transfer_characteristic", "\(code)", "--matrix_coefficients", "9",
                                       source, "-o", output], package: "libheif-examples")
        case "avif":
            try Tools.run("avifenc", ["-d", "10", "-y", "444", "-r", "full", "--min", "0", "--max", "0",
                                      "--cicp", "9/\(code)/9", source, output], package: "libavif-bin")
        case "jxl":
            let space = transfer == .pq ? "RGB_D65_202_Rel_PeQ" : "RGB_D65_202_Rel_HLG"
            try Tools.run("cjxl", [source, output, "-d", "0", "-x", "color_space=\(space)"], package: "libjxl-tools")
        default:
            XCTFail("no tool for \(name)")
        }
        return output
    }

    // MARK: - An SDR picture at reference white

    /// A picture with every hue at every level, greys, and white.
    private let picture = ColourFixtures.colourful(width: 96, height: 64)

    private func assertShowsItsSDRPicture(_ transfer: Transfer, _ name: String,
                                          file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try hdrFile(picture, transfer, name)
        let shown = try loader.load(path: path, fitting: nil)
        let difference = ColourFixtures.meanAbsoluteDifference(shown, picture)
        XCTAssertLessThan(difference, 4, "\(name): mean difference from the SDR picture", file: file, line: line)
        XCTAssertNil(shown.colourCodePoints, "\(name) is rendered to sRGB", file: file, line: line)

        // The same samples read with the sRGB curve (what an 8-bit decode shows) are far off.
        let samples = Self.hdrSamples(picture, transfer)
        var naiveBytes: [UInt8] = []
        for i in stride(from: 0, to: samples.count, by: 3) {
            naiveBytes += [UInt8(samples[i + 2] >> 8), UInt8(samples[i + 1] >> 8), UInt8(samples[i] >> 8), 255]
        }
        let naive = PixelBuffer(width: picture.width, height: picture.height, bytes: naiveBytes)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(naive, picture), 8,
                             "\(name): the transfer must matter", file: file, line: line)

        let small = try loader.load(path: path, fitting: PixelSize(width: 48, height: 32))
        let pictureSmall = PixelScaler.fit(picture, in: PixelSize(width: 48, height: 32))
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, pictureSmall), 4, "\(name), shrunk",
                          file: file, line: line)
    }

    // HEIC goes through the same libheif path as AVIF; heif-enc 1.15 writes no colour box into a HEIC
    // whatever it is told, so the tests make AVIFs.
    func testPQAVIFShowsItsSDRPicture() throws { try assertShowsItsSDRPicture(.pq, "pq.avif") }
    func testHLGAVIFShowsItsSDRPicture() throws { try assertShowsItsSDRPicture(.hlg, "hlg.avif") }
    func testPQJPEGXLShowsItsSDRPicture() throws { try assertShowsItsSDRPicture(.pq, "pq.jxl") }
    func testHLGJPEGXLShowsItsSDRPicture() throws { try assertShowsItsSDRPicture(.hlg, "hlg.jxl") }

    /// A 16-bit PNG whose `cICP` chunk names BT.2020 with PQ or HLG, as PNG's third edition allows.
    func testPQAndHLGPNGsShowTheirSDRPicture() throws {
        for transfer in [Transfer.pq, .hlg] {
            let path = dir.path("\(transfer).png")
            ColourFixtures.png16(Self.hdrSamples(picture, transfer), width: picture.width, height: picture.height, to: path,
                       codePoints: [9, transfer == .pq ? 16 : 18, 0, 1])
            let shown = try loader.load(path: path, fitting: nil)
            XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(shown, picture), 1, "\(transfer) PNG")
            XCTAssertNil(shown.colourCodePoints)
            let small = try loader.load(path: path, fitting: PixelSize(width: 48, height: 32))
            XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, PixelScaler.fit(picture, in: PixelSize(width: 48, height: 32))),
                              4, "\(transfer) PNG, shrunk")
        }
        // Display P3 by code points: handed to the colour stage, as an ICC profile would be.
        let p3 = dir.path("p3.png")
        ColourFixtures.png16(Self.hdrSamples(picture, .pq), width: picture.width, height: picture.height, to: p3, codePoints: [12, 13, 0, 1])
        let raw = try ImageLoader(decoders: ImageDecoders.standard(), colour: nil).load(path: p3, fitting: nil)
        XCTAssertEqual(raw.colourCodePoints?.primaries, 12)
    }

    // MARK: - Highlights

    /// Grey patches from 50 to 10000 cd/m² in a PQ AVIF: brighter stays brighter all the way up (rolled
    /// off, not clipped at reference white), and what is below the knee is shown as it is.
    func testHighlightsAboveReferenceWhiteAreRolledOffNotClipped() throws {
        let levels: [Double] = [50, 100, 203, 300, 600, 1000, 2000, 4000, 10000]
        let width = levels.count * 8, height = 8
        var samples: [UInt16] = []
        for _ in 0..<height {
            for x in 0..<width {
                let signal = UInt16((Self.pqSignal(nits: levels[x / 8]) * 65535).rounded())
                samples += [signal, signal, signal]
            }
        }
        let blank = PixelBuffer(width: width, height: height, filledWith: RGBA(r: 0, g: 0, b: 0))
        let path = try hdrFile(blank, .pq, "steps.avif", samples: samples)
        let shown = try loader.load(path: path, fitting: nil)
        let greys = levels.indices.map { Int(shown.pixel(x: $0 * 8 + 4, y: 4).g) }
        // Above reference white, 8 bits have room for a few steps only; the brightest are a level apart.
        for (lower, higher) in zip(greys.prefix(6), greys.prefix(6).dropFirst()) {
            XCTAssertLessThan(lower, higher, "each step up to 1000 cd/m² brighter than the one below: \(greys)")
        }
        XCTAssertEqual(greys, greys.sorted(), "never darker for more light")
        XCTAssertLessThan(greys[5], greys[8], "1000 cd/m² below the peak: \(greys)")
        XCTAssertEqual(Double(greys[0]), 255 * srgbEncode(50.0 / 203), accuracy: 1.5, "50 cd/m² as mastered: \(greys)")
        XCTAssertEqual(Double(greys[1]), 255 * srgbEncode(100.0 / 203), accuracy: 1.5, "100 cd/m² as mastered: \(greys)")
        XCTAssertGreaterThanOrEqual(greys[2], 235, "reference white near the screen's white: \(greys)")
    }

    private func srgbEncode(_ x: Double) -> Double {
        x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
    }
}
