import CTurboJPEG
import Foundation
import TesseraBench
import TesseraCore
import XCTest
@testable import TesseraImaging

final class TurboJPEGDecoderTests: XCTestCase {
    let decoder = TurboJPEGDecoder()

    func testOnlyClaimsJPEG() {
        XCTAssertTrue(decoder.canDecode(.jpeg))
        for format in ImageFormat.allCases where format != .jpeg { XCTAssertFalse(decoder.canDecode(format)) }
    }

    func testSolidColourDecodesToBGRAByteOrder() throws {
        let color = RGBA(r: 220, g: 100, b: 30)
        let image = try decoder.decode(TestJPEG.solid(width: 33, height: 17, color: color), format: .jpeg, targetSize: nil)
        XCTAssertEqual(image.size, PixelSize(width: 33, height: 17))
        // Bytes are B, G, R, A in memory.
        XCTAssertEqual(image.bytes[3], 255)
        XCTAssertTrue(RGBA(r: image.bytes[2], g: image.bytes[1], b: image.bytes[0], a: image.bytes[3])
            .isClose(to: color, tolerance: 3))
        XCTAssertTrue(image.pixel(x: 32, y: 16).isClose(to: color, tolerance: 3))
    }

    func testGrayscaleJPEG() throws {
        let jpeg = TestJPEG.encode(.gray(width: 10, height: 6, bytes: [UInt8](repeating: 77, count: 60)))
        let image = try decoder.decode(jpeg, format: .jpeg, targetSize: nil)
        XCTAssertEqual(image.size, PixelSize(width: 10, height: 6))
        XCTAssertTrue(image.pixel(x: 4, y: 3).isClose(to: RGBA(r: 77, g: 77, b: 77), tolerance: 2))
    }

    /// CMYK (stored as YCCK, with an Adobe marker, as TurboJPEG and Photoshop write it) converts to RGB
    /// through the standard CMYK profile (no profile is embedded). The values are Adobe-inverted (255 =
    /// no ink): the top half is magenta and yellow ink, a red; the bottom half half black, a grey.
    func testCMYKJPEG() throws {
        var cmyk = [UInt8]()
        for y in 0..<16 {
            for _ in 0..<16 {
                cmyk += y < 8 ? [255, 0, 0, 255] : [255, 255, 255, 128]
            }
        }
        let jpeg = TestJPEG.encode(.cmyk(width: 16, height: 16, bytes: cmyk))
        XCTAssertEqual(ImageHeader.read(jpeg), ImageHeader(format: .jpeg, width: 16, height: 16))
        let image = try decoder.decode(jpeg, format: .jpeg, targetSize: nil)
        XCTAssertEqual(image.size, PixelSize(width: 16, height: 16))
        let expected = ColourFixtures.referenceCMYK([255, 0, 0, 255, 255, 255, 255, 128], width: 2, height: 1,
                                                    profile: DefaultCMYKProfile.bytes, inverted: true)
        let red = expected.pixel(x: 0, y: 0), grey = expected.pixel(x: 1, y: 0)
        XCTAssertTrue(red.r > 200 && red.g < 80 && red.b < 80, "\(red)")
        XCTAssertTrue(abs(Int(grey.r) - Int(grey.g)) < 8 && abs(Int(grey.g) - Int(grey.b)) < 8, "\(grey)")
        XCTAssertTrue(image.pixel(x: 8, y: 2).isClose(to: red, tolerance: 3), "\(image.pixel(x: 8, y: 2)) vs \(red)")
        XCTAssertTrue(image.pixel(x: 8, y: 13).isClose(to: grey, tolerance: 3), "\(image.pixel(x: 8, y: 13)) vs \(grey)")
        // Shrink-on-load works for CMYK too.
        XCTAssertEqual(try decoder.decode(jpeg, format: .jpeg, targetSize: PixelSize(width: 2, height: 2)).size,
                       PixelSize(width: 2, height: 2))  // 1/8: the target itself
    }

