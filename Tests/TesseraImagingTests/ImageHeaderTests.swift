import Foundation
import TesseraCore
import TesseraImaging
import XCTest

final class ImageHeaderTests: XCTestCase {
    func testJPEG() {
        let data = TestJPEG.solid(width: 123, height: 45, color: RGBA(r: 0, g: 0, b: 0))
        XCTAssertEqual(ImageHeader.read(data), ImageHeader(format: .jpeg, width: 123, height: 45))
        XCTAssertEqual(ImageHeader.read(TestJPEG.claiming(width: 60000, height: 50000)),
                       ImageHeader(format: .jpeg, width: 60000, height: 50000))
    }

    func testPNG() {
        XCTAssertEqual(ImageHeader.read(TestHeaders.png(width: 640, height: 480)),
                       ImageHeader(format: .png, width: 640, height: 480))
        XCTAssertEqual(ImageHeader.read(TestHeaders.png(width: 60000, height: 60000))?.pixelCount, 3_600_000_000)
    }

    func testGIF() {
        XCTAssertEqual(ImageHeader.read(TestHeaders.gif(width: 320, height: 200)),
                       ImageHeader(format: .gif, width: 320, height: 200))
        XCTAssertEqual(ImageHeader.read(TestHeaders.gifWithZeroScreen(frameWidth: 77, frameHeight: 66)),
                       ImageHeader(format: .gif, width: 77, height: 66))
    }

    func testBMPIncludingTopDownAndCoreHeader() {
        XCTAssertEqual(ImageHeader.read(TestHeaders.bmp(width: 800, height: 600)),
                       ImageHeader(format: .bmp, width: 800, height: 600))
        XCTAssertEqual(ImageHeader.read(TestHeaders.bmp(width: 800, height: -600)),
                       ImageHeader(format: .bmp, width: 800, height: 600), "negative height = top-down rows")
        XCTAssertEqual(ImageHeader.read(TestHeaders.bmpCore(width: 31, height: 17)),
                       ImageHeader(format: .bmp, width: 31, height: 17))
        XCTAssertNil(ImageHeader.read(TestHeaders.bmp(width: -5, height: 5)))
    }

    func testWebPAllThreeChunkKinds() {
        XCTAssertEqual(ImageHeader.read(TestHeaders.webpLossy(width: 1024, height: 768)),
                       ImageHeader(format: .webp, width: 1024, height: 768))
        XCTAssertEqual(ImageHeader.read(TestHeaders.webpLossless(width: 16383, height: 2)),
                       ImageHeader(format: .webp, width: 16383, height: 2))
        XCTAssertEqual(ImageHeader.read(TestHeaders.webpExtended(width: 60000, height: 60000)),
                       ImageHeader(format: .webp, width: 60000, height: 60000))
    }

    func testTIFFBothByteOrders() {
        XCTAssertEqual(ImageHeader.read(TestHeaders.tiff(width: 300, height: 70000, bigEndian: false)),
                       ImageHeader(format: .tiff, width: 300, height: 70000))
        XCTAssertEqual(ImageHeader.read(TestHeaders.tiff(width: 300, height: 70000, bigEndian: true)),
                       ImageHeader(format: .tiff, width: 300, height: 70000))
    }

    /// Every prefix of every header either parses to the right answer or returns nil: no traps, no
    /// reads past the end.
    func testTruncatedHeadersReturnNilNeverCrash() {
        let samples: [Data] = [
            TestJPEG.solid(width: 9, height: 9, color: RGBA(r: 1, g: 1, b: 1)),
            TestHeaders.png(width: 5, height: 6), TestHeaders.gif(width: 5, height: 6),
            TestHeaders.gifWithZeroScreen(frameWidth: 5, frameHeight: 6),
            TestHeaders.bmp(width: 5, height: 6), TestHeaders.bmpCore(width: 5, height: 6),
            TestHeaders.webpLossy(width: 5, height: 6), TestHeaders.webpLossless(width: 5, height: 6),
            TestHeaders.webpExtended(width: 5, height: 6), TestHeaders.tiff(width: 5, height: 6, bigEndian: true),
        ]
        for sample in samples {
            let full = ImageHeader.read(sample)
            XCTAssertNotNil(full)
            for n in 0..<sample.count {
                if let h = ImageHeader.read(sample.prefix(n)) { XCTAssertEqual(h, full) }
            }
        }
        XCTAssertNil(ImageHeader.read(TestHeaders.png(width: 5, height: 6).prefix(20)))
        XCTAssertNil(ImageHeader.read(Data("not an image at all".utf8)))
    }

    func testZeroDimensionsAreRejected() {
        XCTAssertNil(ImageHeader.read(TestHeaders.png(width: 0, height: 10)))
        XCTAssertNil(ImageHeader.read(TestHeaders.gifWithZeroScreen(frameWidth: 0, frameHeight: 0)))
    }
}
