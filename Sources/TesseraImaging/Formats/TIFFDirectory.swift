import Foundation

/// The first image file directory (IFD0) of a TIFF-structured file, read from raw bytes without libtiff:
/// enough to measure a TIFF, read its orientation and tell camera RAW files (TIFF underneath) from plain
/// TIFFs while sniffing. Classic TIFF and BigTIFF, either byte order; every offset is bounds-checked, and
/// an entry or value beyond the bytes given reads as absent.
struct TIFFDirectory {
    private let reader: ByteReader
    private let bigEndian: Bool
    private let bigTIFF: Bool
    /// Offsets of IFD0's entries, by tag.
    private var entries: [UInt16: Int] = [:]

    /// Tags read here.
    enum Tag {
        static let imageWidth: UInt16 = 256
        static let imageLength: UInt16 = 257
        static let make: UInt16 = 271
        static let orientation: UInt16 = 274
        static let subIFDs: UInt16 = 330
        static let dngVersion: UInt16 = 50706
    }

    /// Nil unless `raw` starts with a TIFF header whose IFD0 entry count is within `raw`.
    init?(_ raw: UnsafeRawBufferPointer) {
        let r = ByteReader(raw)
        guard let order = r.ascii(0, 2), order == "II" || order == "MM" else { return nil }
        bigEndian = order == "MM"
        guard let magic = r.u16(2, bigEndian: bigEndian), magic == 42 || magic == 43 else { return nil }
        bigTIFF = magic == 43
        reader = r
        let count: Int, first: Int
        if bigTIFF {
            guard let ifd = r.u64(8, bigEndian: bigEndian), ifd < UInt64(Int32.max),
                  let n = r.u64(Int(ifd), bigEndian: bigEndian), n < 65536 else { return nil }
            count = Int(n); first = Int(ifd) + 8
        } else {
            guard let ifd = r.u32(4, bigEndian: bigEndian), ifd < UInt32(Int32.max),
                  let n = r.u16(Int(ifd), bigEndian: bigEndian) else { return nil }
            count = Int(n); first = Int(ifd) + 2
        }
        let entrySize = bigTIFF ? 20 : 12
        for i in 0..<count {
            let e = first + i * entrySize
            guard let tag = r.u16(e, bigEndian: bigEndian) else { break }
            if entries[tag] == nil { entries[tag] = e }
        }
    }

    /// Whether IFD0 has an entry for `tag` (within the bytes given).
    func contains(_ tag: UInt16) -> Bool { entries[tag] != nil }

    /// The first value of a SHORT, LONG or (BigTIFF) LONG8 entry.
    func integer(_ tag: UInt16) -> UInt64? {
        guard let e = entries[tag], let type = reader.u16(e + 2, bigEndian: bigEndian) else { return nil }
        // The value sits left-justified in the entry's value field (4 bytes, or 8 in BigTIFF).
        let v = e + (bigTIFF ? 12 : 8)
        switch type {
        case 3: return reader.u16(v, bigEndian: bigEndian).map(UInt64.init)
        case 4: return reader.u32(v, bigEndian: bigEndian).map(UInt64.init)
        case 16 where bigTIFF: return reader.u64(v, bigEndian: bigEndian)
        default: return nil
        }
    }

    /// An ASCII entry's text up to its first NUL, when its bytes are within those given.
    func text(_ tag: UInt16) -> String? {
        guard let e = entries[tag], reader.u16(e + 2, bigEndian: bigEndian) == 2 else { return nil }
        let count: Int
        let inlineSize = bigTIFF ? 8 : 4
        if bigTIFF {
            guard let n = reader.u64(e + 4, bigEndian: bigEndian), n < 4096 else { return nil }
            count = Int(n)
        } else {
            guard let n = reader.u32(e + 4, bigEndian: bigEndian), n < 4096 else { return nil }
            count = Int(n)
        }
        let start: Int
        if count <= inlineSize {
            start = e + (bigTIFF ? 12 : 8)
        } else if bigTIFF {
            guard let offset = reader.u64(e + 12, bigEndian: bigEndian), offset < UInt64(Int32.max) else { return nil }
            start = Int(offset)
        } else {
            guard let offset = reader.u32(e + 8, bigEndian: bigEndian) else { return nil }
            start = Int(offset)
        }
        guard let bytes = reader.bytes(start, count) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
