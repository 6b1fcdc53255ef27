import Foundation
import TesseraCore
import TesseraImaging
import XCTest

/// BMP through gdk-pixbuf, without SDL: palettes, run-length compression, rows either way up.
final class BMPDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private let loader = ImageLoader(decoders: [BMPDecoder()])
    private typealias H = TestHeaders

    /// An 8-bit palette BMP of the quadrants, uncompressed or RLE8, bottom-up.
    private func paletteBMP(width: Int = 64, height: Int = 48, rle: Bool) -> Data {
        let palette = Tools.upright
        var pixels: [UInt8] = []
        for row in (0..<height).reversed() {  // bottom-up
            let indices = (0..<width).map { x in UInt8((row < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)) }
            if rle {
                // Two runs per row, then end of line.
                pixels += [UInt8(width / 2), indices[0], UInt8(width - width / 2), indices[width - 1], 0, 0]
            } else {
                pixels += indices + [UInt8](repeating: 0, count: (4 - width % 4) % 4)
            }
        }
        if rle { pixels += [0, 1] }  // end of bitmap
        let table: [UInt8] = palette.flatMap { [$0.b, $0.g, $0.r, UInt8(0)] }
        let offset = 14 + 40 + table.count
        var d = Array("BM".utf8) + H.le32(UInt32(offset + pixels.count)) + [0, 0, 0, 0] + H.le32(UInt32(offset))
        d += H.le32(40) + H.le32(UInt32(width)) + H.le32(UInt32(height)) + H.le16(1) + H.le16(8)
        d += H.le32(rle ? 1 : 0) + H.le32(UInt32(pixels.count)) + H.le32(2835) + H.le32(2835) + H.le32(4) + H.le32(0)
        return Data(d + table + pixels)
    }

    func testPaletteAndRunLengthBitmaps() throws {
        for rle in [false, true] {
            let image = try loader.load(data: paletteBMP(rle: rle), name: "p.bmp", fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
            Tools.assertQuadrants(image, tolerance: 0, rle ? "RLE8 BMP" : "8-bit BMP")
            XCTAssertEqual(image.pixel(x: 0, y: 0).a, 255)
        }
    }

    func testTruncatedBitmap() {
        let data = paletteBMP(rle: false)
        XCTAssertThrowsError(try loader.load(data: data.prefix(data.count / 2), name: "cut.bmp", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
    }

    func testHugeHeaderIsRefusedBeforeDecoding() {
        let recorder = RecordingDecoder(formats: [.bmp], .forward(BMPDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: H.bmp(width: 60000, height: 60000),
                                                                      name: "bomb.bmp", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }
}
