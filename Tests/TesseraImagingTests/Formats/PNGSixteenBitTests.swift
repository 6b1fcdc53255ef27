import CPNG
import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import XCTest

/// 16-bit PNG samples are rounded to the nearest 8-bit level; grey with alpha keeps both.
final class PNGSixteenBitTests: XCTestCase {
    /// A `width` x 1 PNG of 16-bit samples (big-endian in the file), written with libpng's full API.
    private func png16(colourType: Int32, channels: Int, samples: [UInt16], width: Int, to path: String) {
        guard let file = fopen(path, "wb") else { preconditionFailure("fopen \(path)") }
        defer { fclose(file) }
        // libpng reports errors by longjmp, which Swift cannot catch; a tiny file in memory does not fail.
        var png: png_structp? = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, { _, message in
            fatalError("libpng: \(message.map { String(cString: $0) } ?? "?")")
        }, nil)
        var info: png_infop? = png_create_info_struct(png)
        defer { png_destroy_write_struct(&png, &info) }
        png_init_io(png, file)
        png_set_IHDR(png, info, UInt32(width), 1, 16, colourType, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                     PNG_FILTER_TYPE_DEFAULT)
        png_write_info(png, info)
        var row = samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        precondition(row.count == width * channels * 2)
        png_write_row(png, &row)
        png_write_end(png, nil)
    }

    func testSamplesAreRoundedNotCut() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("rgb16.png")
        // 511 is 1.99 levels (high byte 1), 65024 is 253.01 (high byte 254), 32896 is 128 (high byte 128).
        png16(colourType: PNG_COLOR_TYPE_RGB, channels: 3, samples: [511, 65024, 32896, 65535, 0, 257], width: 2, to: path)
        let image = try ImageLoader(decoders: [PNGDecoder()]).load(path: path, fitting: nil)
        XCTAssertEqual(image.pixel(x: 0, y: 0), RGBA(r: 2, g: 253, b: 128))
        XCTAssertEqual(image.pixel(x: 1, y: 0), RGBA(r: 255, g: 0, b: 1))
    }

    func testGreyWithAlpha() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ga16.png")
        png16(colourType: PNG_COLOR_TYPE_GRAY_ALPHA, channels: 2, samples: [25700, 32896, 65535, 0], width: 2, to: path)
        let image = try ImageLoader(decoders: [PNGDecoder()]).load(path: path, fitting: nil)
        XCTAssertEqual(image.pixel(x: 0, y: 0), RGBA(r: 100, g: 100, b: 100, a: 128))
        XCTAssertEqual(image.pixel(x: 1, y: 0), RGBA(r: 255, g: 255, b: 255, a: 0))
    }
}
