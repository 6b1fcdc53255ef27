import CExif
import Foundation

/// A JPEG's bytes with a new EXIF orientation, and nothing else changed: every byte after the EXIF
/// segment (the frame, the tables, the scan data) is copied as it is, so no pixel is re-encoded.
///
/// Three cases:
/// - The EXIF block already has the tag (what cameras and phones write): its two value bytes are patched
///   where they are, so the rest of the block stays byte for byte, maker notes included (libexif
///   rebuilding the block would move them, and some vendors' notes hold offsets that would then point
///   at the wrong bytes).
/// - An EXIF block without the tag: libexif reads the block, adds the tag and writes it out again.
/// - No EXIF block: libexif makes one holding only the tag, in a new APP1 segment after SOI and any
///   JFIF APP0 segments.
///
/// The whole file is checked first: the marker segments up to the scan, a frame header, and the scans
/// through to the end marker. A truncated or broken file is refused rather than rewritten.
struct JPEGOrientationRewrite {
    /// The new file.
    let bytes: Data
    /// The orientation the file had (`.up` when it had no tag, or a value outside 1 to 8).
    let previous: ImageOrientation
    /// When the tag was there: the only bytes that changed, where they are, and what they were. The file
    /// can then be patched in place rather than replaced.
    let patch: (offset: Int, old: [UInt8], new: [UInt8])?

    /// The largest payload an APP1 segment can hold: its 16-bit length counts itself.
    static let maximumSegmentPayload = 65_533

    init(_ jpeg: Data, setting orientation: ImageOrientation) throws(RotationError.Reason) {
        let plan = try jpeg.withUnsafeBytes { b in
            Result { () throws(RotationError.Reason) in try Self.plan(b, orientation: orientation) }
        }.get()
        var out = Data(capacity: jpeg.count + 64)
        switch plan {
        case .patch(let at, let bigEndian, let previous):
            out.append(jpeg)
            let value = UInt16(orientation.rawValue)
            let base = out.startIndex + at
            let old = [out[base], out[base + 1]]
            out[base] = UInt8(bigEndian ? value >> 8 : value & 0xFF)
            out[base + 1] = UInt8(bigEndian ? value & 0xFF : value >> 8)
            self.previous = previous
            patch = (at, old, [out[base], out[base + 1]])
        case .replace(let range, let payload, let previous):
            out.append(jpeg[jpeg.startIndex..<(jpeg.startIndex + range.lowerBound)])
            out.append(contentsOf: Self.app1(payload))
            out.append(jpeg[(jpeg.startIndex + range.upperBound)...])
            self.previous = previous
            patch = nil
        }
        bytes = out
    }

    private enum Plan {
        /// Write the value at this offset of the file.
        case patch(at: Int, bigEndian: Bool, previous: ImageOrientation)
        /// Put an APP1 segment with this payload where `range` is (an empty range inserts).
        case replace(Range<Int>, payload: [UInt8], previous: ImageOrientation)
    }

    private static func plan(_ b: UnsafeRawBufferPointer, orientation: ImageOrientation) throws(RotationError.Reason) -> Plan {
        var exif: JPEGSegments.Segment?
        var sawFrame = false
        var insertAt = 2
        var onlyAPP0SoFar = true
        let end = JPEGSegments.walk(b) { segment in
            if JPEGSegments.isStartOfFrame(segment.marker) { sawFrame = true }
            if segment.marker == 0xE0, onlyAPP0SoFar {
                insertAt = segment.bytes.upperBound
            } else {
                onlyAPP0SoFar = false
            }
            if exif == nil, segment.marker == 0xE1,
               ExifReader.startsWithExifHeader(UnsafeRawBufferPointer(rebasing: b[segment.payload])) {
                exif = segment
            }
            return true
        }
        guard case .scan(let scanData) = end else {
            if case .malformed(let why) = end { throw .damaged(why) }
            throw .damaged("no scan data")
        }
        guard sawFrame else { throw .damaged("no frame header before the scan data") }
        if case .failure(let malformed) = JPEGSegments.endOfImage(b, scanData: scanData) {
            throw .damaged(malformed.description)
        }

        guard let exif else {
            return .replace(insertAt..<insertAt, payload: try exifPayload(setting: orientation, in: nil), previous: .up)
        }
        let payload = UnsafeRawBufferPointer(rebasing: b[exif.payload])
        let previous = ExifReader.orientation(inExifBlock: payload)
        let tiffStart = exif.payload.lowerBound + ExifReader.exifHeader.count
        if let (offset, bigEndian) = orientationValueOffset(UnsafeRawBufferPointer(rebasing: b[tiffStart..<exif.payload.upperBound])) {
            return .patch(at: tiffStart + offset, bigEndian: bigEndian, previous: previous)
        }
        return .replace(exif.bytes, payload: try exifPayload(setting: orientation, in: payload), previous: previous)
    }

