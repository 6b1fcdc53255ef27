#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// The text of a `.trashinfo` file (freedesktop Trash specification 1.0):
///
///     [Trash Info]
///     Path=/home/me/Pictures/a%20b.jpg
///     DeletionDate=2024-05-01T12:34:56
///
/// `Path` is absolute in the home trash and relative to the top folder in a mount's trash (as the
/// specification recommends, so the mount can move), URL-escaped as GLib escapes it: every byte but
/// letters, digits, `-._~` and `/` becomes `%XX`. The date is local time, with no zone, as the
/// specification has it.
enum TrashInfo {
    static func contents(path: String, deletedAt date: Date) -> String {
        "[Trash Info]\nPath=\(escape(path))\nDeletionDate=\(localTime(date))\n"
    }

    static func escape(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        let bytes = PathText.bytes(of: path)
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `YYYY-MM-DDThh:mm:ss` in the local time zone.
    static func localTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}
