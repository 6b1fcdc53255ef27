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
package enum ExifReader {
    /// The orientation recorded in `data` (a whole file, or at least its metadata), or `.up` when there is
    /// none, it is not 1...8, or the EXIF block is malformed: a broken tag must never stop a picture.
    package static func orientation(in data: Data, format: ImageFormat) -> ImageOrientation {
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
    package static func orientation(inExifBlock block: UnsafeRawBufferPointer) -> ImageOrientation {
        // IFD0 describes the main image; IFD1 describes the embedded thumbnail, whose orientation is not
        // the picture's.
        guard let raw = ExifTags(block: block)?.short(0x0112, in: .image) else { return .up }
        return ImageOrientation(exifValue: raw) ?? .up
    }

    static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    static func startsWithExifHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 6 && bytes.prefix(6).elementsEqual(exifHeader)
    }

    // MARK: - Finding the EXIF block

    static func exifBlock(in raw: UnsafeRawBufferPointer, format: ImageFormat) -> UnsafeRawBufferPointer? {
        switch format {
        case .jpeg: return jpegExif(raw)
        case .png: return ImageChunks.png("eXIf", in: raw)
        case .webp: return ImageChunks.webp("EXIF", in: raw)
        case .tiff, .gif, .bmp, .heif, .avif, .jxl, .svg, .raw, .unknown: return nil
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
}
