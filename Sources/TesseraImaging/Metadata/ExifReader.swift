import CExif
import Foundation

/// Reads what the viewer needs from an image's EXIF data: the orientation.
///
/// Finding the EXIF block is format-specific and done here (a walk over JPEG segments, PNG chunks or
/// RIFF chunks, reading lengths only); interpreting it is libexif's job. Only the EXIF block is handed
/// to libexif, never the whole file, so the cost does not grow with the image.
///
/// Where EXIF is looked for:
/// - JPEG: the first APP1 segment starting with "Exif\0\0", before the scan data.
/// - PNG: an `eXIf` chunk before the first `IDAT` (where browsers honour it too).
/// - WebP: an `EXIF` chunk of an extended (VP8X) file.
/// - TIFF: the file is itself the structure EXIF borrows, and its first directory's Orientation tag is
///   read directly (`TIFFDirectory`); `TIFFDecoder` hands over the rows as stored.
/// - Not read: HEIF, AVIF and JPEG XL, whose decoders turn the pixels upright themselves (the container's
///   rotation boxes, the codestream's orientation), and camera RAW, whose decoder does too (libraw's
///   flip). GIF, BMP and SVG carry no orientation.
public enum ExifReader {
    /// The orientation recorded in `data` (a whole file, or at least its metadata), or `.up` when there is
    /// none, it is not 1...8, or the EXIF block is malformed: a broken tag must never stop a picture.
    public static func orientation(in data: Data, format: ImageFormat) -> ImageOrientation {
        data.withUnsafeBytes { raw -> ImageOrientation in
            if format == .tiff {
                guard let value = TIFFDirectory(raw)?.integer(TIFFDirectory.Tag.orientation) else { return .up }
                return ImageOrientation(exifValue: Int(value)) ?? .up
            }
            guard let block = exifBlock(in: raw, format: format) else { return .up }
            return orientation(inExifBlock: block)
        }
    }

    /// The orientation in an EXIF block: "Exif\0\0" followed by a TIFF header and IFDs, or the TIFF
    /// header alone (as PNG and WebP store it).
    public static func orientation(inExifBlock block: UnsafeRawBufferPointer) -> ImageOrientation {
        guard block.count >= 8, block.count <= Int(UInt32.max) else { return .up }
        if startsWithExifHeader(block) { return parse(block) }
        // libexif wants the "Exif\0\0" header, so add it.
        var prefixed = [UInt8](exifHeader)
        prefixed.append(contentsOf: block)
        return prefixed.withUnsafeBytes { parse($0) }
    }

    // MARK: - libexif

    private static func parse(_ block: UnsafeRawBufferPointer) -> ImageOrientation {
        guard let exif = exif_data_new() else { return .up }
        defer { exif_data_unref(exif) }
        // Following the specification makes libexif "fix" the data after loading (adding the entries the
        // standard requires); only reading one tag, that is wasted work.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_load_data(exif, block.bindMemory(to: UInt8.self).baseAddress, UInt32(block.count))
        // IFD0 describes the main image; IFD1 (which exif_data_get_entry would fall back to) describes
        // the embedded thumbnail, whose orientation is not the picture's.
        guard let ifd0 = exif.pointee.ifd.0,
              let entry = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION),
              entry.pointee.format == EXIF_FORMAT_SHORT, entry.pointee.components >= 1,
              let value = entry.pointee.data, entry.pointee.size >= 2
        else { return .up }
        let raw = exif_get_short(value, exif_data_get_byte_order(exif))
        return ImageOrientation(exifValue: Int(raw)) ?? .up
    }

    private static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    private static func startsWithExifHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 6 && bytes.prefix(6).elementsEqual(exifHeader)
    }

    // MARK: - Finding the EXIF block

    static func exifBlock(in raw: UnsafeRawBufferPointer, format: ImageFormat) -> UnsafeRawBufferPointer? {
        switch format {
        case .jpeg: return jpegExif(raw)
        case .png: return pngExif(raw)
        case .webp: return webpExif(raw)
        case .tiff, .gif, .bmp, .heif, .avif, .jxl, .svg, .raw, .unknown: return nil
        }
    }

    /// Walks the marker segments after SOI until the scan starts. Each segment is FF, marker, 16-bit
    /// big-endian length (which counts itself); fill bytes (extra FFs) may precede a marker.
    private static func jpegExif(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                              // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }                   // scan data or the end
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if marker == 0xE1 {
                let payload = UnsafeRawBufferPointer(rebasing: b[(i + 4)..<(i + 2 + length)])
                if startsWithExifHeader(payload) { return payload }
            }
            i += 2 + length
        }
        return nil
    }

    /// Walks PNG chunks (length, type, data, CRC) from after the signature until the image data.
    private static func pngExif(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var i = 8
        while i + 8 <= b.count {
            let length = Int(bigEndian32(b, i))
            let type = (b[i + 4], b[i + 5], b[i + 6], b[i + 7])
            let start = i + 8
            guard length <= b.count - start else { return nil }
            if type == (0x49, 0x44, 0x41, 0x54) || type == (0x49, 0x45, 0x4E, 0x44) { return nil }  // IDAT, IEND
            if type == (0x65, 0x58, 0x49, 0x66) {  // eXIf
                return UnsafeRawBufferPointer(rebasing: b[start..<(start + length)])
            }
            i = start + length + 4
        }
        return nil
    }

    /// Walks the RIFF chunks after "RIFF" size "WEBP": fourcc, 32-bit little-endian size, payload padded
    /// to an even length.
    private static func webpExif(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var i = 12
        while i + 8 <= b.count {
            let size = Int(UInt32(b[i + 4]) | UInt32(b[i + 5]) << 8 | UInt32(b[i + 6]) << 16 | UInt32(b[i + 7]) << 24)
            let start = i + 8
            guard size <= b.count - start else { return nil }
            if (b[i], b[i + 1], b[i + 2], b[i + 3]) == (0x45, 0x58, 0x49, 0x46) {  // EXIF
                return UnsafeRawBufferPointer(rebasing: b[start..<(start + size)])
            }
            i = start + size + (size & 1)
        }
        return nil
    }

    private static func bigEndian32(_ b: UnsafeRawBufferPointer, _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }
}
