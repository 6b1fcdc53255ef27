import Foundation

/// The upright size of a JPEG XL image, read in Swift from its codestream's SizeHeader and the
/// orientation in its ImageMetadata, for `DecodeMemory`'s estimate in a viewer that must not hand a
/// file's bytes to libjxl (decodes run in sandboxed helpers).
///
/// Why hand-written beside libjxl: the estimate runs before every decode, where a round trip to a helper
/// would cost more than the estimate is worth, and the fields are the first few dozen bits of the
/// codestream (ISO/IEC 18181-1, SizeHeader and the start of ImageMetadata), read least significant bit
/// first: a flag for small sizes (multiples of 8 up to 256), else a 2-bit selector of 9, 13, 18 or 30
/// bits for the height; a 3-bit aspect ratio, or the width coded the same way; then, unless the
/// metadata is all default, the orientation. In the ISO-BMFF container the codestream is the payload of
/// a `jxlc` box, or of `jxlp` boxes in turn, after their 4-byte counter. Every read is bounds-checked;
/// whatever cannot be read is nil, and the estimate then asks a helper. Exact sizes (the tiled view's,
/// the information overlay's) come from libjxl, in a helper.
enum JXLSizeHeader {
    /// Width and height as shown (orientations 5 to 8 swap them), or nil.
    static func read(_ raw: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        guard let codestream = codestreamStart(raw) else { return nil }
        var bits = BitReader(codestream)
        guard bits.read(8) == 0xFF, bits.read(8) == 0x0A else { return nil }
        guard let small = bits.read(1) else { return nil }
        let height: Int
        if small == 1 {
            guard let h = bits.read(5) else { return nil }
            height = (h + 1) * 8
        } else {
            guard let h = bits.u32Size() else { return nil }
            height = h
        }
        guard let ratio = bits.read(3) else { return nil }
        let width: Int
        if ratio == 0 {
            if small == 1 {
                guard let w = bits.read(5) else { return nil }
                width = (w + 1) * 8
            } else {
                guard let w = bits.u32Size() else { return nil }
                width = w
            }
        } else {
            let (numerator, denominator) = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][ratio - 1]
            width = height * numerator / denominator
        }
        var orientation = 1
        guard let allDefault = bits.read(1) else { return nil }
        if allDefault == 0 {
            guard let extraFields = bits.read(1) else { return nil }
            if extraFields == 1 {
                guard let value = bits.read(3) else { return nil }
                orientation = value + 1
            }
        }
        guard width > 0, height > 0 else { return nil }
        return orientation > 4 ? (height, width) : (width, height)
    }

    /// The codestream's first bytes: the data itself for a bare codestream, else the first `jxlc` payload
    /// or the first `jxlp` boxes' parts joined (enough of them for the header).
    static func codestreamStart(_ raw: UnsafeRawBufferPointer) -> [UInt8]? {
        if raw.count >= 2, raw[0] == 0xFF, raw[1] == 0x0A { return Array(raw.prefix(64)) }
        let r = ByteReader(raw)
        guard r.u32be(0) == 12, r.ascii(4, 4) == "JXL " else { return nil }
        var joined: [UInt8] = []
        for box in ISOBMFFBoxes.boxes(in: r, range: 0..<raw.count) {
            switch box.type {
            case "jxlc":
                return Array(UnsafeRawBufferPointer(rebasing: raw[box.payload]).prefix(64))
            case "jxlp":
                guard box.payload.count >= 4 else { return nil }
                joined += UnsafeRawBufferPointer(rebasing: raw[(box.payload.lowerBound + 4)..<box.payload.upperBound]).prefix(64)
                if joined.count >= 64 { return joined }
            default:
                continue
            }
        }
        return joined.isEmpty ? nil : joined
    }

    /// Bits least significant first, as JPEG XL packs them; nil past the end.
    struct BitReader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func read(_ count: Int) -> Int? {
            var value = 0
            for bit in 0..<count {
                let index = position >> 3
                guard index < bytes.count else { return nil }
                value |= Int((bytes[index] >> UInt8(position & 7)) & 1) << bit
                position += 1
            }
            return value
        }

        /// A dimension as SizeHeader codes it when not small: a selector of 9, 13, 18 or 30 bits, plus one.
        mutating func u32Size() -> Int? {
            guard let selector = read(2), let value = read([9, 13, 18, 30][selector]) else { return nil }
            return value + 1
        }
    }
}
