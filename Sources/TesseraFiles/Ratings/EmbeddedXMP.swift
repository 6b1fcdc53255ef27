import Foundation
import TesseraCore

/// The XMP packet an image file carries itself (a JPEG's APP1 segment, a TIFF or raw file's tag 700, a
/// PNG's iTXt chunk), found by scanning its first bytes for the packet's `x:xmpmeta` element, as
/// XMPFiles' packet scanning does, but over a bounded head: the image may be hostile or huge, and what is
/// not found there counts as no packet. Writers put the packet near the start (a JPEG must, before its
/// pixels); one written after the pixels is not read. UTF-16 packets, which no camera writes, are not
/// looked for.
enum EmbeddedXMP {
    /// How much of an image is scanned.
    static let scanLimit = 256 << 10

    /// The bytes of the first `x:xmpmeta` element (`x:xapmeta`, its older name, too) in the first
    /// `limit` bytes of the image at `path`; nil when there is none or the file cannot be read.
    static func packet(inImageAt path: String, limit: Int = scanLimit) -> Data? {
        guard let head = ImageFile.head(ofFileAt: path, count: limit) else { return nil }
        for (open, close) in elements {
            guard let start = ByteSearch.firstRange(of: open, in: head) else { continue }
            guard let end = ByteSearch.firstRange(of: close, in: head, from: start.upperBound) else { return nil }
            return head.withUnsafeBytes { Data($0[start.lowerBound..<end.upperBound]) }
        }
        return nil
    }

    private static let elements: [([UInt8], [UInt8])] = [
        (Array("<x:xmpmeta".utf8), Array("</x:xmpmeta>".utf8)),
        (Array("<x:xapmeta".utf8), Array("</x:xapmeta>".utf8)),
    ]
}
