/// A JPEG's marker segments, read from their lengths only: where the EXIF and ICC blocks are, and whether
/// a file is whole before anything rewrites it.
///
/// A JPEG is SOI (FF D8), then segments `FF marker length(2, big-endian, counting itself) payload` up to
/// the first SOS (FF DA), whose entropy-coded data follows; there a literal FF is stuffed as FF 00 and
/// restart markers (FF D0 to D7) stand alone, so any other FF marker ends the data. A progressive file
/// has several scans with tables between them; EOI (FF D9) ends the image. Fill bytes (extra FFs) may
/// precede any marker.
package enum JPEGSegments {
    /// One segment before the scan data.
    package struct Segment: Sendable, Equatable {
        package let marker: UInt8
        /// Where its FF is.
        package let offset: Int
        /// Its payload, after the length field.
        package let payload: Range<Int>
        /// Everything the segment occupies, marker to payload end.
        package var bytes: Range<Int> { offset..<payload.upperBound }
    }

    /// Why a walk stopped.
    package enum End: Sendable, Equatable {
        /// The walk reached the first SOS segment; its header is in `segments`, the scan data starts at
        /// `scanData`.
        case scan(scanData: Int)
        /// `body` asked to stop.
        case stopped
        /// The bytes are not a JPEG, or a segment's length runs past the data: a truncated or broken file.
        case malformed(String)
    }

    /// Why a walk stops in a file that ends before its scan data begins: a truncated file.
    package static let endsInHeaders = "the file ends in its headers"

    /// Calls `body` with each segment from SOI up to and including the first SOS, until it returns false.
    @discardableResult
    package static func walk(_ b: UnsafeRawBufferPointer, _ body: (Segment) -> Bool) -> End {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return .malformed("no JPEG start marker") }
        var i = 2
        while true {
            guard i + 2 <= b.count else { return .malformed(endsInHeaders) }
            guard b[i] == 0xFF else { return .malformed("no marker at byte \(i)") }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }                                       // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }     // no length
            if marker == 0xD9 { return .malformed("the image ends before its scan data") }
            guard i + 4 <= b.count else { return .malformed(endsInHeaders) }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2 else { return .malformed("a segment at byte \(i) has length \(length)") }
            guard i + 2 + length <= b.count else { return .malformed(endsInHeaders) }
            let segment = Segment(marker: marker, offset: i, payload: (i + 4)..<(i + 2 + length))
            if !body(segment) { return .stopped }
            i += 2 + length
            if marker == 0xDA { return .scan(scanData: i) }
        }
    }

    /// Where the image ends: the offset just past its EOI marker, having walked every scan and the tables
    /// between them; the reason when the data stops first or holds a marker no JPEG has there.
    package static func endOfImage(_ b: UnsafeRawBufferPointer, scanData start: Int) -> Result<Int, Malformed> {
        var i = start
        while i < b.count {
            guard b[i] == 0xFF else { i += 1; continue }
            guard i + 1 < b.count else { break }
            let marker = b[i + 1]
            switch marker {
            case 0x00, 0xD0...0xD7:
                i += 2                                            // stuffed FF or a restart marker
            case 0xFF:
                i += 1                                            // fill byte
            case 0xD9:
                return .success(i + 2)
            case 0xC4, 0xDA, 0xDB, 0xDC, 0xDD, 0xFE, 0xE0...0xEF:
                // Tables, the next scan's header, the number of lines, restart interval, comment or
                // application data between the scans of a progressive file.
                guard i + 4 <= b.count else { return .failure(truncated) }
                let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
                guard length >= 2 else { return .failure(Malformed("a segment at byte \(i) has length \(length)")) }
                i += 2 + length
            default:
                return .failure(Malformed("an unexpected marker FF \(String(marker, radix: 16, uppercase: true)) at byte \(i)"))
            }
        }
        return .failure(truncated)
    }

    private static let truncated = Malformed("the file ends before the image does (no end marker): it is truncated")

    package struct Malformed: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        package init(_ description: String) { self.description = description }
    }

    /// Whether `marker` starts a frame (SOF0 to SOF15, except DHT, JPG and DAC, which share the range).
    package static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
