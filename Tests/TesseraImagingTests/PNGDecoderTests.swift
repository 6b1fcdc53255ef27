import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging

final class PNGDecoderTests: XCTestCase {
    private func png(_ pixels: PixelBuffer, channels: PNGEncoder.Channels = .rgba) -> Data {
        pixels.bytes.withUnsafeBytes { bgra in
            try! PNGEncoder.encode(bgra.baseAddress!, stride: pixels.bytesPerRow, width: pixels.width, height: pixels.height,
                                   channels: channels) { Data($0) }
        }
    }

    /// Opaque pixels that compress little, so half the file holds about half the rows.
    private func noise(_ w: Int, _ h: Int) -> PixelBuffer {
        var state: UInt32 = 12345
        var bytes = [UInt8](repeating: 255, count: w * h * 4)
        for i in 0..<(w * h) {
            for c in 0..<3 {
                state = state &* 1_664_525 &+ 1_013_904_223
                bytes[i * 4 + c] = UInt8(state >> 24)
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    private func gradient(_ w: Int, _ h: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                bytes[i] = UInt8(x * 255 / max(1, w - 1)); bytes[i + 1] = UInt8(y * 255 / max(1, h - 1))
                bytes[i + 2] = UInt8((x ^ y) & 0xFF); bytes[i + 3] = UInt8(128 + (x + y) % 128)
            }
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    func testFullDecodeGivesThePixelsBack() throws {
        let source = gradient(37, 23)
        let decoded = try PNGDecoder().decode(png(source), format: .png, targetSize: nil)
        XCTAssertEqual(decoded.bytes, source.bytes)
    }

    func testShrinkOnLoadMatchesFullDecodeAndTheSameScaler() throws {
        let source = gradient(640, 480)
        let data = png(source)
        let shrunk = try PNGDecoder().decode(data, format: .png, targetSize: PixelSize(width: 100, height: 100))
        XCTAssertEqual(shrunk.size, PixelSize(width: 100, height: 75))
        XCTAssertEqual(shrunk.bytes, PixelScaler.scaled(source, to: PixelSize(width: 100, height: 75)).bytes)
    }

    func testRGBWithoutAlphaIsOpaque() throws {
        let decoded = try PNGDecoder().decode(png(gradient(8, 8), channels: .rgb), format: .png, targetSize: nil)
        XCTAssertTrue((0..<64).allSatisfy { decoded.bytes[$0 * 4 + 3] == 255 })
    }

    /// A PNG cut in its image data is shown as far as its rows go, the rest transparent, saying why;
    /// whole and shrunk on load.
    func testAPNGCutInItsDataIsShownAsFarAsItGoes() throws {
        let picture = noise(64, 256)
        let data = png(picture, channels: .rgb)
        let cut = data.prefix(data.count / 2)
        let shown = try PNGDecoder().decode(cut, format: .png, targetSize: nil)
        XCTAssertEqual(shown.size, PixelSize(width: 64, height: 256))
        XCTAssertEqual(shown.damage, "Truncated file")
        XCTAssertEqual(shown.bytes.prefix(64 * 4 * 32), picture.bytes.prefix(64 * 4 * 32), "the first rows as they are")
        XCTAssertEqual(shown.bytes.last, 0, "rows not read are transparent")
        let small = try PNGDecoder().decode(cut, format: .png, targetSize: PixelSize(width: 16, height: 64))
        XCTAssertEqual(small.damage, "Truncated file")
        XCTAssertEqual(small.size, PixelSize(width: 16, height: 64))
    }

    func testTruncatedAndCorruptPNGsAreReported() throws {
        let data = png(gradient(200, 200))
        XCTAssertThrowsError(try PNGDecoder().decode(data.prefix(data.count / 2), format: .png, targetSize: PixelSize(width: 50, height: 50))) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .truncated)
        }
        var corrupt = data
        for i in stride(from: 60, to: corrupt.count - 20, by: 7) { corrupt[i] ^= 0x5A }
        XCTAssertThrowsError(try PNGDecoder().decode(corrupt, format: .png, targetSize: nil))
    }
}
