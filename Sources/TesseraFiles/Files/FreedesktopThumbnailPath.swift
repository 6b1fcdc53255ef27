import Foundation
import TesseraCore

/// The four thumbnail sizes of the freedesktop Thumbnail Managing Standard, each a folder of the cache.
/// A thumbnail fits a square of its size (the longer side equals it, unless the original is smaller).
package enum ThumbnailSize: Int, CaseIterable, Sendable, Comparable, CustomStringConvertible {
    case normal = 128
    case large = 256
    case xLarge = 512
    case xxLarge = 1024

    /// The longest side of a thumbnail of this size, in pixels.
    package var pixels: Int { rawValue }
    package var box: PixelSize { PixelSize(width: rawValue, height: rawValue) }

    package var folderName: String {
        switch self {
        case .normal: "normal"
        case .large: "large"
        case .xLarge: "x-large"
        case .xxLarge: "xx-large"
        }
    }

    /// The smallest size whose thumbnails are at least as big as `box` in its longer side, so a thumbnail
    /// only ever has to be shrunk to fill the box; nil when the box is bigger than 1024 (no cached size
    /// is big enough, so the original must be decoded).
    package static func smallest(covering box: PixelSize) -> ThumbnailSize? {
        let side = max(box.width, box.height)
        return allCases.first { $0.rawValue >= side }
    }

    package static func < (a: ThumbnailSize, b: ThumbnailSize) -> Bool { a.rawValue < b.rawValue }
    package var description: String { folderName }
}

/// Names in the thumbnail cache, exactly as GNOME (GLib) and KDE compute them, so that thumbnails are
/// shared with file managers both ways.
package enum FreedesktopThumbnailPath {
    /// The cache folder: `$XDG_CACHE_HOME/thumbnails`, or `$HOME/.cache/thumbnails` when XDG_CACHE_HOME is
    /// unset, empty or relative (which the XDG base directory spec says to ignore). Nil without a HOME.
    package static func cacheRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return join(xdg, "thumbnails")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return join(join(home, ".cache"), "thumbnails")
    }

    /// The `file://` URI of an absolute path, byte for byte what GLib's `g_filename_to_uri(path, NULL)`
    /// returns: the path's bytes percent-encoded with upper-case hex, except for the characters GLib leaves
    /// alone in paths (letters, digits, `-_.!~*'()` and `/&=:@+$,`). The MD5 of this string names the
    /// thumbnail, so a single differently-escaped character would miss every thumbnail GNOME made.
    package static func fileURI(forAbsolutePath path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = Array("file://".utf8)
        let bytes = PathText.bytes(of: path)
        out.reserveCapacity(out.count + bytes.count * 3)
        for byte in bytes {
            if isAllowedInPath(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// "MD5 of the URI in lower-case hex" + ".png": the thumbnail's file name in every size folder.
    package static func fileName(forURI uri: String) -> String {
        CacheFileName.md5Hex(uri) + ".png"
    }

    /// `path` made absolute against the working directory and cleaned of `.`, `..` and repeated slashes,
    /// without resolving symbolic links: the file is named the way the user reached it, as file managers
    /// do. (GLib requires an absolute path and does not clean it; a file manager never passes `..`.)
    package static func absolutePath(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let full = path.hasPrefix("/") ? path : join(workingDirectory, path)
        var parts: [Substring] = []
        for part in full.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { if !parts.isEmpty { parts.removeLast() }; continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// GLib's `acceptable` table for UNSAFE_PATH (gconvert.c): which ASCII bytes stay as they are.
    private static func isAllowedInPath(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return allowedPunctuation.contains(byte)
        }
    }

    private static let allowedPunctuation = Set("-_.!~*'()/&=:@+$,".utf8)

    package static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
