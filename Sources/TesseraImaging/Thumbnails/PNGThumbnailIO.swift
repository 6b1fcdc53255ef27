import CPNG
import Foundation
import TesseraCore

/// Reads and writes thumbnail PNGs: pixels through libpng, `tEXt` fields through a chunk walk.
///
/// Why libpng's simplified API (`png_image_*`) and not its classic one: the classic API reports errors by
/// `longjmp`, which Swift cannot survive, while the simplified one catches them itself and returns 0, so a
/// corrupt or truncated thumbnail is a nil here and never a crash. It cannot read or write text chunks,
/// so those are found by walking the chunk list (checking their CRCs) and spliced in after `IHDR` when
/// writing, which is where GNOME and KDE put theirs too.
enum PNGThumbnailIO {
    /// The largest thumbnail side accepted when reading (the biggest standard size is 1024; anything far
    /// beyond it is not a thumbnail and must not make us allocate).
    static let maximumSide = 4096

    // MARK: - Reading

    /// The text fields of a PNG (`tEXt`, and uncompressed `iTXt`), or nil when `data` is not a PNG, its
    /// chunk structure is broken or it ends before `IEND` (a truncated file). Text chunks whose CRC does
    /// not match are left out. Compressed text (`zTXt`, compressed `iTXt`) is skipped: thumbnail writers
    /// use plain `tEXt` for the short ASCII values of the standard.
    static func textFields(in data: Data) -> [String: String]? {
        data.withUnsafeBytes { b -> [String: String]? in
            guard b.count >= 8, b.prefix(8).elementsEqual(signature) else { return nil }
            var fields: [String: String] = [:]
            var i = 8
            while i + 12 <= b.count {
                let length = Int(bigEndian32(b, i))
                let start = i + 8
                guard length <= b.count - start - 4 else { return nil }
                let type = UnsafeRawBufferPointer(rebasing: b[(i + 4)..<(i + 8)])
                let body = UnsafeRawBufferPointer(rebasing: b[start..<(start + length)])
                if type.elementsEqual(tEXt) || type.elementsEqual(iTXt) {
                    let stored = bigEndian32(b, start + length)
                    if CRC32.checksum(UnsafeRawBufferPointer(rebasing: b[(i + 4)..<(start + length)])) == stored,
                       let (key, value) = type.elementsEqual(tEXt) ? parseText(body) : parseInternationalText(body) {
                        fields[key] = value
                    }
                } else if type.elementsEqual(IEND) {
                    return fields
                }
                i = start + length + 4
            }
            return nil  // no IEND: cut short
        }
    }

