/// What happened on disk to a file the strip shows, or would show.
public enum ItemChange: Equatable, Sendable {
    /// The file exists with this content: new (it joins the strip in sort order) or changed (it reloads).
    case present(path: String, version: FileVersion)
    /// The file is gone: it leaves the strip.
    case removed(path: String)
}

/// Where a file that appeared goes: among the files of its own folder, in natural order (img2 before
/// img10), which is how folders were listed in the first place.
public enum ItemOrder {
    public static func insertionIndex(of path: String, in items: [CarouselItem]) -> Int {
        let (folder, name) = split(path)
        var lastSibling: Int?
        for (index, item) in items.enumerated() {
            let (itemFolder, itemName) = split(item.path)
            guard itemFolder == folder else { continue }
            if NaturalOrder.areInIncreasingOrder(String(name), String(itemName)) { return index }
            lastSibling = index
        }
        // After its last sibling; a file whose folder shows nothing else goes at the end.
        return lastSibling.map { $0 + 1 } ?? items.count
    }

    private static func split(_ path: String) -> (folder: Substring, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
        return (path[..<slash], path[path.index(after: slash)...])
    }
}
