import CTurboJPEG
import Foundation
import TesseraCore

/// The format and pixel dimensions of an image, read from its header without decoding any pixels.
///
/// This exists so the loader can refuse a file whose header claims, say, 60000x60000 *before* anything
/// allocates 14 GB for it. Every parser here only reads a few fixed fields (bounds-checked) and never
/// trusts a length it hasn't checked against the data it was given.
public struct ImageHeader: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    public var size: PixelSize { PixelSize(width: width, height: height) }
    /// Width x height, the number the pixel limit is compared against.
    public var pixelCount: Int { width * height }

    /// Reads the header of `data` (the whole file, or a prefix of it).
    ///
    /// Returns nil when the format is unknown or the header is incomplete or malformed, including a header
    /// that claims a zero dimension. A nil result for data that sniffs as an image therefore means
    /// "truncated or broken", which is how the loader reports it.
    public static func read(_ data: Data) -> ImageHeader? {
        let format = ImageFormat.sniff(data)
        let dims: (Int, Int)?
        switch format {
        case .jpeg: dims = jpegSize(data)
        case .unknown: return nil
        default:
            dims = data.withUnsafeBytes { raw -> (Int, Int)? in
                let r = ByteReader(raw)
                switch format {
                case .png: return pngSize(r)
                case .gif: return gifSize(r)
                case .bmp: return bmpSize(r)
                case .webp: return webpSize(r)
                case .tiff: return tiffSize(r)
                case .jpeg, .unknown: return nil
                }
            }
        }
        guard let (w, h) = dims, w > 0, h > 0 else { return nil }
        return ImageHeader(format: format, width: w, height: h)
    }

    // MARK: - Per-format parsers

    /// TurboJPEG walks the markers up to SOS itself, which copes with any amount of EXIF/ICC data in
    /// front of the frame header; a hand-written SOF scan would have to reimplement that.
    private static func jpegSize(_ data: Data) -> (Int, Int)? {
        // tjDecompressHeader3 takes an unsigned long length; beyond Int32 it is not a file we'd open anyway.
        guard data.count > 4, data.count <= Int(Int32.max), let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let rc = data.withUnsafeBytes { raw -> Int32 in
            tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                                &w, &h, &subsamp, &colorspace)
        }
        // A warning (e.g. stray bytes before a marker) still leaves valid dimensions.
        guard rc == 0 || tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { return nil }
        return (Int(w), Int(h))
    }

    /// PNG: the 8-byte signature, then the IHDR chunk, which the spec requires to come first:
    /// length(4) "IHDR" width(4, BE) height(4, BE).
    private static func pngSize(_ r: ByteReader) -> (Int, Int)? {
        guard r.ascii(12, 4) == "IHDR", let w = r.u32be(16), let h = r.u32be(20) else { return nil }
        // The spec caps both at 2^31-1.
        guard w <= UInt32(Int32.max), h <= UInt32(Int32.max) else { return nil }
        return (Int(w), Int(h))
    }

    /// GIF: the logical screen descriptor right after the 6-byte signature. Some encoders write 0x0 there;
    /// then the first image descriptor's size is what a decoder will produce.
    private static func gifSize(_ r: ByteReader) -> (Int, Int)? {
        guard let w = r.u16le(6), let h = r.u16le(8), let flags = r.u8(10) else { return nil }
        if w > 0 && h > 0 { return (Int(w), Int(h)) }
        var p = 13
        if flags & 0x80 != 0 { p += 3 << (Int(flags & 0x07) + 1) }  // global colour table
        while let block = r.u8(p) {
            switch block {
            case 0x2C:  // image descriptor: left(2) top(2) width(2) height(2)
                guard let fw = r.u16le(p + 5), let fh = r.u16le(p + 7) else { return nil }
                return (Int(fw), Int(fh))
            case 0x21:  // extension: label, then sub-blocks until a zero-length one
                p += 2
                while let len = r.u8(p), len != 0 { p += Int(len) + 1 }
                guard r.u8(p) != nil else { return nil }
                p += 1
            default:
                return nil
            }
        }
        return nil
    }

    /// BMP: "BM", a 12-byte file header, then the DIB header whose size says which layout it is.
    /// OS/2 BITMAPCOREHEADER has 16-bit unsigned dims; everything later (BITMAPINFOHEADER and up) has
    /// signed 32-bit ones where a negative height means top-down rows.
    private static func bmpSize(_ r: ByteReader) -> (Int, Int)? {
        guard let dibSize = r.u32le(14) else { return nil }
        if dibSize == 12 {
            guard let w = r.u16le(18), let h = r.u16le(20) else { return nil }
            return (Int(w), Int(h))
        }
        guard dibSize >= 16, let w = r.u32le(18), let h = r.u32le(22) else { return nil }
        let width = Int(Int32(bitPattern: w)), height = Int(Int32(bitPattern: h))
        guard width > 0 else { return nil }
        return (width, abs(height))
    }

    /// WebP: a RIFF container whose first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, which
    /// carries the canvas size for animations and images with alpha/metadata).
    private static func webpSize(_ r: ByteReader) -> (Int, Int)? {
        switch r.ascii(12, 4) {
        case "VP8 ":
            // 3-byte frame tag, start code 9D 01 2A, then 14-bit width and height (top 2 bits are scale).
            guard r.u8(23) == 0x9D, r.u8(24) == 0x01, r.u8(25) == 0x2A,
                  let w = r.u16le(26), let h = r.u16le(28) else { return nil }
            return (Int(w & 0x3FFF), Int(h & 0x3FFF))
        case "VP8L":
            // Signature byte 0x2F, then 14 bits width-1 and 14 bits height-1, little-endian bit order.
            guard r.u8(20) == 0x2F, let bits = r.u32le(21) else { return nil }
            return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
        case "VP8X":
            // Flags(1) reserved(3), then 24-bit canvas width-1 and height-1.
            guard let w = r.u24le(24), let h = r.u24le(27) else { return nil }
            return (Int(w) + 1, Int(h) + 1)
        default:
            return nil
        }
    }

    /// TIFF: follow the header's offset to the first IFD and read ImageWidth (256) and ImageLength (257).
    /// Handles both byte orders and BigTIFF. The IFD may sit anywhere (often at the end of the file), so
    /// this only works on the whole file.
    private static func tiffSize(_ r: ByteReader) -> (Int, Int)? {
        guard let order = r.ascii(0, 2) else { return nil }
        let bigEndian = order == "MM"
        guard bigEndian || order == "II", let magic = r.u16(2, bigEndian: bigEndian) else { return nil }
        let big = magic == 43
        let entrySize = big ? 20 : 12
        let count: Int, first: Int
        if big {
            guard let ifd = r.u64(8, bigEndian: bigEndian), ifd < UInt64(Int.max),
                  let n = r.u64(Int(ifd), bigEndian: bigEndian), n < 65536 else { return nil }
            count = Int(n); first = Int(ifd) + 8
        } else {
            guard let ifd = r.u32(4, bigEndian: bigEndian), let n = r.u16(Int(ifd), bigEndian: bigEndian)
            else { return nil }
            count = Int(n); first = Int(ifd) + 2
        }
        var width: Int?, height: Int?
        for i in 0..<count {
            let e = first + i * entrySize
            guard let tag = r.u16(e, bigEndian: bigEndian), let type = r.u16(e + 2, bigEndian: bigEndian)
            else { return nil }
            guard tag == 256 || tag == 257 else { continue }
            // The value sits left-justified in the entry's value field (4 bytes, or 8 in BigTIFF).
            let v = e + (big ? 12 : 8)
            let value: UInt64?
            switch type {
            case 3: value = r.u16(v, bigEndian: bigEndian).map(UInt64.init)   // SHORT
            case 4: value = r.u32(v, bigEndian: bigEndian).map(UInt64.init)   // LONG
            case 16 where big: value = r.u64(v, bigEndian: bigEndian)          // LONG8
            default: value = nil
            }
            guard let value, value <= UInt64(Int32.max) else { return nil }
            if tag == 256 { width = Int(value) } else { height = Int(value) }
            if let width, let height { return (width, height) }
        }
        return nil
    }
}

/// Bounds-checked big/little-endian reads from raw bytes: every read past the end is nil, never a trap,
/// because the bytes come from arbitrary files.
private struct ByteReader {
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

    func ascii(_ i: Int, _ n: Int) -> String? {
        guard i >= 0, n <= raw.count, i <= raw.count - n else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[i..<(i + n)]), as: UTF8.self)
    }
}
