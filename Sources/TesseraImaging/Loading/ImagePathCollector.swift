import Foundation
import TesseraCore

/// Turns command-line paths into the ordered list of images to browse: files as given, folders expanded
/// to their images in natural order (img2 before img10), subfolders only with `recursive`.
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

    /// Extensions taken from folders. A file named on the command line is taken whatever its name;
    /// the decoder sniffs its real type.
    public static let imageExtensions: Set<String> = ["jpg", "jpeg", "jpe", "jfif", "png", "webp", "gif", "bmp", "tif", "tiff"]

    public var recursive = false

    public init(recursive: Bool = false) { self.recursive = recursive }

    public func collect(_ paths: [String]) throws -> [CarouselItem] {
        let fm = FileManager.default
        var items: [CarouselItem] = []
        var seen = Set<String>()
        for path in paths {
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { throw CollectError.missing(path) }
            let found = isFolder.boolValue ? imagesInFolder(path) : [path]
            for file in found where seen.insert(file).inserted {
                items.append(CarouselItem(path: file))
            }
        }
        guard !items.isEmpty else { throw CollectError.noImages(paths) }
        return items
    }

    private func imagesInFolder(_ folder: String) -> [String] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: folder) else { return [] }
        var files: [String] = []
        var subfolders: [String] = []
        for name in names.naturallySorted() where !name.hasPrefix(".") {
            let path = (folder as NSString).appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard fm.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                if recursive { subfolders.append(path) }
            } else if Self.imageExtensions.contains((name as NSString).pathExtension.lowercased()) {
                files.append(path)
            }
        }
        // A folder's own images first, then each subfolder's, all in natural order.
        return files + subfolders.flatMap(imagesInFolder)
    }
}
