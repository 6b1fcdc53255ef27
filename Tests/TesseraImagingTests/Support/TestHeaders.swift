import CZlib
import Foundation

/// Hand-written headers of the non-JPEG formats. They contain just enough to be recognised and measured,
/// no pixels: exactly what a hostile or broken file claiming a huge size looks like.
enum TestHeaders {
    static func png(width: UInt32, height: UInt32) -> Data {
        var d: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = Array("IHDR".utf8)
        ihdr += be32(width) + be32(height) + [8, 6, 0, 0, 0]  // 8-bit RGBA, no interlace
        d += be32(13) + ihdr + be32(crc32(ihdr))
        return Data(d)
    }

    static func gif(width: UInt16, height: UInt16) -> Data {
        var d = Array("GIF89a".utf8)
        d += le16(width) + le16(height) + [0x00, 0x00, 0x00]  // no global colour table
        d += [0x3B]  // trailer
        return Data(d)
    }

    /// A GIF whose logical screen is 0x0, so the size must come from the first image descriptor,
    /// after a global colour table and a graphic control extension.
    static func gifWithZeroScreen(frameWidth: UInt16, frameHeight: UInt16) -> Data {
        var d = Array("GIF89a".utf8)
        d += le16(0) + le16(0) + [0x80, 0x00, 0x00]  // global colour table of 2 entries
        d += [0, 0, 0, 255, 255, 255]
        d += [0x21, 0xF9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00]  // graphic control extension
        d += [0x2C] + le16(0) + le16(0) + le16(frameWidth) + le16(frameHeight) + [0x00]
        return Data(d)
    }

    /// BITMAPINFOHEADER; a negative height is a top-down bitmap.
    static func bmp(width: Int32, height: Int32) -> Data {
        var d = Array("BM".utf8)
        d += le32(54) + [0, 0, 0, 0] + le32(54)  // file size, reserved, pixel offset
        d += le32(40) + le32(UInt32(bitPattern: width)) + le32(UInt32(bitPattern: height))
        d += le16(1) + le16(32) + le32(0) + le32(0) + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Data(d)
    }

    /// OS/2 BITMAPCOREHEADER with 16-bit dimensions.
    static func bmpCore(width: UInt16, height: UInt16) -> Data {
        var d = Array("BM".utf8)
        d += le32(26) + [0, 0, 0, 0] + le32(26)
        d += le32(12) + le16(width) + le16(height) + le16(1) + le16(24)
        return Data(d)
    }

    private static func riff(_ chunk: String, _ payload: [UInt8]) -> Data {
        var body = Array("WEBP".utf8) + Array(chunk.utf8) + le32(UInt32(payload.count)) + payload
        if payload.count % 2 == 1 { body += [0] }
        return Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }

    static func webpLossy(width: UInt16, height: UInt16) -> Data {
        riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [UInt8](repeating: 0, count: 8))
    }

    static func webpLossless(width: UInt32, height: UInt32) -> Data {
        let bits = (width - 1) | (height - 1) << 14  // alpha flag and version bits are zero
        return riff("VP8L", [0x2F] + le32(bits) + [0, 0, 0])
    }

    static func webpExtended(width: UInt32, height: UInt32) -> Data {
        riff("VP8X", [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    /// A classic TIFF with the IFD after an 8-byte gap, ImageWidth as SHORT and ImageLength as LONG.
    static func tiff(width: UInt16, height: UInt32, bigEndian: Bool) -> Data {
        let u16: (UInt16) -> [UInt8] = { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : le16($0) }
        let u32: (UInt32) -> [UInt8] = { bigEndian ? be32($0) : le32($0) }
        var d: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        d += u16(42) + u32(16) + [UInt8](repeating: 0, count: 8)
        d += u16(3)  // entries
        d += u16(254) + u16(4) + u32(1) + u32(0)                  // NewSubfileType
        d += u16(256) + u16(3) + u32(1) + u16(width) + u16(0)     // ImageWidth, SHORT, left-justified
        d += u16(257) + u16(4) + u32(1) + u32(height)             // ImageLength, LONG
        d += u32(0)  // no next IFD
        return Data(d)
    }

    /// An ISO base media file's `ftyp` box with these brands, then an empty `meta` box.
    static func isoBaseMedia(major: String, compatible: [String]) -> Data {
        let brands = compatible.flatMap { Array($0.utf8) }
        var d = be32(UInt32(16 + brands.count)) + Array("ftyp".utf8) + Array(major.utf8) + be32(0) + brands
        d += be32(8) + Array("meta".utf8)
        return Data(d)
    }

    /// A TIFF entry: tag, type (2 ASCII, 3 SHORT, 4 LONG) and its value's bytes, little-endian.
    struct TIFFEntry {
        var tag: UInt16, type: UInt16, count: UInt32, value: [UInt8]

        static func short(_ tag: UInt16, _ v: UInt16) -> TIFFEntry { TIFFEntry(tag: tag, type: 3, count: 1, value: le16(v)) }
        static func long(_ tag: UInt16, _ v: UInt32) -> TIFFEntry { TIFFEntry(tag: tag, type: 4, count: 1, value: le32(v)) }
        static func ascii(_ tag: UInt16, _ text: String) -> TIFFEntry {
            let bytes = Array(text.utf8) + [0]
            return TIFFEntry(tag: tag, type: 2, count: UInt32(bytes.count), value: bytes)
        }
        static func bytes(_ tag: UInt16, _ v: [UInt8]) -> TIFFEntry { TIFFEntry(tag: tag, type: 1, count: UInt32(v.count), value: v) }
    }

    /// A little-endian classic TIFF header and one directory holding `entries` (sorted by tag), values
    /// longer than 4 bytes after the directory; `magic` 42 is TIFF, others are cameras' variants.
    static func tiff(entries: [TIFFEntry], magic: UInt16 = 42, afterHeader: [UInt8] = []) -> Data {
        let sorted = entries.sorted { $0.tag < $1.tag }
        let ifdOffset = 8 + afterHeader.count
        var extra: [UInt8] = []
        let extraStart = ifdOffset + 2 + sorted.count * 12 + 4
        var d: [UInt8] = [0x49, 0x49] + le16(magic) + le32(UInt32(ifdOffset)) + afterHeader + le16(UInt16(sorted.count))
        for e in sorted {
            d += le16(e.tag) + le16(e.type) + le32(e.count)
            if e.value.count <= 4 {
                d += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
            } else {
                d += le32(UInt32(extraStart + extra.count))
                extra += e.value
                if extra.count % 2 == 1 { extra += [0] }
            }
        }
        return Data(d + le32(0) + extra)
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func le24(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// zlib's CRC-32, which PNG chunks end with.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
    }
}
