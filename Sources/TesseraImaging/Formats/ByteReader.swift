import Foundation

/// Bounds-checked big/little-endian reads from raw bytes: every read past the end is nil, never a trap,
/// because the bytes come from arbitrary files.
struct ByteReader {
    let raw: UnsafeRawBufferPointer
    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    func u8(_ i: Int) -> UInt8? { i >= 0 && i < raw.count ? raw[i] : nil }

    /// `n` bytes from `i` as an unsigned integer, little- or big-endian.
    private func uint(_ i: Int, _ n: Int, bigEndian: Bool) -> UInt64? {
        guard i >= 0, n <= raw.count, i <= raw.count - n else { return nil }
        var v: UInt64 = 0
        for k in 0..<n {
            let byte = UInt64(raw[bigEndian ? i + k : i + n - 1 - k])
            v = v << 8 | byte
        }
        return v
    }

    func u16le(_ i: Int) -> UInt16? { uint(i, 2, bigEndian: false).map { UInt16($0) } }
    func u24le(_ i: Int) -> UInt32? { uint(i, 3, bigEndian: false).map { UInt32($0) } }
    func u32le(_ i: Int) -> UInt32? { uint(i, 4, bigEndian: false).map { UInt32($0) } }
    func u32be(_ i: Int) -> UInt32? { uint(i, 4, bigEndian: true).map { UInt32($0) } }
    func u16(_ i: Int, bigEndian: Bool) -> UInt16? { uint(i, 2, bigEndian: bigEndian).map { UInt16($0) } }
    func u32(_ i: Int, bigEndian: Bool) -> UInt32? { uint(i, 4, bigEndian: bigEndian).map { UInt32($0) } }
    func u64(_ i: Int, bigEndian: Bool) -> UInt64? { uint(i, 8, bigEndian: bigEndian) }

    /// `n` bytes from `i`, or nil when they are not all there.
    func bytes(_ i: Int, _ n: Int) -> UnsafeRawBufferPointer? {
        guard i >= 0, n >= 0, n <= raw.count, i <= raw.count - n else { return nil }
        return UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)])
    }

    func ascii(_ i: Int, _ n: Int) -> String? {
        guard i >= 0, n <= raw.count, i <= raw.count - n else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)]), as: UTF8.self)
    }
}
