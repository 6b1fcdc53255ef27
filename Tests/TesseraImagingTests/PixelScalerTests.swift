import Foundation
import TesseraCore
@testable import TesseraImaging
import XCTest

final class PixelScalerTests: XCTestCase {
    private func buffer(_ width: Int, _ height: Int, _ pixels: [RGBA]) -> PixelBuffer {
        PixelBuffer(width: width, height: height, bytes: pixels.flatMap { [$0.b, $0.g, $0.r, $0.a] })
    }

    func testSolidColourStaysExact() {
        let color = RGBA(r: 13, g: 200, b: 77, a: 255)
        let translucent = RGBA(r: 250, g: 3, b: 128, a: 90)
        for c in [color, translucent] {
            let src = PixelBuffer(width: 97, height: 61, filledWith: c)
            for size in [PixelSize(width: 13, height: 7), PixelSize(width: 96, height: 60), PixelSize(width: 1, height: 1),
                         PixelSize(width: 50, height: 61), PixelSize(width: 200, height: 90) /* upscale */] {
                let out = PixelScaler.scaled(src, to: size)
                XCTAssertEqual(out.size, size)
                XCTAssertEqual(Set(stride(from: 0, to: out.bytes.count, by: 4).map { out.pixel(x: ($0 / 4) % size.width, y: $0 / 4 / size.width) }),
                               [c], "\(c) at \(size)")
            }
        }
    }

    func testCheckerHalvedIsMidGrey() {
        let black = RGBA(r: 0, g: 0, b: 0), white = RGBA(r: 255, g: 255, b: 255)
        let one = PixelScaler.scaled(buffer(2, 2, [black, white, white, black]), to: PixelSize(width: 1, height: 1))
        XCTAssertTrue(one.pixel(x: 0, y: 0).isClose(to: RGBA(r: 128, g: 128, b: 128), tolerance: 1), "\(one.pixel(x: 0, y: 0))")

        var pixels: [RGBA] = []
        for y in 0..<8 { for x in 0..<8 { pixels.append((x + y) % 2 == 0 ? black : white) } }
        let grey = PixelScaler.scaled(buffer(8, 8, pixels), to: PixelSize(width: 4, height: 4))
        for y in 0..<4 { for x in 0..<4 {
            XCTAssertTrue(grey.pixel(x: x, y: y).isClose(to: RGBA(r: 128, g: 128, b: 128), tolerance: 1))
        } }
    }

    /// A half-transparent red next to a fully transparent green: the green has no weight, so the average
    /// is pure red at a quarter opacity. Without premultiplication it would be a muddy olive.
    func testTransparentPixelsDoNotBleedColour() {
        let red = RGBA(r: 255, g: 0, b: 0, a: 128), clearGreen = RGBA(r: 0, g: 255, b: 0, a: 0)
        let out = PixelScaler.scaled(buffer(2, 1, [red, clearGreen]), to: PixelSize(width: 1, height: 1))
        let p = out.pixel(x: 0, y: 0)
        XCTAssertEqual(p.g, 0, "green tint: \(p)")
        XCTAssertEqual(p.r, 255)
        XCTAssertEqual(p.a, 64)

        let allClear = PixelScaler.scaled(buffer(2, 1, [clearGreen, clearGreen]), to: PixelSize(width: 1, height: 1))
        XCTAssertEqual(allClear.pixel(x: 0, y: 0).a, 0)
    }

    /// Box filtering with fractional coverage: 3 pixels into 2 gives 2/3 + 1/3 weights.
    func testFractionalCoverage() {
        let out = PixelScaler.scaled(buffer(3, 1, [RGBA(r: 0, g: 0, b: 0), RGBA(r: 90, g: 90, b: 90), RGBA(r: 180, g: 180, b: 180)]),
                                     to: PixelSize(width: 2, height: 1))
        XCTAssertEqual(out.pixel(x: 0, y: 0).r, 30)   // (0 * 1 + 90 * 0.5) / 1.5
        XCTAssertEqual(out.pixel(x: 1, y: 0).r, 150)  // (90 * 0.5 + 180 * 1) / 1.5
    }

    func testGradientStaysMonotonicAndSameSizeIsIdentity() {
        let src = TestPixels.gradient(width: 301, height: 199)
        let out = PixelScaler.scaled(src, to: PixelSize(width: 37, height: 23))
        for x in 1..<37 { XCTAssertGreaterThanOrEqual(out.pixel(x: x, y: 11).r, out.pixel(x: x - 1, y: 11).r) }
        for y in 1..<23 { XCTAssertGreaterThanOrEqual(out.pixel(x: 5, y: y).g, out.pixel(x: 5, y: y - 1).g) }
        XCTAssertEqual(PixelScaler.scaled(src, to: src.size).bytes, src.bytes)
    }

    func testUpscaleIsBilinear() {
        let out = PixelScaler.scaled(buffer(2, 1, [RGBA(r: 0, g: 0, b: 0), RGBA(r: 200, g: 200, b: 200)]),
                                     to: PixelSize(width: 4, height: 2))
        XCTAssertEqual((0..<4).map { out.pixel(x: $0, y: 1).r }, [0, 50, 150, 200])
    }

