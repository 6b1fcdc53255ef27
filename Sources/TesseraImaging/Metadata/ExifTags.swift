import CExif
import Foundation

/// An EXIF block as libexif reads it, and the tags in it as Swift values. Each read checks the entry's
/// type and size first: a tag of the wrong type reads as absent, never as garbage.
final class ExifTags {
    private let exif: UnsafeMutablePointer<ExifData>

    /// The folders (IFDs) of an EXIF block that hold the picture's tags.
    enum Folder {
        /// IFD0: the main image (make, model, orientation).
        case image
        /// The EXIF sub-IFD: how the photo was taken.
        case exif
        /// The GPS sub-IFD.
        case gps
    }

    /// Loads `block`: "Exif\0\0" and a TIFF structure, or the TIFF structure alone (as PNG and WebP store
    /// it). Nil when it is too short to be one or libexif cannot allocate.
    init?(block: UnsafeRawBufferPointer) {
        guard block.count >= 8, block.count <= Int(UInt32.max) - 6, let exif = exif_data_new() else { return nil }
        self.exif = exif
        // Following the specification makes libexif "fix" the data after loading (adding entries the
        // standard requires), which a reader has no use for; tags libexif does not know are kept.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        if ExifReader.startsWithExifHeader(block) {
            exif_data_load_data(exif, block.bindMemory(to: UInt8.self).baseAddress, UInt32(block.count))
        } else {
            // libexif wants the "Exif\0\0" header, so add it.
            let prefixed = ExifReader.exifHeader + Array(block)
            prefixed.withUnsafeBufferPointer { exif_data_load_data(exif, $0.baseAddress, UInt32($0.count)) }
        }
    }

    deinit { exif_data_unref(exif) }

    private var order: ExifByteOrder { exif_data_get_byte_order(exif) }

    private func entry(_ tag: UInt16, in folder: Folder) -> ExifEntry? {
        let content: UnsafeMutablePointer<ExifContent>? = switch folder {
        case .image: exif.pointee.ifd.0
        case .exif: exif.pointee.ifd.2
        case .gps: exif.pointee.ifd.3
        }
        guard let content, let entry = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))),
              entry.pointee.data != nil, entry.pointee.components >= 1 else { return nil }
        let needed = Int(exif_format_get_size(entry.pointee.format)) * Int(entry.pointee.components)
        guard needed > 0, Int(entry.pointee.size) >= needed else { return nil }
        return entry.pointee
    }

    /// An ASCII tag, without its terminating NULs and surrounding spaces; nil when empty.
    func text(_ tag: UInt16, in folder: Folder) -> String? {
        guard let entry = entry(tag, in: folder), entry.format == EXIF_FORMAT_ASCII || entry.format == EXIF_FORMAT_UNDEFINED else { return nil }
        let bytes = UnsafeBufferPointer(start: entry.data, count: Int(entry.size)).prefix { $0 != 0 }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }

    /// The first value of a SHORT tag.
    func short(_ tag: UInt16, in folder: Folder) -> Int? {
        guard let entry = entry(tag, in: folder), entry.format == EXIF_FORMAT_SHORT else { return nil }
        return Int(exif_get_short(entry.data, order))
    }

    /// The first value of a SHORT or LONG tag.
    func integer(_ tag: UInt16, in folder: Folder) -> Int? {
        guard let entry = entry(tag, in: folder) else { return nil }
        switch entry.format {
        case EXIF_FORMAT_SHORT: return Int(exif_get_short(entry.data, order))
        case EXIF_FORMAT_LONG: return Int(exif_get_long(entry.data, order))
        default: return nil
        }
    }

    /// The values of a RATIONAL tag; nil when it has fewer than `count` or one has a zero denominator.
    func rationals(_ tag: UInt16, in folder: Folder, count: Int = 1) -> [Double]? {
        guard let entry = entry(tag, in: folder), entry.format == EXIF_FORMAT_RATIONAL,
              Int(entry.components) >= count else { return nil }
        var values: [Double] = []
        for index in 0..<count {
            let value = exif_get_rational(entry.data + 8 * index, order)
            guard value.denominator != 0 else { return nil }
            values.append(Double(value.numerator) / Double(value.denominator))
        }
        return values
    }
}
