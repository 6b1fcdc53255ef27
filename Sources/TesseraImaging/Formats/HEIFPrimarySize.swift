import Foundation

/// The size of a HEIF or AVIF file's primary image, read in Swift from the ISO-BMFF boxes that declare it,
/// for `DecodeMemory`'s estimate in a viewer that must not hand a file's bytes to libheif (decodes run
/// in sandboxed helpers).
///
/// Why hand-written beside libheif: the estimate runs before every decode, where a round trip to a helper
/// would cost more than the decode's bookkeeping is worth, and the boxes it needs are few and fixed
/// (ISO/IEC 23008-12): `meta` holds `pitm` (the primary item's number) and `iprp`, whose `ipco` lists
/// properties and whose `ipma` says which belong to which item; the primary item's `ispe` is its size
/// and an `irot` of a quarter or three quarters turns it on its side. Every length is checked against
/// the bytes given; anything unexpected reads as nil, and the estimate then asks a helper. A clean
/// aperture (`clap`) is left out: it only crops, so the estimate errs high, never low. Exact sizes (the
/// tiled view's, the information overlay's) come from libheif, in a helper.
enum HEIFPrimarySize {
    /// The primary image's size as shown after its rotation, or nil when the boxes that say it are not
    /// all within `data` or are malformed.
    static func read(_ raw: UnsafeRawBufferPointer) -> (width: Int, height: Int)? {
        let r = ByteReader(raw)
        guard let meta = ISOBMFFBoxes.child("meta", in: r, range: 0..<raw.count), meta.count >= 4 else { return nil }
        let metaChildren = (meta.lowerBound + 4)..<meta.upperBound  // a full box: version and flags first
        guard let pitm = ISOBMFFBoxes.child("pitm", in: r, range: metaChildren), let primary = itemID(fullBox: pitm, in: r),
              let iprp = ISOBMFFBoxes.child("iprp", in: r, range: metaChildren),
              let ipco = ISOBMFFBoxes.child("ipco", in: r, range: iprp), let ipma = ISOBMFFBoxes.child("ipma", in: r, range: iprp),
              let associated = properties(of: primary, ipma: ipma, in: r) else { return nil }
        let list = ISOBMFFBoxes.boxes(in: r, range: ipco)
        var size: (width: Int, height: Int)?
        var quarterTurns = 0
        for index in associated {
            if index == 0 { continue }  // "no property"
            guard index <= list.count else { return nil }
            let property = list[index - 1]
            switch property.type {
            case "ispe":
                guard property.payload.count >= 12, let w = r.u32be(property.payload.lowerBound + 4),
                      let h = r.u32be(property.payload.lowerBound + 8) else { return nil }
                size = (Int(w), Int(h))
            case "irot":
                guard property.payload.count >= 1, let angle = r.u8(property.payload.lowerBound) else { return nil }
                quarterTurns += Int(angle & 3)
            default:
                continue
            }
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return quarterTurns % 2 == 1 ? (size.height, size.width) : size
    }

    /// `pitm`: version 0 has a 16-bit item number, later versions a 32-bit one.
    private static func itemID(fullBox payload: Range<Int>, in r: ByteReader) -> UInt32? {
        guard let version = r.u8(payload.lowerBound) else { return nil }
        if version == 0 { return r.u16(payload.lowerBound + 4, bigEndian: true).map(UInt32.init) }
        return r.u32be(payload.lowerBound + 4)
    }

    /// The 1-based `ipco` indices `ipma` associates with `item`, in order (the order transformations apply).
    private static func properties(of item: UInt32, ipma payload: Range<Int>, in r: ByteReader) -> [Int]? {
        guard let version = r.u8(payload.lowerBound), let flags = r.u8(payload.lowerBound + 3),
              let count = r.u32be(payload.lowerBound + 4) else { return nil }
        var offset = payload.lowerBound + 8
        for _ in 0..<count {
            let id: UInt32
            if version < 1 {
                guard let short = r.u16(offset, bigEndian: true) else { return nil }
                id = UInt32(short)
                offset += 2
            } else {
                guard let long = r.u32be(offset) else { return nil }
                id = long
                offset += 4
            }
            guard let associations = r.u8(offset) else { return nil }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<associations {
                if flags & 1 != 0 {
                    guard let value = r.u16(offset, bigEndian: true) else { return nil }
                    indices.append(Int(value & 0x7FFF))
                    offset += 2
                } else {
                    guard let value = r.u8(offset) else { return nil }
                    indices.append(Int(value & 0x7F))
                    offset += 1
                }
            }
            guard offset <= payload.upperBound else { return nil }
            if id == item { return indices }
        }
        return nil
    }
}
