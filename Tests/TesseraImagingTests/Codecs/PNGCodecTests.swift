import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging

/// The one PNG writer and reader: text chunks in and out, channels, and what the thumbnail reader refuses.
final class PNGCodecTests: XCTestCase {
    private let fields: [(key: String, value: String)] = [("Thumb::URI", "file:///a%20b.jpg"), ("Thumb::MTime", "1700000000"),
                                                          ("Comment", "caf\u{E9}")]

    private func pattern(alpha: UInt8 = 255) -> PixelBuffer {
        var pixels = PixelBuffer(width: 7, height: 5, filledWith: RGBA(r: 0, g: 0, b: 0, a: alpha))
        for i in stride(from: 0, to: pixels.bytes.count, by: 4) {
            pixels.bytes[i] = UInt8(i % 251); pixels.bytes[i + 1] = UInt8(i * 7 % 253); pixels.bytes[i + 2] = UInt8(i * 13 % 255)
        }
        return pixels
    }

    func testTextGoesBeforeTheImageDataAndReadsBack() throws {
        let png = try PNGEncoder.encode(pattern(), text: fields)
        let types = TestPNGChunks.chunks(png).map(\.type)
        XCTAssertEqual(types.first, "IHDR")
        XCTAssertEqual(types.filter { $0 == "tEXt" }.count, 3)
        XCTAssertLessThan(types.lastIndex(of: "tEXt")!, types.firstIndex(of: "IDAT")!)
        XCTAssertEqual(TestPNGChunks.textFields(png)["Thumb::URI"], "file:///a%20b.jpg")
        XCTAssertEqual(TestPNGChunks.chunks(png).first { $0.type == "tEXt" && $0.body.starts(with: Array("Comment".utf8)) }?.body.last,
                       0xE9, "Latin-1, one byte")

        let contents = try XCTUnwrap(PNGThumbnailIO.read(png))
        XCTAssertEqual(contents.pixels.bytes, pattern().bytes)
        XCTAssertEqual(contents.fields, Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0.value) }))
    }

    func testOpaquePixelsAreWrittenRGBAndTheRestRGBA() throws {
        XCTAssertEqual(TestPNGChunks.chunks(try PNGEncoder.encode(pattern()))[0].body[9], 2)
        let translucent = pattern(alpha: 100)
        let png = try PNGEncoder.encode(translucent, effort: .fast)
        XCTAssertEqual(TestPNGChunks.chunks(png)[0].body[9], 6)
        XCTAssertEqual(PNGThumbnailIO.read(png)?.pixels.bytes, translucent.bytes)
    }

    /// Grey tiles take the green byte; grey + alpha keeps alpha.
    func testGreyChannels() throws {
        let pixels = pattern(alpha: 80)
        let png = try pixels.bytes.withUnsafeBytes { raw in
            try PNGEncoder.encode(raw.baseAddress!, stride: pixels.bytesPerRow, width: pixels.width, height: pixels.height,
                                  channels: .greyAlpha) { Data($0) }
        }
        XCTAssertEqual(TestPNGChunks.chunks(png)[0].body[9], 4, "colour type grey + alpha")
        let back = try XCTUnwrap(PNGThumbnailIO.read(png)).pixels
        for i in stride(from: 0, to: pixels.bytes.count, by: 4) {
            XCTAssertEqual(Array(back.bytes[i..<(i + 4)]), [pixels.bytes[i + 1], pixels.bytes[i + 1], pixels.bytes[i + 1], 80])
        }
    }

    /// A text chunk that fails its checksum is left out; the rest of the file still reads. A damaged image
    /// chunk, a missing end or an oversized image make the whole file unreadable.
    func testDamageAndSize() throws {
        let png = try PNGEncoder.encode(pattern(), text: fields)
        var chunks = TestPNGChunks.chunks(png)
        let uri = chunks.firstIndex { $0.type == "tEXt" && $0.body.starts(with: Array("Thumb::URI".utf8)) }!
        var damaged = Data(png.prefix(8))
        for (index, chunk) in chunks.enumerated() {
            var bytes = TestPNGChunks.chunk(chunk.type, chunk.body)
            if index == uri { bytes[bytes.count - 1] ^= 0xFF }
            damaged += bytes
        }
        let read = try XCTUnwrap(PNGThumbnailIO.read(damaged))
        XCTAssertNil(read.fields["Thumb::URI"])
        XCTAssertEqual(read.fields["Thumb::MTime"], "1700000000")

        let idat = chunks.firstIndex { $0.type == "IDAT" }!
        chunks[idat].body[chunks[idat].body.count / 2] ^= 0x55
        XCTAssertNil(PNGThumbnailIO.read(Data(png.prefix(8)) + chunks.flatMap { TestPNGChunks.chunk($0.type, $0.body) }))
        XCTAssertNil(PNGThumbnailIO.read(png.prefix(png.count - 12)), "no IEND")
        XCTAssertNil(PNGThumbnailIO.read(png, maximumSide: 6))
        XCTAssertNil(PNGThumbnailIO.read(Data("not a png".utf8)))
    }

    /// International text (iTXt, UTF-8) after the image data is read too.
    func testInternationalTextAfterTheImageData() throws {
        let png = try PNGEncoder.encode(pattern())
        let body = Array("Title".utf8) + [0, 0, 0] + Array("en".utf8) + [0, 0] + Array("Grüße".utf8)
        let withText = png.prefix(png.count - 12) + TestPNGChunks.chunk("iTXt", body) + png.suffix(12)
        XCTAssertEqual(PNGThumbnailIO.read(withText)?.fields["Title"], "Grüße")
    }

    func testWrittenFileReadsBackAndAnUnwritablePathThrows() throws {
        let dir = try TemporaryDirectory()
        try PNGEncoder.write(pattern(alpha: 90), to: dir.path("out.png"))
        let written = try Data(contentsOf: dir.url.appendingPathComponent("out.png"))
        XCTAssertEqual(PNGThumbnailIO.read(written)?.pixels.bytes, pattern(alpha: 90).bytes)
        XCTAssertThrowsError(try PNGEncoder.write(pattern(), to: "/nonexistent-folder/out.png"))
    }

    /// Fields the caller rejects before the image data stop the read before any pixel is decoded.
    func testEarlyRejection() throws {
        let png = try PNGEncoder.encode(pattern(), text: fields)
        var seen: [String: String] = [:]
        XCTAssertNil(PNGThumbnailIO.read(png, rejects: { seen = $0; return true }))
        XCTAssertEqual(seen["Thumb::MTime"], "1700000000")
        XCTAssertNotNil(PNGThumbnailIO.read(png, rejects: { _ in false }))
    }
}
