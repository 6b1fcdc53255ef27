/// What happened on disk to a file the strip shows, or would show.
public enum ItemChange: Equatable, Sendable {
    /// The file exists with this content: new (it joins the strip in sort order) or changed (it reloads).
    case present(path: String, version: FileVersion)
    /// The file is gone: it leaves the strip.
    case removed(path: String)

    public var path: String {
        switch self {
        case .present(let path, _), .removed(let path): return path
        }
    }
}

/// Where files that appeared go: among the files of their own folder, in natural order (img2 before
/// img10), which is how folders were listed in the first place. A file whose folder shows nothing else
/// goes at the end.
public enum ItemOrder {
    /// `items` with `new` merged in. Linear in the strip plus a binary search per new file, so a folder
    /// that gains a thousand files at once costs one pass, not a thousand.
    public static func inserting(_ new: [CarouselItem], into items: [CarouselItem]) -> [CarouselItem] {
        // Each folder's items, in strip order (a folder's files were listed contiguously and sorted).
        var siblings: [Substring: [Int]] = [:]
        for (index, item) in items.enumerated() { siblings[split(item.path).folder, default: []].append(index) }

        // A file whose folder shows nothing else goes last, after files joining their siblings at the end.
        let placed = new.map { item -> (index: Int, orphan: Bool, item: CarouselItem) in
            let (folder, name) = split(item.path)
            guard let indices = siblings[folder] else { return (items.count, true, item) }
            // The first sibling whose name sorts after the new one; after the last sibling if none does.
            var low = 0, high = indices.count
            while low < high {
                let middle = (low + high) / 2
                if NaturalOrder.compare(String(split(items[indices[middle]].path).name), String(name)) <= 0 {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return (low < indices.count ? indices[low] : indices[indices.count - 1] + 1, false, item)
        }.sorted { a, b in
            if a.index != b.index { return a.index < b.index }
            if a.orphan != b.orphan { return !a.orphan }
            return NaturalOrder.areInIncreasingOrder(a.item.path, b.item.path)
        }

        var result: [CarouselItem] = []
        result.reserveCapacity(items.count + new.count)
        var next = placed.startIndex
        for (index, item) in items.enumerated() {
            while next < placed.endIndex && placed[next].index == index {
                result.append(placed[next].item)
                next += 1
            }
            result.append(item)
        }
        result.append(contentsOf: placed[next...].map(\.item))
        return result
    }

    private static func split(_ path: String) -> (folder: Substring, name: Substring) {
        guard let slash = path.lastIndex(of: "/") else { return ("", path[...]) }
        return (path[..<slash], path[path.index(after: slash)...])
    }
}
