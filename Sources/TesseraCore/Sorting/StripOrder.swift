/// The orders the strip can show its items in; `o` steps through them. Each is total (ties go by path in
/// natural order), so re-sorting never shuffles equal items between runs.
public enum StripOrder: String, CaseIterable, Sendable {
    /// Paths in natural order (img2 before img10), as folders are listed.
    case name
    /// Oldest modification first.
    case modified
    /// Smallest file first.
    case size

    /// The order `o` goes to from this one: the next of `allCases`, round to the first.
    public var next: StripOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// How the overlay names it.
    public var label: String {
        switch self {
        case .name: "name"
        case .modified: "modification time"
        case .size: "file size"
        }
    }

    /// A strict weak ordering of items. Items whose file is unknown (a download not here yet) go after
    /// the rest in the orders that need the file.
    public func areInIncreasingOrder(_ a: CarouselItem, _ b: CarouselItem) -> Bool {
        let key: (FileVersion) -> Int64
        switch self {
        case .name: return NaturalOrder.areInIncreasingOrder(a.path, b.path)
        case .modified: key = \.modifiedNanoseconds
        case .size: key = \.size
        }
        switch (a.version.map(key), b.version.map(key)) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return NaturalOrder.areInIncreasingOrder(a.path, b.path)
        }
    }

    public func sorted(_ items: [CarouselItem]) -> [CarouselItem] { items.sorted(by: areInIncreasingOrder) }

    /// `items` (already in this order) with `new` merged in, in one pass.
    public func merging(_ new: [CarouselItem], into items: [CarouselItem]) -> [CarouselItem] {
        var result: [CarouselItem] = []
        result.reserveCapacity(items.count + new.count)
        var incoming = sorted(new)[...]
        for item in items {
            while let first = incoming.first, areInIncreasingOrder(first, item) {
                result.append(first)
                incoming = incoming.dropFirst()
            }
            result.append(item)
        }
        result.append(contentsOf: incoming)
        return result
    }
}