    func testScalingFactorChoice() {
        let photo = PixelSize(width: 4000, height: 3000)
        let cases: [(PixelSize?, PixelSize)] = [
            (nil, photo),
            // At least twice the fitted target: 400x300 wants 800x600, which 1/4 gives.
            (PixelSize(width: 400, height: 300), PixelSize(width: 1000, height: 750)),    // 1/4
            (PixelSize(width: 250, height: 187), PixelSize(width: 500, height: 375)),     // 1/8: 249x187 wants 498x374
            (PixelSize(width: 490, height: 367), PixelSize(width: 1000, height: 750)),    // 1/4: 1/8 only covers it
            // A scale that gives the target itself: nothing is resampled after it.
            (PixelSize(width: 500, height: 375), PixelSize(width: 500, height: 375)),     // 1/8
            (PixelSize(width: 1000, height: 750), PixelSize(width: 1000, height: 750)),   // 1/4
            (PixelSize(width: 2000, height: 1500), PixelSize(width: 2000, height: 1500)), // 1/2
            (PixelSize(width: 501, height: 376), PixelSize(width: 2000, height: 1500)),   // 1/2
            (PixelSize(width: 1200, height: 900), photo),                                 // 1
            (PixelSize(width: 2001, height: 1501), photo),                                // 1
            (PixelSize(width: 8000, height: 8000), photo),                                // never enlarged
            // An unfitted box is fitted first: 200x200 -> 200x150, which 1/8 gives twice.
            (PixelSize(width: 200, height: 200), PixelSize(width: 500, height: 375)),
            // Portrait box on a landscape image: 400x1000 -> 400x300.
            (PixelSize(width: 400, height: 1000), PixelSize(width: 1000, height: 750)),
        ]
        for (target, expected) in cases {
            XCTAssertEqual(TurboJPEGDecoder.decodeSize(for: photo, targetSize: target), expected, "\(String(describing: target))")
        }
        // Odd sizes round up like TJSCALED: ceil(4001/8) x ceil(3001/8).
        XCTAssertEqual(TurboJPEGDecoder.decodeSize(for: PixelSize(width: 4001, height: 3001), targetSize: PixelSize(width: 200, height: 150)),
                       PixelSize(width: 501, height: 376))
        // A pyramid level of an odd-sized photo (sizes rounded up, as the scale's are) is the scale's size.
        XCTAssertEqual(TurboJPEGDecoder.decodeSize(for: PixelSize(width: 2561, height: 1601), targetSize: PixelSize(width: 1281, height: 801)),
                       PixelSize(width: 1281, height: 801))
    }

    func testScaledDecodeReturnsTheChosenSize() throws {
        let jpeg = TestJPEG.encode(.bgra(TestPixels.gradient(width: 640, height: 480)))
        let image = try decoder.decode(jpeg, format: .jpeg, targetSize: PixelSize(width: 100, height: 75))
        XCTAssertEqual(image.size, PixelSize(width: 320, height: 240))  // 1/2: twice the target; 1/4 (160x120) is not
    }

