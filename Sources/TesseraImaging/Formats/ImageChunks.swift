/// Metadata chunks of PNG and WebP files (their EXIF blocks), found by walking chunk lengths only, each
/// checked against the data before it is trusted. (Their ICC profiles are read by libpng and libwebp, as
/// the decoders read them: `ICCProfile.embedded`.)
enum ImageChunks {
    /// The payload of the first PNG chunk of `type` (four ASCII letters) before the image data: where
    /// `eXIf` belongs (browsers ignore an `eXIf` after `IDAT` too). PNG chunks are length
    /// (32-bit big-endian), type, payload, CRC.
    static func png(_ type: String, in b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let wanted = Array(type.utf8)
        var i = 8
        while i + 8 <= b.count {
            let length = Int(UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]))
            let start = i + 8
            guard length <= b.count - start else { return nil }
            let chunk = b[(i + 4)..<start]
            if chunk.elementsEqual("IDAT".utf8) || chunk.elementsEqual("IEND".utf8) { return nil }
            if chunk.elementsEqual(wanted) { return UnsafeRawBufferPointer(rebasing: b[start..<(start + length)]) }
            i = start + length + 4
        }
        return nil
    }

    /// The payload of the first chunk `fourCC` of a WebP file: the RIFF chunks after "RIFF" size "WEBP",
    /// each fourCC, 32-bit little-endian size, payload padded to an even length.
    static func webp(_ fourCC: String, in b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let wanted = Array(fourCC.utf8)
        var i = 12
        while i + 8 <= b.count {
            let size = Int(UInt32(b[i + 4]) | UInt32(b[i + 5]) << 8 | UInt32(b[i + 6]) << 16 | UInt32(b[i + 7]) << 24)
            let start = i + 8
            guard size <= b.count - start else { return nil }
            if b[i..<(i + 4)].elementsEqual(wanted) { return UnsafeRawBufferPointer(rebasing: b[start..<(start + size)]) }
            i = start + size + (size & 1)
        }
        return nil
    }
}
