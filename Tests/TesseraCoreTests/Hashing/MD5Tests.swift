import TesseraCore
import XCTest

final class MD5Tests: XCTestCase {
    /// The test suite of RFC 1321, appendix A.5.
    func testRFC1321Vectors() {
        let vectors: [(String, String)] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            ("12345678901234567890123456789012345678901234567890123456789012345678901234567890",
             "57edf4a22be3c955ac49da2e2107b67a"),
        ]
        for (input, expected) in vectors {
            XCTAssertEqual(MD5.hex(input), expected, "MD5(\"\(input)\")")
        }
    }

    /// Lengths around the 64-byte block and the 56-byte padding boundary, fed in uneven pieces, against
    /// digests computed with Python's hashlib.
    func testBlockBoundariesAndIncrementalUpdates() {
        let expected: [Int: String] = [
            55: "ef1772b6dff9a122358552954ad0df65",
            56: "3b0c8ac703f828b04c6c197006d17218",
            57: "652b906d60af96844ebd21b674f35e93",
            63: "b06521f39153d618550606be297466d5",
            64: "014842d480b571495a4a0363793f7367",
            65: "c743a45e0d2e6a95cb859adae0248435",
            1000: "cabe45dcc9ae5b66ba86600cca6b8ba8",
        ]
        for (length, digest) in expected {
            let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            XCTAssertEqual(MD5.hexString(MD5.digest(bytes)), digest, "\(length) bytes at once")
            var md5 = MD5()
            var offset = 0, piece = 1
            while offset < length {
                let end = min(length, offset + piece)
                md5.update(bytes[offset..<end])
                offset = end
                piece = piece * 3 % 70 + 1
            }
            XCTAssertEqual(MD5.hexString(md5.finalize()), digest, "\(length) bytes in pieces")
        }
    }

    /// The example of the Thumbnail Managing Standard.
    func testThumbnailURI() {
        XCTAssertEqual(MD5.hex("file:///home/jens/photos/me.png"), "c6ee772d9e49320e97ec29a7eb5b1697")
    }
}
