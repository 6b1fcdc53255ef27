#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore

/// Turns what the user named into the images to browse, in name order, as a compact `ItemTable`: files
/// as given, folders expanded to their images in natural order (img2 before img10), subfolders after a
/// folder's own images with `recursive`, http(s) URLs as remote items, and list entries (`-i`) as they
/// are read. Nothing is stat'ed per image: a folder is one `readdir` (`FolderLister`), and a listed path
/// with an image's extension is taken as a file as it stands (one that is missing shows as an error cell
/// when it loads). Paths named on the command line, and listed paths without an image's extension, are
/// stat'ed to tell folders from files.
package struct ImagePathCollector {
    package enum CollectError: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case noImages([String])

        package var description: String {
            switch self {
            case .missing(let path): return "\(path): no such file or folder"
            case .noImages(let paths):
                let named = paths.prefix(5).joined(separator: ", ")
                return "no images found in \(named)" + (paths.count > 5 ? " and \(paths.count - 5) more" : "")
            }
        }
    }

    /// What the collection found.
    package struct Collected: Sendable {
        /// The images, in name order.
        package var table: ItemTable
        /// The folders named (their subfolders are walked with `recursive`), for the watcher.
        package var folders: [String] = []
        /// The files named one by one, for the watcher.
        package var files: [String] = []
        /// How many more files `contentCheck` may read.
        var contentChecksLeft = ImagePathCollector.contentCheckLimit

        /// The images as items.
        package var items: CarouselItems { CarouselItems(table: table) }
    }

    package var recursive = false
    /// Looks at the first bytes of a folder's files whose names say nothing of an image (`FolderLister`'s
    /// `others`), so that an image without an extension, or with one Tessera does not know, is listed;
    /// nil lists by name alone.
    package var contentCheck: FolderLister.ContentCheck?
    /// Most files one collection reads for `contentCheck`, over all its folders: a folder (or a tree of
    /// them) of thousands of files of some other kind is listed without opening them all.
    package static let contentCheckLimit = 1000

    package init(recursive: Bool = false, contentCheck: FolderLister.ContentCheck? = nil) {
        self.recursive = recursive
        self.contentCheck = contentCheck
    }

    /// Collects `paths` (the command line's) and then `listed` (a list's entries, as they come).
    package func collect(_ paths: [String], listed: some Sequence<String> = [String]()) throws(CollectError) -> Collected {
        var collected = Collected(table: ItemTable())
        var named: [String] = []
        for path in paths {
            named.append(path)
            try add(path, to: &collected, stat: true)
        }
        for path in listed {
            if named.count < 6 { named.append(path) }
            // A listed name that looks like an image is a file, as a folder's entries are: no stat for it.
            var path = path
            let looksLikeImage = path.withUTF8 { bytes in
                let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
                return FolderLister.isImageName(UnsafeBufferPointer(rebasing: bytes[start...]))
            }
            try add(path, to: &collected, stat: !looksLikeImage)
        }
        if named.count > 1 { collected.table = Self.withoutRepeats(collected.table) }
        guard !collected.table.isEmpty else { throw .noImages(named) }
        return collected
    }

    /// Adds one named path: a URL, a file, or a folder's images.
    private func add(_ path: String, to collected: inout Collected, stat checks: Bool) throws(CollectError) {
        if CarouselItem.isRemote(path) {
            collected.table.appendRemote(path, displayName: Self.displayName(ofURL: path))
            return
        }
        guard checks else {
            collected.table.appendPath(path)
            collected.files.append(path)
            return
        }
        var status = stat()
        guard POSIXFiles.stat(path, &status) == 0 else { throw .missing(path) }
        if status.st_mode & S_IFMT == S_IFDIR {
            collected.folders.append(path)
            var visited = Set<FolderIdentity>()
            addImages(inFolder: path, to: &collected.table, visited: &visited, checksLeft: &collected.contentChecksLeft)
        } else {
            collected.table.appendPath(path)
            collected.files.append(path)
        }
    }

    /// A folder's own images in natural order, then (with `recursive`) each subfolder's in natural order
    /// of their names; which entries count is `FolderLister`'s decision, shared with the watcher. A folder
    /// reached again through a symbolic link is not walked twice.
    private func addImages(inFolder folder: String, to table: inout ItemTable, visited: inout Set<FolderIdentity>,
                           checksLeft: inout Int) {
        if recursive {
            var status = stat()
            guard POSIXFiles.stat(folder, &status) == 0,
                  visited.insert(FolderIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))).inserted else { return }
        }
        var listing = FolderLister.names(in: folder)
        ReplacementLeftovers.remove(listing.leftovers, in: folder)
        if let contentCheck {
            let checked = min(listing.others.count, checksLeft)
            checksLeft -= checked
            for index in 0..<checked {
                let name = listing.others[index]
                guard let head = FolderLister.head(of: FolderLister.path(of: name, in: folder)),
                      head.withUnsafeBytes(contentCheck) else { continue }
                listing.images.append(name)
            }
        }
        let prefix = table.prefix(forFolder: folder)
        table.reserveCapacity(items: listing.images.count, bytes: listing.images.bytes.count)
        listing.images.bytes.withUnsafeBufferPointer { bytes in
            for index in NaturalSorter.order(of: listing.images) {
                table.append(UnsafeBufferPointer(rebasing: bytes[listing.images.range(Int(index))]), prefix: prefix)
            }
        }
        guard recursive else { return }
        for name in listing.subfolders.naturallySorted() {
            addImages(inFolder: FolderLister.path(of: name, in: folder), to: &table, visited: &visited, checksLeft: &checksLeft)
        }
    }

    private struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// `table` with each path once, where it first came.
    private static func withoutRepeats(_ table: ItemTable) -> ItemTable {
        let index = PathIndex(table)
        guard index.count < table.count else { return table }
        return table.filtered { index.finds($0, in: table) }
    }

    /// Reads an image list's whole text (`ListReader.parse`).
    package static func parseList(_ text: String, nulSeparated: Bool = false) -> [String] {
        ListReader.parse(text, nulSeparated: nulSeparated)
    }

    /// The last path component of a URL, without its query; the host when the path is empty.
    static func displayName(ofURL string: String) -> String {
        guard let url = URL(string: string) else { return string }
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? string) : last
    }
}
