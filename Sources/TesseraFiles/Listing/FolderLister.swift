#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore

/// What Tessera takes from a folder, decided in one place for the browser's listing and the watcher: its
/// images, by extension, and its subfolders; hidden entries (a leading dot) never.
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
    }

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
                }
            default:
                if isImageName(name) { names.images.append(name) }
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
