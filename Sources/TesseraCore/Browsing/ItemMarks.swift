/// The images the user marked (`m`), by path: a mark follows its file wherever the strip moves it (a new
/// sort order, files coming and going) and comes back with a file that leaves and returns (a trash
/// undone). `-o` writes the marked paths at exit; the key-handler, the trash and the turns act on them.
/// Paths are told apart by their bytes (`PathText.Key`): marking one of two names that differ only in
/// Unicode normalisation marks that one.
package struct ItemMarks: Sendable, Equatable {
    private var keys: Set<PathText.Key> = [] {
        didSet { revision &+= 1 }
    }
    /// Moves with every change, so what is worked out from the marks can be kept until they change.
    package private(set) var revision = 0

    package init() {}

    /// The marked paths, in no order.
    package var paths: [String] { keys.map(\.text) }

    package var isEmpty: Bool { keys.isEmpty }

    package func contains(_ path: String) -> Bool { keys.contains(PathText.Key(path)) }

    package mutating func toggle(_ path: String) {
        let key = PathText.Key(path)
        if keys.remove(key) == nil { keys.insert(key) }
    }

    package mutating func clear() { keys.removeAll() }

    /// Marks exactly `paths`.
    package mutating func replace(with paths: some Sequence<String>) { keys = Set(paths.map(PathText.Key.init)) }

    /// Marks what is unmarked among `items` and unmarks the rest; marks of files no longer shown go.
    package mutating func invert(over items: some Collection<CarouselItem>) {
        let marked = keys
        keys = Set(items.map { PathText.Key($0.path) }.filter { !marked.contains($0) })
    }

    /// The marked items among `items`, in their order.
    package func marked(in items: some Collection<CarouselItem>) -> [CarouselItem] {
        keys.isEmpty ? [] : items.filter { contains($0.path) }
    }

    /// The nearest marked item after (`forward`) or before `index`; nil when there is none that way
    /// (nsxiv's `N` and `P` do not wrap around).
    package func nearestMarked<Items: RandomAccessCollection<CarouselItem>>(from index: Int, forward: Bool, in items: Items) -> Int?
    where Items.Index == Int {
        guard !keys.isEmpty else { return nil }
        let candidates = forward ? Array(items.indices.suffix(from: min(items.count, index + 1)))
                                 : Array(items.indices.prefix(max(0, index)).reversed())
        return candidates.first { contains(items[$0].path) }
    }
}
