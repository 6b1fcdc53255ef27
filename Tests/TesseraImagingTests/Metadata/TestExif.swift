import Foundation

/// EXIF blocks built by hand (a TIFF header and IFD0 holding the Orientation tag), and files carrying
/// them, so orientation tests know exactly which bytes the reader sees.
enum TestExif {
    /// A TIFF structure: header, IFD0 with Orientation (0x0112, SHORT, 1 value) unless `orientation` is
    /// nil, and optionally an IFD1 that has the tag instead (as a thumbnail's orientation).
    static func tiff(orientation: UInt16?, bigEndian: Bool = false, ifd1Orientation: UInt16? = nil) -> [UInt8] {
        let u16: (UInt16) -> [UInt8] = { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let u32: (UInt32) -> [UInt8] = { v in
            let b = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            return bigEndian ? b.reversed() : b
        }
        func entry(_ value: UInt16) -> [UInt8] { u16(0x0112) + u16(3) + u32(1) + u16(value) + u16(0) }
        var d: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        d += u16(42) + u32(8)
        let ifd0Entries = orientation.map { [entry($0)] } ?? []
        let ifd0Size = 2 + 12 * ifd0Entries.count + 4
        d += u16(UInt16(ifd0Entries.count)) + ifd0Entries.flatMap { $0 }
        d += u32(ifd1Orientation == nil ? 0 : UInt32(8 + ifd0Size))
        if let ifd1Orientation {
            d += u16(1) + entry(ifd1Orientation) + u32(0)
        }
        return d
    }

    /// "Exif\0\0" + TIFF, as a JPEG APP1 segment (marker and length included).
    static func app1(orientation: UInt16?, bigEndian: Bool = false, ifd1Orientation: UInt16? = nil) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff(orientation: orientation, bigEndian: bigEndian, ifd1Orientation: ifd1Orientation)
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with `segment` inserted right after SOI.
    static func jpeg(_ jpeg: Data, inserting segment: [UInt8]) -> Data {
        var out = Data(jpeg.prefix(2))
        out.append(contentsOf: segment)
        out.append(jpeg.dropFirst(2))
        return out
    }

    static func jpeg(_ jpeg: Data, orientation: UInt16, bigEndian: Bool = false) -> Data {
        self.jpeg(jpeg, inserting: app1(orientation: orientation, bigEndian: bigEndian))
    }

    /// `png` with an eXIf chunk (raw TIFF) inserted after IHDR, or after IDAT's end when `afterImageData`.
    static func png(_ png: Data, orientation: UInt16, afterImageData: Bool = false) -> Data {
        let chunk = TestPNGChunks.chunk("eXIf", tiff(orientation: orientation))
        var bytes = [UInt8](png)
        let at = afterImageData ? bytes.count - 12 : 33  // before IEND / after signature + IHDR
        bytes.insert(contentsOf: chunk, at: at)
        return Data(bytes)
    }

    /// A small extended WebP: VP8X, the `ICCP` chunk of `iccProfile` when given (flagged in VP8X unless
    /// `flagsProfile` is false), a 1x1 lossless image, then an EXIF chunk, in the order the container's
    /// specification gives them.
    static func webp(orientation: UInt16, iccProfile: [UInt8]? = nil, flagsProfile: Bool = true) -> Data {
        func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
            Array(fourCC.utf8) + le32(UInt32(payload.count)) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        // EXIF and alpha (the pixel is transparent), plus ICC when the profile is flagged; canvas 1x1.
        let flags: UInt8 = 0x08 | 0x10 | (iccProfile != nil && flagsProfile ? 0x20 : 0)
        var body = Array("WEBP".utf8) + chunk("VP8X", [flags, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        if let iccProfile { body += chunk("ICCP", iccProfile) }
        body += chunk("VP8L", [0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07])
        body += chunk("EXIF", tiff(orientation: orientation))
        return Data(Array("RIFF".utf8) + le32(UInt32(body.count)) + body)
    }

    private static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}

/// PNG chunk building and reading for tests, written independently of the code under test.
enum TestPNGChunks {
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return TestHeaders.be32(UInt32(body.count)) + typeBytes + body + TestHeaders.be32(TestHeaders.crc32(typeBytes + body))
    }

    /// Every chunk of a PNG in order: type and body.
    static func chunks(_ png: Data) -> [(type: String, body: [UInt8])] {
        let b = [UInt8](png)
        var out: [(String, [UInt8])] = []
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard i + 12 + length <= b.count else { break }
            out.append((String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), Array(b[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
        }
        return out
    }

    /// The tEXt fields of a PNG.
    static func textFields(_ png: Data) -> [String: String] {
        var fields: [String: String] = [:]
        for (type, body) in chunks(png) where type == "tEXt" {
            guard let nul = body.firstIndex(of: 0) else { continue }
            fields[String(decoding: body[..<nul], as: UTF8.self)] = String(decoding: body[(nul + 1)...], as: UTF8.self)
        }
        return fields
    }
}
