import CTurboJPEG
import Foundation
import TesseraCore

/// The format and pixel dimensions of an image, read from its header without decoding any pixels.
///
/// This exists so the loader can refuse a file whose header claims, say, 60000x60000 *before* anything
/// allocates 14 GB for it. Every parser here only reads a few fixed fields (bounds-checked) and never
/// trusts a length it hasn't checked against the data it was given.
package struct ImageHeader: Sendable, Equatable {
    package var format: ImageFormat
    package var width: Int
    package var height: Int

    package init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }
    /// Width x height, the number the pixel limit is compared against.
    package var pixelCount: Int { width * height }

    /// Which readers `read` may use.
    package enum Readers: Sendable {
        /// Each format's own: for JPEG, HEIF, AVIF, JPEG XL, SVG and camera RAW, C libraries (TurboJPEG,
        /// libheif, libjxl, librsvg, libraw).
        case libraries
        /// Swift readers alone, for the viewer when decodes run in sandboxed helpers: JPEG's frame header,
        /// HEIF's and AVIF's declared size (`HEIFPrimarySize`, which leaves out a crop), JPEG XL's
        /// SizeHeader (`JXLSizeHeader`); SVG and camera RAW read as nil. Meant for estimates: exact
        /// sizes of those formats come from their libraries, in a helper.
        case memorySafe
    }

    /// Reads the header of `data` (the whole file, or a prefix of it).
    ///
    /// Returns nil when the format is unknown or the header is incomplete or malformed, including a header
    /// that claims a zero dimension. A nil result for data that sniffs as an image therefore means
    /// "truncated or broken", which is how the loader reports it.
    ///
    /// - Parameter isWholeFile: false when `data` is a prefix of the file. HEIF, AVIF, SVG and camera RAW
    ///   sizes are then not read (nil): libheif refuses a file whose items reach past its end, an SVG's
    ///   size needs the whole document parsed, and a raw file's dimensions may sit anywhere in it, where
    ///   a prefix would give wrong ones rather than none.
    package static func read(_ data: Data, isWholeFile: Bool = true) -> ImageHeader? {
        read(data, isWholeFile: isWholeFile, readers: .libraries)
    }

    /// `read(_:isWholeFile:)` with `readers`. The Swift readers of HEIF and AVIF read a prefix too: the
    /// boxes they need come before the image data, and when they do not, the result is nil.
    package static func read(_ data: Data, isWholeFile: Bool, readers: Readers) -> ImageHeader? {
        let format = ImageFormat.sniff(data)
        let dims: (Int, Int)?
        if readers == .memorySafe {
            switch format {
            case .jpeg: dims = data.withUnsafeBytes { jpegFrameSize($0) }
            case .heif, .avif: dims = data.withUnsafeBytes { HEIFPrimarySize.read($0) }
            case .jxl: dims = data.withUnsafeBytes { JXLSizeHeader.read($0) }
            case .svg, .raw, .unknown: return nil
            case .png, .gif, .bmp, .webp, .tiff: return read(data, isWholeFile: isWholeFile, readers: .libraries)
            }
            guard let (w, h) = dims, w > 0, h > 0 else { return nil }
            return ImageHeader(format: format, width: w, height: h)
        }
        if !isWholeFile && [.heif, .avif, .svg, .raw].contains(format) { return nil }
        guard let (w, h) = dimensions(data, format: format), w > 0, h > 0 else { return nil }
        return ImageHeader(format: format, width: w, height: h)
    }

    /// Why `read` finds no header in `data`, a whole file that sniffs as an image: a file that ends in
    /// its headers is truncated; a header that is all there but names no size, or that its library
    /// refuses, is damaged, in the library's words where it has them.
    static func problem(_ data: Data) -> ImageLoadError.Reason {
        let format = ImageFormat.sniff(data)
        if format == .jpeg {
            let end = data.withUnsafeBytes { JPEGSegments.walk($0) { _ in true } }
            switch end {
            case .malformed(let why) where why == JPEGSegments.endsInHeaders: return .truncated
            case .malformed(let why): return .decodeFailed("damaged header: \(why)")
            case .scan, .stopped:
                return .decodeFailed("damaged header: \(jpegHeaderMessage(data) ?? "TurboJPEG cannot read it")")
            }
        }
        if let (w, h) = dimensions(data, format: format), w <= 0 || h <= 0 {
            return .decodeFailed("the header gives the image no size (\(w) × \(h))")
        }
        return .truncated
    }

    /// The width and height `format`'s header gives, whatever they are; nil when it cannot be read.
    private static func dimensions(_ data: Data, format: ImageFormat) -> (Int, Int)? {
        let dims: (Int, Int)?
        switch format {
        case .jpeg: dims = jpegSize(data)
        case .heif, .avif: dims = data.withUnsafeBytes { HEIFFile.primarySize($0) }
        case .jxl: dims = data.withUnsafeBytes { JXLDecodeSession.uprightSize($0) }
        case .svg: dims = data.withUnsafeBytes { SVGDocument.size($0) }
        case .raw: dims = data.withUnsafeBytes { RawFile.uprightSize($0) }
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
                case .jpeg, .heif, .avif, .jxl, .svg, .raw, .unknown: return nil
                }
            }
        }
        return dims
    }

    /// TurboJPEG's words for a JPEG header it refuses.
    private static func jpegHeaderMessage(_ data: Data) -> String? {
        guard data.count <= Int(Int32.max), let handle = tjInitDecompress() else { return nil }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let rc = data.withUnsafeBytes { raw -> Int32 in
            tjDecompressHeader3(handle, raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count),
                                &w, &h, &subsamp, &colorspace)
        }
        guard rc != 0, let message = tjGetErrorStr2(handle) else { return nil }
        return String(cString: message)
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

    /// JPEG in Swift: the first start-of-frame segment's height and width, found by the same walk over
    /// marker segments that finds the EXIF block (SOF0 to SOF15 but DHT, JPG and DAC, which share the
    /// range): precision(1) height(2, BE) width(2, BE). As for TurboJPEG, the headers must run up to the
    /// first scan, and a height of 0 (set later by a DNL marker) is no size.
    static func jpegFrameSize(_ b: UnsafeRawBufferPointer) -> (Int, Int)? {
        var size: (Int, Int)?
        let end = JPEGSegments.walk(b) { segment in
            if size == nil, isFrameMarker(segment.marker) {
                let r = ByteReader(UnsafeRawBufferPointer(rebasing: b[segment.payload]))
                guard let h = r.u16(1, bigEndian: true), let w = r.u16(3, bigEndian: true) else { return false }
                size = (Int(w), Int(h))
            }
            return true
        }
        guard case .scan = end else { return nil }
        return size
    }

    /// Whether the JPEG in `b` (its headers up to the first scan at least) is one sequential frame stored in
    /// one scan, which libjpeg decodes a part of without the rest (`JPEGRegionReader`): SOF0, SOF1 or
    /// SOF9 whose first scan holds every component. A progressive, lossless or hierarchical frame, or one
    /// whose components come in scans of their own, is decoded whole.
    package static func jpegIsSequential(_ b: UnsafeRawBufferPointer) -> Bool {
        var frame: (marker: UInt8, components: UInt8?)?
        var scanComponents: UInt8?
        let end = JPEGSegments.walk(b) { segment in
            let r = ByteReader(UnsafeRawBufferPointer(rebasing: b[segment.payload]))
            if frame == nil, isFrameMarker(segment.marker) { frame = (segment.marker, r.u8(5)) }
            if segment.marker == 0xDA { scanComponents = r.u8(0) }
            return true
        }
        guard case .scan = end, let frame, [0xC0, 0xC1, 0xC9].contains(frame.marker), let components = frame.components
        else { return false }
        return components == scanComponents
    }

    /// SOF0 to SOF15 but DHT, JPG and DAC, which share the range.
    private static func isFrameMarker(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
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

    /// TIFF: ImageWidth (256) and ImageLength (257) of the first directory. The directory may sit anywhere
    /// (often at the end of the file), so this only works on the whole file.
    private static func tiffSize(_ r: ByteReader) -> (Int, Int)? {
        guard let directory = TIFFDirectory(r.raw),
              let width = directory.integer(TIFFDirectory.Tag.imageWidth),
              let height = directory.integer(TIFFDirectory.Tag.imageLength),
              width <= UInt64(Int32.max), height <= UInt64(Int32.max) else { return nil }
        return (Int(width), Int(height))
    }
}