    func testFitKeepsAspectAndNeverEnlarges() {
        let photo = PixelBuffer(width: 400, height: 300, filledWith: RGBA(r: 1, g: 2, b: 3))
        XCTAssertEqual(PixelScaler.fit(photo, in: PixelSize(width: 100, height: 100)).size, PixelSize(width: 100, height: 75))
        XCTAssertEqual(PixelScaler.fit(photo, in: PixelSize(width: 1000, height: 150)).size, PixelSize(width: 200, height: 150))
        XCTAssertEqual(PixelScaler.fit(photo, in: PixelSize(width: 4000, height: 4000)).size, photo.size)
        XCTAssertEqual(PixelScaler.fit(photo, in: photo.size).size, photo.size)
        let strip = PixelBuffer(width: 1000, height: 10, filledWith: RGBA(r: 1, g: 2, b: 3))
        XCTAssertEqual(PixelScaler.fit(strip, in: PixelSize(width: 333, height: 333)).size, PixelSize(width: 333, height: 3))
        XCTAssertEqual(PixelScaler.fit(strip, in: PixelSize(width: 10, height: 10)).size, PixelSize(width: 10, height: 1))
    }

    func testDegenerateTargetsClampToOnePixel() {
        let src = PixelBuffer(width: 5, height: 5, filledWith: RGBA(r: 9, g: 9, b: 9))
        XCTAssertEqual(PixelScaler.scaled(src, to: PixelSize(width: 0, height: -3)).size, PixelSize(width: 1, height: 1))
    }

    /// Halving, quartering and an eighth (pyramid levels, DCT-scaled decodes) take the integer block
    /// path: it must give what the weighted kernel gives, byte for byte, on opaque, translucent and fully
    /// transparent pixels alike.
    func testExactReductionsMatchTheKernel() {
        var state: UInt32 = 12345
        func next() -> UInt8 { state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(truncatingIfNeeded: state >> 24) }
        for (factor, opaque) in [(2, true), (2, false), (4, false), (8, false), (8, true)] {
            let width = 9 * factor, height = 5 * factor
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = next(); bytes[i + 1] = next(); bytes[i + 2] = next()
                let alpha = next()
                // Opaque, clear and in between, so blocks of each kind and mixed ones occur.
                bytes[i + 3] = opaque ? 255 : (alpha < 60 ? 0 : alpha > 190 ? 255 : alpha)
            }
            let source = PixelBuffer(width: width, height: height, bytes: bytes)
            let size = PixelSize(width: 9, height: 5)
            XCTAssertEqual(PixelScaler.exactReduction(from: source.size, to: size), factor)
            XCTAssertEqual(PixelScaler.scaled(source, to: size).bytes, PixelScaler.resampled(source, to: size).bytes,
                           "1/\(factor), \(opaque ? "opaque" : "with alpha")")
        }
        // Every pair of equal alphas over two clear pixels, with neighbouring colours, and opaque blocks of
        // neighbouring colours: the sums whose mean is an exact half, where the kernel's reciprocal can
        // round down.
        var pairs: [UInt8] = []
        for alpha in 1...255 { for colour in 0..<255 {
            pairs += [UInt8(colour), UInt8(colour), UInt8(colour), UInt8(alpha), UInt8(colour + 1), UInt8(colour + 1), UInt8(colour + 1), UInt8(alpha)]
            pairs += [0, 0, 0, 0, 0, 0, 0, 0]
        } }
        for colour in 0..<255 {
            let c = UInt8(colour), d = UInt8(colour + 1)
            pairs += [c, c, c, 255, d, d, d, 255, c, c, c, 255, d, d, d, 255]
        }
        let halves = PixelBuffer(width: 2, height: pairs.count / 8, bytes: pairs)
        let halved = PixelSize(width: 1, height: halves.height / 2)
        XCTAssertEqual(PixelScaler.scaled(halves, to: halved).bytes, PixelScaler.resampled(halves, to: halved).bytes)
        XCTAssertNil(PixelScaler.exactReduction(from: PixelSize(width: 2561, height: 1600), to: PixelSize(width: 1281, height: 800)))
        XCTAssertNil(PixelScaler.exactReduction(from: PixelSize(width: 30, height: 30), to: PixelSize(width: 10, height: 10)))
    }

    /// Timing of the documented case. Only meaningful (and only run) in release builds:
    /// `swift test -c release --filter PixelScalerTests/testPerformance4000x3000`.
    func testPerformance4000x3000To400x300() throws {
        #if DEBUG
        throw XCTSkip("timing is only meaningful in release builds")
        #else
        let src = TestPixels.gradient(width: 4000, height: 3000)
        var best = Double.infinity
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            let out = PixelScaler.scaled(src, to: PixelSize(width: 400, height: 300))
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            XCTAssertEqual(out.size, PixelSize(width: 400, height: 300))
        }
        print("PixelScaler 4000x3000 -> 400x300: best of 5 = \(best) ms")
        XCTAssertLessThan(best, 100)
        #endif
    }
}
