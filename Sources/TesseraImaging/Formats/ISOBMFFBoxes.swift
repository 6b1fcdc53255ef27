/// The boxes of an ISO base media file (HEIF, AVIF, the JPEG XL container) read from their lengths only:
/// a box is a 32-bit big-endian size (1: a 64-bit size follows the type; 0: to the end of its container)
/// and a four-letter type, then its payload. Nothing past the bytes given is trusted.
enum ISOBMFFBoxes {
    /// One box: its four-letter type and where its payload lies.
    struct Box {
        var type: String
        var payload: Range<Int>
    }

    /// The boxes filling `range`; stops at the first one that does not fit.
    static func boxes(in r: ByteReader, range: Range<Int>) -> [Box] {
        var found: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound, let size32 = r.u32be(offset), let type = r.ascii(offset + 4, 4) {
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = r.u64(offset + 8, bigEndian: true), large <= UInt64(Int.max) else { break }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - offset  // to the end of its container
            }
            guard size >= header, size <= range.upperBound - offset else { break }
            found.append(Box(type: type, payload: (offset + header)..<(offset + size)))
            offset += size
        }
        return found
    }

    /// The payload of the first `type` box in `range`.
    static func child(_ type: String, in r: ByteReader, range: Range<Int>) -> Range<Int>? {
        boxes(in: r, range: range).first { $0.type == type }?.payload
    }

    /// Whether the file's top-level boxes promise more bytes than it has: a file cut short, which a
    /// decoder can still make a picture of from the part that is there.
    static func endsShort(_ r: ByteReader, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count, let size32 = r.u32be(offset) {
            var size = Int(size32)
            if size32 == 1 {
                guard let large = r.u64(offset + 8, bigEndian: true), large <= UInt64(Int.max) else { return false }
                size = Int(large)
            } else if size32 == 0 {
                return false  // to the end of the file, wherever that is
            }
            guard size >= 8 else { return false }
            if size > count - offset { return true }
            offset += size
        }
        return false
    }
}
