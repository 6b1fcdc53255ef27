import TesseraImaging
import XCTest

final class ImageLoadErrorTests: XCTestCase {
    func testShortTexts() {
        typealias R = ImageLoadError.Reason
        XCTAssertEqual(R.missing.shortText, "File not found")
        XCTAssertEqual(R.unreadable("Permission denied").shortText, "Unreadable: Permission denied")
        XCTAssertEqual(R.empty.shortText, "Empty file")
        XCTAssertEqual(R.notAnImage.shortText, "Not an image")
        XCTAssertEqual(R.unsupportedFormat("WEBP").shortText, "Unsupported format: WEBP")
        XCTAssertEqual(R.truncated.shortText, "Truncated file")
        XCTAssertEqual(R.tooLarge(width: 60000, height: 60000, limit: 100_000_000).shortText, "Too large: 60000×60000 (limit 100 MP)")
        XCTAssertEqual(R.tooLarge(width: 5000, height: 5000, limit: 12_500_000).shortText, "Too large: 5000×5000 (limit 12.5 MP)")
        XCTAssertEqual(R.fileTooLarge(bytes: 600 << 20, limit: 512 << 20).shortText, "File too large: 600 MB (limit 512 MB)")
        XCTAssertEqual(R.decodeFailed("bad Huffman code").shortText, "Decode failed: bad Huffman code")
    }

    func testDescription() {
        XCTAssertEqual(ImageLoadError(path: "/a/b.jpg", reason: .empty).description, "/a/b.jpg: Empty file")
    }
}