    func testErrors() {
        XCTAssertThrowsError(try decoder.decode(Data(), format: .jpeg, targetSize: nil)) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .empty)
        }
        XCTAssertThrowsError(try decoder.decode(TestHeaders.png(width: 1, height: 1), format: .png, targetSize: nil)) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .unsupportedFormat("PNG"))
        }
        XCTAssertThrowsError(try decoder.decode(Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]), format: .jpeg, targetSize: nil)) {
            guard case .decodeFailed(let text)? = $0 as? ImageLoadError.Reason else { return XCTFail("\($0)") }
            XCTAssertFalse(text.isEmpty)
        }
    }

    /// Damaged data is shown with libjpeg's words for it; a file cut short says so.
    func testDamageIsNamed() throws {
        let jpeg = TestJPEG.encode(.bgra(TestPixels.gradient(width: 200, height: 200)), quality: 90)
        let cut = try decoder.decode(jpeg.prefix(jpeg.count * 2 / 3), format: .jpeg, targetSize: nil)
        XCTAssertEqual(cut.damage, "Premature end of JPEG file")
        var scrambled = jpeg
        let scan = try XCTUnwrap(scrambled.indices.first { scrambled[$0] == 0xFF && scrambled[$0 + 1] == 0xDA })
        for i in stride(from: scan + 40, to: scrambled.count - 200, by: 5) { scrambled[i] = 0xFF; scrambled[i + 1] = 0xD3 }
        let damaged = try decoder.decode(scrambled, format: .jpeg, targetSize: nil)
        XCTAssertTrue(damaged.damage?.hasPrefix("Corrupt JPEG data") == true, "\(damaged.damage ?? "none")")
        XCTAssertNil(try decoder.decode(jpeg, format: .jpeg, targetSize: nil).damage)
    }

    /// Trailing garbage after EOI makes libjpeg warn, but the image is complete and must be shown.
    func testBenignWarningIsTolerated() throws {
        var jpeg = TestJPEG.solid(width: 24, height: 24, color: RGBA(r: 0, g: 128, b: 255))
        // Extraneous bytes between two markers (before EOI): "Corrupt JPEG data: N extraneous bytes".
        let eoi = jpeg.count - 2
        jpeg.insert(contentsOf: [0x12, 0x34, 0x56], at: eoi)
        let image = try decoder.decode(jpeg, format: .jpeg, targetSize: nil)
        XCTAssertTrue(image.pixel(x: 12, y: 12).isClose(to: RGBA(r: 0, g: 128, b: 255), tolerance: 3))
    }

    /// Timing of shrink-on-load against a full decode of a 12 MP JPEG. Release builds only:
    /// `swift test -c release --filter TurboJPEGDecoderTests/testPerformance`.
    func testPerformanceScaledDecode4000x3000() throws {
        #if DEBUG
        throw XCTSkip("timing is only meaningful in release builds")
        #else
        // Gradient plus noise, so the file is photo-sized (a few MB) rather than a trivially compressible ramp.
        var pixels = TestPixels.gradient(width: 4000, height: 3000)
        var generator = SplitMix64(seed: 1)
        pixels.bytes.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count where i % 4 != 3 {
                p[i] = UInt8(clamping: Int(p[i]) + Int(generator.next() % 41) - 20)
            }
        }
        let jpeg = TestJPEG.encode(.bgra(pixels), quality: 90, subsampling: TJSAMP_420)
        let loader = ImageLoader(decoders: [decoder])
        func best(_ body: () throws -> Void) rethrows -> Double {
            var best = Double.infinity
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                try body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            return best
        }
        let box = PixelSize(width: 400, height: 300)
        let scaled = try best { _ = try decoder.decode(jpeg, format: .jpeg, targetSize: box) }
        let full = try best { _ = try decoder.decode(jpeg, format: .jpeg, targetSize: nil) }
        let loaded = try best { _ = try loader.load(data: jpeg, name: "bench", fitting: box) }
        let fullThenScaled = try best {
            _ = PixelScaler.scaled(try decoder.decode(jpeg, format: .jpeg, targetSize: nil), to: box)
        }
        print("4000x3000 JPEG (\(jpeg.count) bytes, 4:2:0): decode at 1/8 = \(scaled) ms, full decode = \(full) ms, "
              + "load fitting 400x300 = \(loaded) ms, full decode + scale = \(fullThenScaled) ms (best of 5)")
        XCTAssertLessThan(scaled, full)
        #endif
    }

    /// Decoders run on many workers at once; each call has its own TurboJPEG handle.
    func testConcurrentDecodes() throws {
        let jpeg = TestJPEG.encode(.bgra(TestPixels.gradient(width: 300, height: 200)))
        let decoder = self.decoder
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 16) { i in
            do {
                let target: PixelSize? = i % 2 == 0 ? nil : PixelSize(width: 60, height: 40)
                let image = try decoder.decode(jpeg, format: .jpeg, targetSize: target)
                if image.width != (target == nil ? 300 : 150) { failures.add("size \(image.size)") }  // 1/2: twice 60x40
            } catch {
                failures.add("\(error)")
            }
        }
        XCTAssertEqual(failures.all, [])
    }
}

private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}
