import CZlib
import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging

/// APNG: chunks walked here, each frame decoded by libpng as a PNG of its own, composited by its dispose
/// and blend operations; on files written byte by byte.
final class APNGReaderTests: XCTestCase {
    private let red = RGBA(r: 220, g: 30, b: 30), green = RGBA(r: 30, g: 200, b: 40), blue = RGBA(r: 40, g: 50, b: 210)

    struct Frame {
        var x = 0, y = 0, width: Int, height: Int
        /// Row by row, straight alpha.
        var pixels: [RGBA]
        var delay: (UInt16, UInt16) = (1, 10)
        var dispose: UInt8 = 0, blend: UInt8 = 0
    }

    private static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    private static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    private static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + body
        let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, uInt($0.count))) }
        return be32(UInt32(body.count)) + typed + be32(crc)
    }

    /// RGBA 8-bit rows, filter 0, deflated.
    private static func deflated(_ frame: Frame) -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<frame.height {
            raw.append(0)
            for p in frame.pixels[row * frame.width..<(row + 1) * frame.width] { raw += [p.r, p.g, p.b, p.a] }
        }
        var size = compressBound(uLong(raw.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        precondition(compress(&out, &size, raw, uLong(raw.count)) == Z_OK)
        return Array(out.prefix(Int(size)))
    }

    /// An APNG of `frames` on a `width` x `height` canvas; the first frame is the default image (its
    /// fcTL before the IDAT).
    static func apng(width: Int, height: Int, plays: UInt32, frames: [Frame]) -> Data {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 6, 0, 0, 0])
        png += chunk("acTL", be32(UInt32(frames.count)) + be32(plays))
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            png += chunk("fcTL", be32(sequence) + be32(UInt32(frame.width)) + be32(UInt32(frame.height)) + be32(UInt32(frame.x))
                         + be32(UInt32(frame.y)) + be16(frame.delay.0) + be16(frame.delay.1) + [frame.dispose, frame.blend])
            sequence += 1
            if index == 0 {
                png += chunk("IDAT", deflated(frame))
            } else {
                png += chunk("fdAT", be32(sequence) + deflated(frame))
                sequence += 1
            }
        }
        png += chunk("IEND", [])
        return Data(png)
    }

    private func frames() -> [Frame] {
        let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
        return [
            Frame(width: 8, height: 8, pixels: Array(repeating: red, count: 64), delay: (1, 10)),
            // Top half green, bottom half transparent, blended over: the red shows below.
            Frame(width: 4, height: 4, pixels: Array(repeating: green, count: 8) + Array(repeating: clear, count: 8),
                  delay: (0, 0), dispose: 1, blend: 1),
            Frame(x: 4, y: 4, width: 4, height: 4, pixels: Array(repeating: blue, count: 16), delay: (30, 100), dispose: 2),
            // Transparent with SOURCE: replaces what is there.
            Frame(x: 6, y: 6, width: 2, height: 2, pixels: Array(repeating: clear, count: 4), delay: (1, 0)),
        ]
    }

    func testFramesDelaysPlaysDisposeAndBlend() throws {
        let data = Self.apng(width: 8, height: 8, plays: 3, frames: frames())
        XCTAssertTrue(AnimatedImage.isAnimated(data))
        let reader = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
        var read: [(pixels: PixelBuffer, delay: Duration)] = []
        while let frame = try reader.nextFrame() { read.append(frame) }
        XCTAssertEqual(reader.plays, 3)
        XCTAssertEqual(read.map(\.delay), [.milliseconds(100), .zero, .milliseconds(300), .milliseconds(10)],
                       "a zero denominator is hundredths")
        XCTAssertEqual(read[0].pixels.pixel(x: 5, y: 5), red)
        XCTAssertEqual(read[1].pixels.pixel(x: 1, y: 0), green)
        XCTAssertEqual(read[1].pixels.pixel(x: 1, y: 3), red, "blended over: the transparent half shows the red")
        XCTAssertEqual(read[2].pixels.pixel(x: 1, y: 0).a, 0, "frame 1's area disposed to transparent")
        XCTAssertEqual(read[2].pixels.pixel(x: 5, y: 5), blue)
        XCTAssertEqual(read[3].pixels.pixel(x: 5, y: 5), red, "frame 2 disposed to what was before it")
        XCTAssertEqual(read[3].pixels.pixel(x: 6, y: 6).a, 0, "SOURCE replaces, transparency included")
        XCTAssertEqual(read[3].pixels.pixel(x: 4, y: 4), red)
    }

    func testAStillPNGAndASingleFrameAPNGAreNoAnimation() throws {
        XCTAssertFalse(AnimatedImage.isAnimated(Self.apng(width: 8, height: 8, plays: 0, frames: Array(frames().prefix(1)))))
        let still = try PNGEncoder.encode(PixelBuffer(width: 8, height: 8, filledWith: red))
        XCTAssertFalse(AnimatedImage.isAnimated(Data(still)))
    }

    func testATruncatedAPNGPlaysTheFramesItHasAndAFrameOutsideTheCanvasIsRefused() throws {
        let data = Self.apng(width: 8, height: 8, plays: 0, frames: frames())
        // Cut inside the last fdAT.
        let cut = try AnimatedImage.reader(for: data.prefix(data.count - 20), pixelLimit: 100_000_000)
        var count = 0
        while try cut.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, 3)

        var outside = frames()
        outside[2].x = 6
        XCTAssertThrowsError(try AnimatedImage.reader(for: Self.apng(width: 8, height: 8, plays: 0, frames: outside),
                                                      pixelLimit: 100_000_000)) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .decodeFailed("APNG frame outside its canvas"))
        }
    }
}
