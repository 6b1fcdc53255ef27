import CExif
import Foundation

/// EXIF blocks written by libexif with whatever tags a test sets, for the information reader and the
/// orientation writer's tests. Values go in as the standard types them (ASCII, SHORT, RATIONAL).
final class TestExifTags {
    private let exif: UnsafeMutablePointer<ExifData>

    init(bigEndian: Bool = true) {
        exif = exif_data_new()!
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_set_byte_order(exif, bigEndian ? EXIF_BYTE_ORDER_MOTOROLA : EXIF_BYTE_ORDER_INTEL)
    }

    deinit { exif_data_unref(exif) }

    enum Folder { case ifd0, exif, gps }

    private func content(_ folder: Folder) -> UnsafeMutablePointer<ExifContent> {
        switch folder {
        case .ifd0: exif.pointee.ifd.0!
        case .exif: exif.pointee.ifd.2!
        case .gps: exif.pointee.ifd.3!
        }
    }

    /// A new entry of `format` with `components` values, zeroed, in `folder`.
    private func entry(_ tag: UInt16, _ folder: Folder, format: ExifFormat, components: Int) -> UnsafeMutablePointer<UInt8> {
        let entry = exif_entry_new()!
        let size = Int(exif_format_get_size(format)) * components
        entry.pointee.tag = ExifTag(rawValue: UInt32(tag))
        entry.pointee.format = format
        entry.pointee.components = UInt(components)
        entry.pointee.size = UInt32(size)
        // libexif frees entry data with its default allocator, which is calloc/free.
        entry.pointee.data = calloc(size, 1)!.assumingMemoryBound(to: UInt8.self)
        exif_content_add_entry(content(folder), entry)
        exif_entry_unref(entry)
        return entry.pointee.data
    }

    private var order: ExifByteOrder { exif_data_get_byte_order(exif) }

    @discardableResult
    func ascii(_ tag: UInt16, _ value: String, in folder: Folder = .ifd0) -> Self {
        let bytes = Array(value.utf8) + [0]
        let data = entry(tag, folder, format: EXIF_FORMAT_ASCII, components: bytes.count)
        for (i, byte) in bytes.enumerated() { data[i] = byte }
        return self
    }

    @discardableResult
    func short(_ tag: UInt16, _ value: UInt16, in folder: Folder = .ifd0) -> Self {
        exif_set_short(entry(tag, folder, format: EXIF_FORMAT_SHORT, components: 1), order, value)
        return self
    }

    @discardableResult
    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)], in folder: Folder = .ifd0) -> Self {
        let data = entry(tag, folder, format: EXIF_FORMAT_RATIONAL, components: values.count)
        for (i, (numerator, denominator)) in values.enumerated() {
            exif_set_rational(data + 8 * i, order, ExifRational(numerator: numerator, denominator: denominator))
        }
        return self
    }

    /// "Exif\0\0" + TIFF, as libexif writes it.
    var block: [UInt8] {
        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(exif, &saved, &size)
        defer { free(saved) }
        return Array(UnsafeBufferPointer(start: saved!, count: Int(size)))
    }

    /// The block as a JPEG APP1 segment.
    var segment: [UInt8] {
        let payload = block
        return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
}
