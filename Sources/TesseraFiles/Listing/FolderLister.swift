#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore

/// What Tessera takes from a folder, decided in one place for the browser's listing and the watcher: its
/// images, by extension, and its subfolders; hidden entries (a leading dot) never. Files whose names say
/// nothing of an image are set apart for a look at their first bytes (`others`).
///
/// Listed with `readdir`, whose entry types spare a `stat` per file; only symbolic links (followed) and
/// filesystems that do not fill in the type are stat'ed. A link that leads nowhere is left out. Image
/// names are kept as bytes (`NameList`): a folder of a million photos is read without a string per photo.
package enum FolderLister {
    /// What a folder holds, by name, in the order the filesystem gives them.
    package struct Listing: Equatable, Sendable {
        /// Files whose extension is an image's (`isImageName`).
        package var images: [String] = []
        package var subfolders: [String] = []
    }

    /// What a folder holds, its images' names as bytes.
    package struct Names: Sendable {
        package var images = NameList()
        package var subfolders: [String] = []
        /// Whether the folder could be opened.
        package var opened = false
        /// Names of `FileReplacement`'s temporary files, for `ReplacementLeftovers` to look at.
        package var leftovers: [String] = []
        /// Regular files whose names say nothing of an image (no extension, or one Tessera does not
        /// know, other than `notImageExtensions`): an image among them is found by its content
        /// (`ImagePathCollector`).
        package var others = NameList()
    }

    /// Whether the first bytes of a file (`headLength` of them, fewer for a shorter file) are an image's.
    package typealias ContentCheck = @Sendable (UnsafeRawBufferPointer) -> Bool

    /// How much of a file a content check reads.
    package static let headLength = 64

    /// Extensions of what photo folders hold beside their images (sidecars, notes, videos, archives):
    /// never read to look for an image, so a folder with a sidecar beside every photo is listed without
    /// opening them.
    package static let notImageExtensions: Set<String> = [
        "xmp", "pp3", "dop", "txt", "md", "json", "xml", "csv", "log", "pdf", "html",
        "mp4", "mov", "mkv", "avi", "m4v", "webm", "mp3", "wav", "zip", "gz", "xz", "db",
    ]

    /// Extensions taken from folders. A file named on the command line is taken whatever its name; the
    /// decoder sniffs its real type.
    package static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "apng", "webp", "gif", "bmp", "tif", "tiff",
        "heic", "heif", "avif", "jxl", "svg", "svgz",
        "dng", "cr2", "cr3", "nef", "arw", "raf", "orf", "rw2",
    ]

    /// Whether a file of this name is taken from a folder: not hidden, with an image's extension (any case).
    package static func isImageName(_ name: String) -> Bool {
        PathText.withBytes(name, isImageName)
    }

    /// `isImageName` of a name's bytes.
    package static func isImageName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = name.first, first != UInt8(ascii: "."),
              let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return false }
        let length = name.count - dot - 1
        guard length >= 3, length <= 4 else { return false }
        var lowered: UInt32 = 0
        for byte in name[(dot + 1)...] {
            lowered = lowered << 8 | UInt32(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return packedExtensions.contains(lowered)
    }

    /// Whether a file whose name is not an image's may still hold one: its extension is not one of
    /// `notImageExtensions`.
    static func mayBeAnImage(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return true }
        let length = name.count - dot - 1
        guard length >= 1, length <= 4 else { return true }
        // Packed as `isImageName` packs, with no string made: a folder of photos holds a sidecar beside
        // each, and every one of them passes here.
        var lowered: UInt32 = 0
        for byte in name[(dot + 1)...] {
            lowered = lowered << 8 | UInt32(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return !packedNotImageExtensions.contains(lowered)
    }

    /// `notImageExtensions` of 1 to 4 bytes, packed as `mayBeAnImage` packs a name's.
    private static let packedNotImageExtensions: Set<UInt32> = Set(notImageExtensions.filter { (1...4).contains($0.utf8.count) }
        .map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } })

    /// The first `headLength` bytes of the file at `path` (fewer when it is shorter); nil when it cannot be
    /// opened or read. Opened without blocking, so a FIFO that replaced a file does not hang the listing.
    package static func head(of path: String) -> [UInt8]? {
        let descriptor = POSIXFiles.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: headLength)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, headLength, 0) }
        guard count > 0 else { return nil }
        return Array(bytes.prefix(count))
    }

    /// `imageExtensions`, each packed into an integer as `isImageName` packs a name's (all are 3 or 4 bytes).
    private static let packedExtensions: Set<UInt32> = Set(imageExtensions.map { $0.utf8.reduce(0) { $0 << 8 | UInt32($1) } })

    /// The images and subfolders of `folder`; empty when it cannot be read.
    package static func list(_ folder: String) -> Listing {
        let names = names(in: folder)
        return Listing(images: names.images.strings, subfolders: names.subfolders)
    }

    /// The images (as bytes) and subfolders of `folder`; empty, and not `opened`, when it cannot be read.
    package static func names(in folder: String) -> Names {
        guard let directory = POSIXFiles.opendir(folder) else { return Names() }
        defer { closedir(directory) }
        var names = Names()
        names.opened = true
        let descriptor = dirfd(directory)
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        while let entry = readdir(directory) {
            let raw = UnsafeRawPointer(entry) + nameOffset
            let name = UnsafeBufferPointer(start: raw.assumingMemoryBound(to: UInt8.self), count: strlen(raw.assumingMemoryBound(to: CChar.self)))
            guard let first = name.first else { continue }
            if first == UInt8(ascii: ".") {
                // Hidden, so never listed; read here so that no second pass over the folder is needed.
                if ReplacementLeftovers.isLeftoverName(name) { names.leftovers.append(PathText.text(of: name)) }
                continue
            }
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR):
                names.subfolders.append(PathText.text(of: name))
            case Int32(DT_LNK), Int32(DT_UNKNOWN):
                var status = stat()
                guard fstatat(descriptor, raw.assumingMemoryBound(to: CChar.self), &status, 0) == 0 else { continue }
                if status.st_mode & S_IFMT == S_IFDIR {
                    names.subfolders.append(PathText.text(of: name))
                } else if isImageName(name) {
                    names.images.append(name)
                } else if status.st_mode & S_IFMT == S_IFREG, mayBeAnImage(name) {
                    names.others.append(name)
                }
            case Int32(DT_REG):
                if isImageName(name) {
                    names.images.append(name)
                } else if mayBeAnImage(name) {
                    names.others.append(name)
                }
            default:
                continue
            }
        }
        return names
    }

    /// The path of `name` inside `folder`: the folder without trailing slashes, a slash, the name. The
    /// browser's items and the watcher's changes are both named this way, so they match.
    package static func path(of name: String, in folder: String) -> String {
        let folder = withoutTrailingSlashes(folder)
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// "/" stays "/"; "photos//" becomes "photos".
    package static func withoutTrailingSlashes(_ path: String) -> String {
        var path = Substring(path)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return String(path)
    }
}
