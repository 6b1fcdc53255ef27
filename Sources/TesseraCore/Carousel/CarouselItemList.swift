/// What the strip shows, in order: its items, their index by path, the changes the folder watcher reports,
/// and the cache key of each item's image at the cell's pixel size. Main thread only.
final class CarouselItemList {
    private(set) var items: [CarouselItem]
    /// Each item's index by its path (the first, should a path be listed twice).
    private(set) var indexByPath: [String: Int]
    /// Whether some item is an http(s) URL: the strip then gates downloads every frame.
    private(set) var hasRemoteItems: Bool
    /// Moves whenever a key may have changed meaning (an item changed, came or went, or the cell's pixel
    /// size did): the same requests now mean other keys.
    private(set) var generation = 0

    /// The size, in device pixels, that images are decoded and scaled to for a cell.
    var cellPixelSize: PixelSize {
        didSet { if cellPixelSize != oldValue { keysChanged() } }
    }

    /// `key(for:variant:)`'s answers, by index and variant, until the items or the pixel size change. A key
    /// hashes its path when made, and a frame that asks for loads makes some 25 keys (and a planned fling
    /// one more per item on its way).
    private var keys: [ImageKey?] = []
    /// `ImageVariant.allCases` makes a new array each time it is asked.
    private static let variantCount = ImageVariant.allCases.count

    init(_ items: [CarouselItem], cellPixelSize: PixelSize) {
        self.items = items
        self.cellPixelSize = cellPixelSize
        indexByPath = Self.indexByPath(items)
        hasRemoteItems = items.contains(where: \.isRemote)
    }

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var indices: Range<Int> { items.indices }
    subscript(index: Int) -> CarouselItem { items[index] }

    func index(of path: String) -> Int? { indexByPath[path] }

    /// What the image cache and the pipeline know item `index`'s `variant` by.
    func key(for index: Int, variant: ImageVariant = .cell) -> ImageKey {
        if keys.isEmpty { keys = Array(repeating: nil, count: items.count * Self.variantCount) }
        let slot = index * Self.variantCount + variant.rawValue
        if let key = keys[slot] { return key }
        let cell = cellPixelSize
        let r = variant.reduction
        let box = PixelSize(width: (cell.width + r - 1) / r, height: (cell.height + r - 1) / r)
        let item = items[index]
        let key = ImageKey(path: item.path, size: box, variant: variant, version: item.version,
                           sessionOrientation: item.sessionOrientation)
        keys[slot] = key
        return key
    }

    /// The file (or download) behind item `index` has new content: its keys change.
    func setVersion(_ version: FileVersion, at index: Int) {
        items[index].version = version
        keysChanged()
    }

    /// The user turned item `index`'s picture for the session: its keys change.
    func setSessionOrientation(_ orientation: Int, at index: Int) {
        items[index].sessionOrientation = orientation
        keysChanged()
    }

    /// The order the items are in; files that appear join in it.
    private(set) var order = StripOrder.name

    /// Puts the items in `order`. Returns the items as they were, for the cells to follow theirs.
    func sort(by order: StripOrder) -> [CarouselItem] {
        let previous = items
        self.order = order
        items = order.sorted(items)
        indexByPath = Self.indexByPath(items)
        keysChanged()
        return previous
    }

    /// What `apply` changed.
    struct Update {
        /// Paths of items whose content changed (their new version is set).
        var changedContent: [String] = []
        /// Paths of items that left the list.
        var removed: Set<String> = []
        /// The list before items came or went; nil when none did (indices still hold).
        var previousItems: [CarouselItem]?
    }

    /// Applies what the folder watcher saw: a changed file gets its new version (and keeps its place), a
    /// deleted one leaves, a new one takes its place in the order: among its folder's files in natural
    /// order, as folders are listed, or where the other sort orders put it. Batches drained together can name a path twice (created,
    /// then deleted): the last word counts.
    func apply(_ changes: [ItemChange]) -> Update {
        var last: [String: ItemChange] = [:]
        var order: [String] = []
        for change in changes {
            if last.updateValue(change, forKey: change.path) == nil { order.append(change.path) }
        }
        var update = Update()
        var added: [CarouselItem] = []
        for path in order {
            switch last[path]! {
            case .present(_, let version):
                if let index = indexByPath[path] {
                    if items[index].version != version {
                        setVersion(version, at: index)
                        update.changedContent.append(path)
                    }
                } else {
                    added.append(CarouselItem(path: path, version: version))
                }
            case .removed:
                if indexByPath[path] != nil { update.removed.insert(path) }
            }
        }
        guard !update.removed.isEmpty || !added.isEmpty else { return update }
        update.previousItems = items
        // One pass each, however many files came and went: a thousand new files must not cost a
        // thousand rebuilds of a ten-thousand-item strip on the main thread.
        if !update.removed.isEmpty { items.removeAll { update.removed.contains($0.path) } }
        if !added.isEmpty {
            items = self.order == .name ? ItemOrder.inserting(added, into: items) : self.order.merging(added, into: items)
        }
        indexByPath = Self.indexByPath(items)
        hasRemoteItems = items.contains(where: \.isRemote)
        keysChanged()
        return update
    }

    private func keysChanged() {
        keys.removeAll(keepingCapacity: true)
        generation &+= 1
    }

    private static func indexByPath(_ items: [CarouselItem]) -> [String: Int] {
        var map: [String: Int] = [:]
        for (index, item) in items.enumerated() where map[item.path] == nil { map[item.path] = index }
        return map
    }
}
