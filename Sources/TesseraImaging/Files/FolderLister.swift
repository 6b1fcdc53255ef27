#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// What Tessera takes from a folder, decided in one place for the browser's listing and the watcher: its
/// images, by extension, and its subfolders; hidden entries (a leading dot) never.
///
/// Listed with `readdir`, whose entry types spare a `stat` per file; only symbolic links (followed) and
/// filesystems that do not fill in the type are stat'ed. A link that leads nowhere is left out.
public enum FolderLister {
    /// What a folder holds, by name, in the order the filesystem gives them.
    public struct Listing: Equatable, Sendable {
        /// Files whose extension is an image's (`isImageName`).
        public var images: [String] = []
        public var subfolders: [String] = []
    }

    /// Extensions taken from folders. A file named on the command line is taken whatever its name; the
    /// decoder sniffs its real type.
    public static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "webp", "gif", "bmp", "tif", "tiff",
        "heic", "heif", "avif", "jxl", "svg", "svgz",
        "dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2",
    ]

    /// Whether a file of this name is taken from a folder: not hidden, with an image's extension (any case).
    public static func isImageName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return imageExtensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// The images and subfolders of `folder`; empty when it cannot be read.
    public static func list(_ folder: String) -> Listing {
        guard let directory = opendir(folder) else { return Listing() }
        defer { closedir(directory) }
        var listing = Listing()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            switch Int(entry.pointee.d_type) {
            case Int(DT_DIR):
                listing.subfolders.append(name)
            case Int(DT_LNK), Int(DT_UNKNOWN):
                var status = stat()
                guard stat(path(of: name, in: folder), &status) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    listing.subfolders.append(name)
                } else if isImageName(name) {
                    listing.images.append(name)
                }
            default:
                if isImageName(name) { listing.images.append(name) }
            }
        }
        return listing
    }

    /// The path of `name` inside `folder`: the folder without trailing slashes, a slash, the name. The
    /// browser's items and the watcher's changes are both named this way, so they match.
    public static func path(of name: String, in folder: String) -> String {
        let folder = withoutTrailingSlashes(folder)
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// "/" stays "/"; "photos//" becomes "photos".
    public static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return String(path)
    }
}
