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
/// - TIFF is not read: libtiff (under SDL_image, which asks it for top-left rows) applies orientations
///   2 to 4 itself, so a correction here would turn them twice. For 5 to 8 it applies only the mirroring
///   part and not the 90° turn; fixing those needs the decoder to say what it applied. GIF and BMP carry
///   no EXIF.
public enum ExifReader {
    /// The orientation recorded in `data` (a whole file, or at least its metadata), or `.up` when there is
    /// none, it is not 1...8, or the EXIF block is malformed: a broken tag must never stop a picture.
    public static func orientation(in data: Data, format: ImageFormat) -> ImageOrientation {
        data.withUnsafeBytes { raw -> ImageOrientation in
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

    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    static func startsWithExifHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 6 && bytes.prefix(6).elementsEqual(exifHeader)
    }

    // MARK: - Finding the EXIF block

    static func exifBlock(in raw: UnsafeRawBufferPointer, format: ImageFormat) -> UnsafeRawBufferPointer? {
        switch format {
        case .jpeg: return jpegExif(raw)
        case .png: return pngExif(raw)
        case .webp: return webpExif(raw)
        case .tiff, .gif, .bmp, .unknown: return nil
        }
    }

    /// The first APP1 segment holding "Exif\0\0" before the scan data.
    private static func jpegExif(_ b: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var found: Range<Int>?
        JPEGSegments.walk(b) { segment in
            guard segment.marker == 0xE1,
                  startsWithExifHeader(UnsafeRawBufferPointer(rebasing: b[segment.payload])) else { return true }
            found = segment.payload
            return false
        }
        return found.map { UnsafeRawBufferPointer(rebasing: b[$0]) }
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
