#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore
import TesseraFiles

/// Reads what the orders other than name sort by (`ItemFacts`) from one file: its `stat` for modification
/// time and size, and for `taken` the EXIF date the photo was taken, from the file's first bytes only.
package enum ItemFactReader {
    /// The EXIF block is looked for in this much of the file: JPEG keeps it in APP1 near the start (at most
    /// 64 KiB), PNG and WebP in a chunk before the image data.
    static let headBytes = 256 * 1024

    /// What `kind` reads of the file at `path`, as item `id`'s reading; the EXIF block is read through
    /// `decoding` (libexif is C).
    package static func read(_ id: UInt32, path: String, kind: ItemFacts.Kind,
                            decoding: any DecodingService = .inProcess) -> ItemFacts.Reading {
        if kind == .rating {
            var reading = ItemFacts.Reading(id: id, version: nil, rating: RatingStore().rating(of: path).rating.xmpValue)
            reading.versionRead = false
            return reading
        }
        let version = FileVersion.ofFile(atPath: path)
        guard kind == .taken else { return ItemFacts.Reading(id: id, version: version) }
        let taken = version == nil ? nil : dateTaken(ofFileAt: path, decoding: decoding)
        return ItemFacts.Reading(id: id, version: version, taken: taken, takenRead: true)
    }

    /// The EXIF DateTimeOriginal (else DateTimeDigitized) of the file at `path`, in nanoseconds since the
    /// epoch: at its recorded UTC offset (OffsetTimeOriginal) when there is one, else read as local time,
    /// as cameras set their clocks. Nil when the file has none or it cannot be read (or the helper
    /// reading it fails: the file sorts as one without a date).
    package static func dateTaken(ofFileAt path: String, decoding: any DecodingService = .inProcess) -> Int64? {
        guard let file = try? ImageFile(path: path), let dates = try? decoding.exifDates(of: file) else { return nil }
        return dateTaken(dates)
    }

    /// DateTimeOriginal at its offset, else DateTimeDigitized at its own, in nanoseconds since the epoch.
    static func dateTaken(_ dates: ExifDates) -> Int64? {
        if let date = dates.original, let time = nanoseconds(date, offset: dates.originalOffset) { return time }
        return dates.digitized.flatMap { nanoseconds($0, offset: dates.digitizedOffset) }
    }

    /// EXIF's "YYYY:MM:DD hh:mm:ss" (and an offset such as "+02:00") as nanoseconds since the epoch; nil
    /// for the blank or zero dates cameras write when their clock was not set.
    static func nanoseconds(_ text: String, offset: String?) -> Int64? {
        let bytes = Array(text.utf8.prefix(19))
        guard bytes.count == 19, bytes[4] == UInt8(ascii: ":"), bytes[7] == UInt8(ascii: ":"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            var value: Int32 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int32(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year > 0, (1...12).contains(month), (1...31).contains(day) else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1
        let seconds: Int
        if let offset = offset.flatMap(offsetSeconds) {
            seconds = timegm(&parts) - offset
        } else {
            seconds = mktime(&parts)
        }
        return Int64(seconds) * 1_000_000_000
    }

    /// "+02:00" or "-05:30" as seconds east of UTC.
    private static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
              let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
              let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)) else { return nil }
        return (bytes[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }
}
