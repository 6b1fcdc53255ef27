import Foundation
import TesseraCore

/// Turns command-line paths into the ordered list of images to browse: files as given, folders expanded
/// to their images in natural order (img2 before img10), subfolders only with `recursive`, http(s) URLs
/// as remote items. Each file's version (size and modification time) is read here, once, so the cache
/// keys of the first frames already carry it.
public struct ImagePathCollector {
    public enum CollectError: Error, Equatable, CustomStringConvertible {
        case missing(String)
        case noImages([String])

        public var description: String {
            switch self {
            case .missing(let path): return "\(path): no such file or folder"
            case .noImages(let paths): return "no images found in \(paths.joined(separator: ", "))"
            }
        }
    }

    public var recursive = false

    public init(recursive: Bool = false) { self.recursive = recursive }

    public func collect(_ paths: [String]) throws -> [CarouselItem] {
        let fm = FileManager.default
        var items: [CarouselItem] = []
        var seen = Set<String>()
        for path in paths {
            if CarouselItem.isRemote(path) {
                if seen.insert(path).inserted { items.append(CarouselItem(path: path, displayName: Self.displayName(ofURL: path))) }
                continue
            }
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { throw CollectError.missing(path) }
            let found = isFolder.boolValue ? imagesInFolder(path) : [path]
            for file in found where seen.insert(file).inserted {
                items.append(CarouselItem(path: file, version: FileVersion.ofFile(atPath: file)))
            }
        }
        guard !items.isEmpty else { throw CollectError.noImages(paths) }
        return items
    }

    /// What to watch for changes: the folders named (their subfolders too when `recursive`) and the files
    /// named one by one. URLs and missing paths are left out.
    public static func watchTargets(for paths: [String]) -> (folders: [String], files: [String]) {
        var folders: [String] = []
        var files: [String] = []
        for path in paths where !CarouselItem.isRemote(path) {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue { folders.append(path) } else { files.append(path) }
        }
        return (folders, files)
    }

    /// Reads an image list (`-i`): one path or URL per line; blank lines and lines starting with # are
    /// skipped, surrounding spaces trimmed. With `nulSeparated` (`-0`, as `find -print0` writes), paths are
    /// separated by NUL and taken as they are: a name may hold any other character.
    public static func parseList(_ text: String, nulSeparated: Bool = false) -> [String] {
        if nulSeparated { return text.split(separator: "\0").map(String.init) }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The last path component of a URL, without its query; the host when the path is empty.
    static func displayName(ofURL string: String) -> String {
        guard let url = URL(string: string) else { return string }
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? (url.host ?? string) : last
    }

    /// A folder's own images first, then each subfolder's, all in natural order; which entries count is
    /// `FolderLister`'s decision, shared with the watcher.
    private func imagesInFolder(_ folder: String) -> [String] {
        let listing = FolderLister.list(folder)
        let files = listing.images.naturallySorted().map { FolderLister.path(of: $0, in: folder) }
        guard recursive else { return files }
        return files + listing.subfolders.naturallySorted().flatMap { imagesInFolder(FolderLister.path(of: $0, in: folder)) }
    }
}