    /// The pixels of a PNG as ARGB8888 (straight alpha), any colour type or bit depth, interlaced or not;
    /// nil for anything libpng refuses (corrupt, truncated) or bigger than `maximumSide`.
    static func decodePixels(_ data: Data, maximumSide: Int = maximumSide) -> PixelBuffer? {
        data.withUnsafeBytes { raw -> PixelBuffer? in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            // 16-bit files without gAMA/sRGB are sRGB in practice, not the linear data libpng assumes.
            image.flags = UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            defer { png_image_free(&image) }
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else { return nil }
            let width = Int(image.width), height = Int(image.height)
            guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else { return nil }
            image.format = UInt32(PNG_FORMAT_BGRA)
            var ok = false
            let bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
                ok = png_image_finish_read(&image, nil, buffer.baseAddress, Int32(width * 4), nil) != 0
                initialized = width * height * 4
            }
            return ok ? PixelBuffer(width: width, height: height, bytes: bytes) : nil
        }
    }

    // MARK: - Writing

    /// `pixels` as a PNG carrying `text` as `tEXt` chunks (keys and values must be Latin-1; the
    /// thumbnail fields are ASCII). Opaque images are written as RGB, the rest as RGBA. Nil only if libpng
    /// fails, which for an in-memory write means it ran out of memory.
    static func encode(_ pixels: PixelBuffer, text: [(key: String, value: String)]) -> Data? {
        guard pixels.width > 0, pixels.height > 0 else { return nil }
        let opaque = isOpaque(pixels)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(pixels.width)
        image.height = UInt32(pixels.height)
        image.format = UInt32(opaque ? PNG_FORMAT_BGR : PNG_FORMAT_BGRA)
        // Thumbnails are written on a decode worker while the user waits for the cell: zlib level 3 without
        // row filters encodes a 256 px photo thumbnail in about 2 ms instead of 8, for files about 30% larger.
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        let channels = opaque ? 3 : 4
        let source = opaque ? packBGR(pixels) : pixels.bytes

        // Deflate expands incompressible data by a few bytes per 16 KB block; PNG adds a filter byte per
        // row and chunk headers. If the guess is still short, libpng says how much it needs.
        var capacity = pixels.width * pixels.height * channels + pixels.height * 2 + 4096
        for _ in 0..<2 {
            var size = capacity
            var encoded = [UInt8](repeating: 0, count: capacity)
            let ok = source.withUnsafeBytes { src in
                png_image_write_to_memory(&image, &encoded, &size, 0, src.baseAddress, Int32(pixels.width * channels), nil)
            }
            png_image_free(&image)
            if ok != 0 {
                encoded.removeSubrange(size...)
                return Data(withText(encoded, text))
            }
            guard size > capacity else { return nil }
            capacity = size
        }
        return nil
    }

    /// `png` with a `tEXt` chunk per field inserted right after `IHDR` (8-byte signature + 25-byte chunk).
    private static func withText(_ png: [UInt8], _ text: [(key: String, value: String)]) -> [UInt8] {
        let insertAt = 8 + 25
        var chunks: [UInt8] = []
        for (key, value) in text {
            var body = Array(key.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) })
            body.append(0)
            body += value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            chunks += chunk(tEXt, body)
        }
        var out = [UInt8]()
        out.reserveCapacity(png.count + chunks.count)
        out += png[..<insertAt]
        out += chunks
        out += png[insertAt...]
        return out
    }

    static func chunk(_ type: [UInt8], _ body: [UInt8]) -> [UInt8] {
        var out = be32(UInt32(body.count)) + type + body
        out += be32(CRC32.checksum(type + body))
        return out
    }

    private static func isOpaque(_ pixels: PixelBuffer) -> Bool {
        pixels.bytes.withUnsafeBufferPointer { p in
            var i = 3
            while i < p.count {
                if p[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    private static func packBGR(_ pixels: PixelBuffer) -> [UInt8] {
        let count = pixels.width * pixels.height
        return pixels.bytes.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: count * 3) { dst, initialized in
                for p in 0..<count {
                    dst[3 * p] = src[4 * p]
                    dst[3 * p + 1] = src[4 * p + 1]
                    dst[3 * p + 2] = src[4 * p + 2]
                }
                initialized = count * 3
            }
        }
    }

    // MARK: - Chunk helpers

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let tEXt = Array("tEXt".utf8)
    static let iTXt = Array("iTXt".utf8)
    static let IEND = Array("IEND".utf8)

    /// keyword NUL text, both Latin-1.
    private static func parseText(_ body: UnsafeRawBufferPointer) -> (String, String)? {
        guard let nul = body.firstIndex(of: 0), nul > 0 else { return nil }
        return (latin1(body[..<nul]), latin1(body[(nul + 1)...]))
    }

    /// keyword NUL, compression flag, method, language tag NUL, translated keyword NUL, UTF-8 text.
    private static func parseInternationalText(_ body: UnsafeRawBufferPointer) -> (String, String)? {
        guard let nul = body.firstIndex(of: 0), nul > 0, nul + 2 < body.count, body[nul + 1] == 0 else { return nil }
        let afterFlags = nul + 3
        guard let languageEnd = body[afterFlags...].firstIndex(of: 0),
              let translatedEnd = body[(languageEnd + 1)...].firstIndex(of: 0) else { return nil }
        return (latin1(body[..<nul]), String(decoding: body[(translatedEnd + 1)...], as: UTF8.self))
    }

    private static func latin1(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }

    private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    private static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320, reflected), table-driven.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }
}
