import Foundation
import TesseraBench
import TesseraCore
import TesseraImaging
import XCTest

final class ExifReaderTests: XCTestCase {
    private let plainJPEG = TestJPEG.solid(width: 16, height: 8, color: RGBA(r: 200, g: 10, b: 10))

    func testJPEGAllValuesBothByteOrders() {
        for bigEndian in [false, true] {
            for value in 1...8 {
                let jpeg = TestExif.jpeg(plainJPEG, orientation: UInt16(value), bigEndian: bigEndian)
                XCTAssertEqual(ExifReader.orientation(in: jpeg, format: .jpeg), ImageOrientation(rawValue: value),
                               "value \(value), big-endian \(bigEndian)")
            }
        }
    }

    func testMissingOrInvalidOrientationIsUp() {
        XCTAssertEqual(ExifReader.orientation(in: plainJPEG, format: .jpeg), .up, "no EXIF at all")
        for value: UInt16 in [0, 9, 300] {
            XCTAssertEqual(ExifReader.orientation(in: TestExif.jpeg(plainJPEG, orientation: value), format: .jpeg), .up, "\(value)")
        }
        let noTag = TestExif.jpeg(plainJPEG, inserting: TestExif.app1(orientation: nil))
        XCTAssertEqual(ExifReader.orientation(in: noTag, format: .jpeg), .up, "EXIF without the tag")
    }

    /// IFD1 belongs to the embedded thumbnail; its orientation is not the picture's.
    func testOrientationOfTheThumbnailIFDIsIgnored() {
        let jpeg = TestExif.jpeg(plainJPEG, inserting: TestExif.app1(orientation: nil, ifd1Orientation: 6))
        XCTAssertEqual(ExifReader.orientation(in: jpeg, format: .jpeg), .up)
        let both = TestExif.jpeg(plainJPEG, inserting: TestExif.app1(orientation: 3, ifd1Orientation: 6))
        XCTAssertEqual(ExifReader.orientation(in: both, format: .jpeg), .rotated180)
    }

    /// Cameras and editors put XMP (also APP1) and ICC (APP2) segments around the EXIF one.
    func testExifAfterOtherSegments() {
        let xmpPayload = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let xmp: [UInt8] = [0xFF, 0xE1, 0, UInt8(xmpPayload.count + 2)] + xmpPayload
        let icc: [UInt8] = [0xFF, 0xE2, 0, 6, 1, 2, 3, 4]
        let jpeg = TestExif.jpeg(plainJPEG, inserting: xmp + icc + [0xFF] + TestExif.app1(orientation: 8, bigEndian: true))
        XCTAssertEqual(ExifReader.orientation(in: jpeg, format: .jpeg), .rotated270)
    }

    /// Broken EXIF never stops the picture: cut-off blocks, absurd offsets, lengths past the end.
    func testMalformedExifIsUp() {
        var app1 = TestExif.app1(orientation: 6)
        // IFD0 offset pointing far outside the block.
        app1[4 + 6 + 4] = 0xFF; app1[4 + 6 + 5] = 0xFF
        XCTAssertEqual(ExifReader.orientation(in: TestExif.jpeg(plainJPEG, inserting: app1), format: .jpeg), .up)
        // A segment length running past the end of the file.
        let cut = Data([0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00] + Array("Exif\0\0II*\0".utf8))
        XCTAssertEqual(ExifReader.orientation(in: cut, format: .jpeg), .up)
        // Every prefix of a valid file: no crash, and never a wrong non-up answer.
        let jpeg = TestExif.jpeg(plainJPEG, orientation: 6)
        for length in 0..<80 {
            let o = ExifReader.orientation(in: jpeg.prefix(length), format: .jpeg)
            XCTAssertTrue(o == .up || o == .rotated90, "\(length): \(o)")
        }
        // Random bytes after a valid EXIF header.
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let junk = (0..<Int(generator.next() % 120)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let block = Array("Exif\0\0".utf8) + (generator.next() % 2 == 0 ? Array("II*\0".utf8) : Array("MM\0*".utf8)) + junk
            let segment = [0xFF, 0xE1, UInt8((block.count + 2) >> 8), UInt8((block.count + 2) & 0xFF)] + block
            _ = ExifReader.orientation(in: TestExif.jpeg(plainJPEG, inserting: segment), format: .jpeg)
        }
    }

    func testPNGeXIfChunkBeforeImageData() {
        let png = minimalPNG()
        XCTAssertEqual(ExifReader.orientation(in: png, format: .png), .up)
        XCTAssertEqual(ExifReader.orientation(in: TestExif.png(png, orientation: 6), format: .png), .rotated90)
        // After IDAT it is ignored, as browsers do.
        XCTAssertEqual(ExifReader.orientation(in: TestExif.png(png, orientation: 6, afterImageData: true), format: .png), .up)
    }

    func testWebPExifChunk() {
        XCTAssertEqual(ExifReader.orientation(in: TestExif.webp(orientation: 5), format: .webp), .transposed)
        XCTAssertEqual(ExifReader.orientation(in: TestHeaders.webpLossy(width: 10, height: 10), format: .webp), .up)
    }

    func testFormatsWithoutExifAreUp() {
        XCTAssertEqual(ExifReader.orientation(in: TestHeaders.gif(width: 4, height: 4), format: .gif), .up)
        XCTAssertEqual(ExifReader.orientation(in: TestHeaders.bmp(width: 4, height: 4), format: .bmp), .up)
        XCTAssertEqual(ExifReader.orientation(in: TestHeaders.tiff(width: 4, height: 4, bigEndian: false), format: .tiff), .up)
    }

    /// Signature, IHDR, one (meaningless) IDAT, IEND: enough for a chunk walk.
    private func minimalPNG() -> Data {
        TestHeaders.png(width: 4, height: 4) + Data(TestPNGChunks.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00])
                                                    + TestPNGChunks.chunk("IEND", []))
    }
}