    /// Where IFD0's Orientation value is inside a TIFF structure, when the tag is there as the standard
    /// has it (one SHORT, stored in the entry itself), and the structure's byte order.
    static func orientationValueOffset(_ tiff: UnsafeRawBufferPointer) -> (Int, bigEndian: Bool)? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return nil
        }
        func u16(_ i: Int) -> Int { bigEndian ? Int(tiff[i]) << 8 | Int(tiff[i + 1]) : Int(tiff[i + 1]) << 8 | Int(tiff[i]) }
        func u32(_ i: Int) -> Int { bigEndian ? u16(i) << 16 | u16(i + 2) : u16(i + 2) << 16 | u16(i) }
        guard u16(2) == 42 else { return nil }
        let ifd0 = u32(4)
        guard ifd0 >= 8, ifd0 + 2 <= tiff.count else { return nil }
        for index in 0..<u16(ifd0) {
            let entry = ifd0 + 2 + 12 * index
            guard entry + 12 <= tiff.count else { return nil }
            guard u16(entry) == 0x0112 else { continue }
            return u16(entry + 2) == 3 && u32(entry + 4) == 1 ? (entry + 8, bigEndian) : nil
        }
        return nil
    }

    /// "Exif\0\0" and a TIFF structure whose IFD0 has Orientation = `orientation`: `existing` with the tag
    /// set, or a new block holding only the tag.
    static func exifPayload(setting orientation: ImageOrientation, in existing: UnsafeRawBufferPointer?) throws(RotationError.Reason) -> [UInt8] {
        guard let exif = exif_data_new() else { throw .exifUnwritable("libexif could not allocate") }
        defer { exif_data_unref(exif) }
        // Keep what is there as it is: no entries added for the standard's sake, none dropped for being
        // unknown to libexif, maker notes left alone.
        exif_data_unset_option(exif, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        exif_data_unset_option(exif, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_set_option(exif, EXIF_DATA_OPTION_DONT_CHANGE_MAKER_NOTE)
        if let existing {
            exif_data_load_data(exif, existing.bindMemory(to: UInt8.self).baseAddress, UInt32(existing.count))
            // libexif reports a block it cannot parse only through its log; an existing block that yields
            // no entry at all is one it could not read, and rewriting it would drop the camera's data.
            guard entryCount(exif) > 0 else { throw .exifUnwritable("its EXIF block cannot be read") }
        } else {
            exif_data_set_byte_order(exif, EXIF_BYTE_ORDER_MOTOROLA)
        }
        guard let ifd0 = exif.pointee.ifd.0 else { throw .exifUnwritable("libexif has no IFD0") }
        if let old = exif_content_get_entry(ifd0, EXIF_TAG_ORIENTATION) {
            exif_content_remove_entry(ifd0, old)
        }
        guard let entry = exif_entry_new() else { throw .exifUnwritable("libexif could not allocate") }
        exif_content_add_entry(ifd0, entry)
        exif_entry_initialize(entry, EXIF_TAG_ORIENTATION)
        exif_entry_unref(entry)
        guard let value = entry.pointee.data, entry.pointee.size >= 2 else { throw .exifUnwritable("libexif could not allocate") }
        exif_set_short(value, exif_data_get_byte_order(exif), ExifShort(orientation.rawValue))

        var saved: UnsafeMutablePointer<UInt8>?
        var size: UInt32 = 0
        exif_data_save_data(exif, &saved, &size)
        guard let saved, size > 0 else { throw .exifUnwritable("libexif could not write the block") }
        defer { free(saved) }
        guard Int(size) <= maximumSegmentPayload else {
            throw .exifUnwritable("the EXIF block would be \(size) bytes, more than a JPEG segment holds")
        }
        return Array(UnsafeBufferPointer(start: saved, count: Int(size)))
    }

    private static func entryCount(_ exif: UnsafeMutablePointer<ExifData>) -> Int {
        withUnsafeBytes(of: exif.pointee.ifd) { raw in
            raw.bindMemory(to: UnsafeMutablePointer<ExifContent>?.self).reduce(0) { $0 + Int($1?.pointee.count ?? 0) }
        }
    }

    /// An APP1 segment: marker, length, payload.
    static func app1(_ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }
}
