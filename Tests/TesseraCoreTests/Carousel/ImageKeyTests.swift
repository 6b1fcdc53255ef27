import XCTest
@testable import TesseraCore

/// The cache, the scheduler and the in-flight marks find an image by its key: keys for the same file,
/// size, variant and content must meet, and any difference must keep them apart (a changed file must
/// never be served the old pixels).
final class ImageKeyTests: XCTestCase {
    func testKeysMeetOnlyWhenEverythingMatches() {
        let size = PixelSize(width: 400, height: 300)
        let version = FileVersion(size: 1000, modifiedNanoseconds: 5)
        let key = ImageKey(path: "/photos/a.jpg", size: size, version: version)
        let same = ImageKey(path: "/photos/" + "a.jpg", size: PixelSize(width: 400, height: 300),
                            version: FileVersion(size: 1000, modifiedNanoseconds: 5))
        XCTAssertEqual(key, same)
        XCTAssertEqual(key.hashValue, same.hashValue)

        let others = [
            ImageKey(path: "/photos/b.jpg", size: size, version: version),
            ImageKey(path: "/photos/a.jpg", size: PixelSize(width: 200, height: 150), version: version),
            ImageKey(path: "/photos/a.jpg", size: size, variant: .preview, version: version),
            ImageKey(path: "/photos/a.jpg", size: size, version: FileVersion(size: 1000, modifiedNanoseconds: 6)),
            ImageKey(path: "/photos/a.jpg", size: size, version: nil),
        ]
        var found: [ImageKey: Int] = [key: -1]
        for (i, other) in others.enumerated() {
            XCTAssertNotEqual(key, other, "\(other)")
            found[other] = i
        }
        XCTAssertEqual(found.count, others.count + 1)
        XCTAssertEqual(found[same], -1)
    }

    func testOriginalSizeKeysIgnoreTheBox() {
        let a = ImageKey(path: "/p.png", size: PixelSize(width: 400, height: 300), variant: .original)
        let b = ImageKey(path: "/p.png", size: PixelSize(width: 800, height: 600), variant: .original)
        XCTAssertEqual(a, b)
        XCTAssertEqual(Set([a, b]).count, 1)
    }
}
