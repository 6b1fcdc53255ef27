import Foundation
import TesseraCore
import TesseraImaging
import XCTest

final class ImageFormatTests: XCTestCase {
    func testSniffsEveryFormatByMagicBytes() {
        XCTAssertEqual(ImageFormat.sniff(TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 1, g: 2, b: 3))), .jpeg)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.png(width: 1, height: 1)), .png)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.gif(width: 1, height: 1)), .gif)
        XCTAssertEqual(ImageFormat.sniff(Data("GIF87a".utf8) + Data(count: 10)), .gif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.webpLossy(width: 1, height: 1)), .webp)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.bmp(width: 1, height: 1)), .bmp)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(width: 1, height: 1, bigEndian: false)), .tiff)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(width: 1, height: 1, bigEndian: true)), .tiff)
    }

    func testUnknownAndTooShortInputs() {
        XCTAssertEqual(ImageFormat.sniff(Data()), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data([0xFF, 0xD8])), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data("hello, world, this is text".utf8)), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data("RIFF\0\0\0\0WAVEfmt ".utf8)), .unknown, "a RIFF that isn't WebP")
        // Text that happens to start with "BM" is not a bitmap.
        XCTAssertEqual(ImageFormat.sniff(Data("BMW and other cars are listed here".utf8)), .unknown)
    }

    func testSniffAcceptsArraysAndSlices() {
        let png = TestHeaders.png(width: 3, height: 4)
        XCTAssertEqual(ImageFormat.sniff([UInt8](png)), .png)
        let padded = Data([1, 2, 3]) + png
        XCTAssertEqual(ImageFormat.sniff(padded.dropFirst(3)), .png, "a Data slice with a non-zero start index")
    }

    /// The extension is irrelevant: a JPEG saved as .png decodes as JPEG, a PNG saved as .jpg is a PNG.
    func testWrongExtensionStillDecodesByContent() throws {
        let dir = try TemporaryDirectory()
        let jpeg = TestJPEG.solid(width: 20, height: 10, color: RGBA(r: 200, g: 40, b: 10))
        let path = try dir.write(jpeg, to: "actually-a-jpeg.png")
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        let image = try loader.load(path: path, fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 20, height: 10))
        XCTAssertTrue(image.pixel(x: 10, y: 5).isClose(to: RGBA(r: 200, g: 40, b: 10), tolerance: 3))

        let png = try dir.write(TestHeaders.png(width: 5, height: 5), to: "actually-a-png.jpg")
        let recorder = RecordingDecoder(formats: [.png])
        _ = try ImageLoader(decoders: [TurboJPEGDecoder(), recorder]).load(path: png, fitting: nil)
        XCTAssertEqual(recorder.calls.map(\.format), [.png])
    }
}
