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
