import TesseraFiles
import XCTest

final class CacheFileNameTests: XCTestCase {
    /// RFC 1321's test suite (appendix A.5), and keys like the caches' (digests from Python's hashlib).
    func testKnownDigests() {
        let vectors: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
             "57edf4a22be3c955ac49da2e2107b67a"),
            ("caf\u{E9}", "07117fe4a1ebd544965dc19573183da2"),
            ("https://example.org/photos/a.jpg?size=large", "8b347ed2ca29960a794a0f0a9a5ff7d3"),
        ]
        for (key, digest) in vectors {
            XCTAssertEqual(CacheFileName.md5Hex(key), digest, key)
        }
    }

    /// The Thumbnail Managing Standard's own example: thumbnails other programs made are found, and ours
    /// are found by them.
    func testThumbnailStandardExample() {
        XCTAssertEqual(CacheFileName.md5Hex("file:///home/jens/photos/me.png"), "c6ee772d9e49320e97ec29a7eb5b1697")
    }
}
