/// What the strip shows, in order: the compact table of its items, the order they are shown in, what is
/// known of their files, the changes the folder watcher reports, and the cache keys of the items being
/// loaded. Per item it keeps the table's bytes, its place in two orders (as listed and as shown) and the
/// index by path: nothing per item is a `String` or a struct. Main thread only.
final class CarouselItemList {
    /// The items shown, in order (a snapshot of the list's state).
    private(set) var items: CarouselItems
    /// Every item shown, in name order (`StripOrder.name`): as listed, new files among their folder's.
    private var nameOrder: [UInt32]
    /// Each id's index in `items`; `hidden` for an item that left.
    private var positions: [UInt32] = []
    private static let hidden = UInt32.max
    /// Made at the first lookup by path.
    private var pathIndex: PathIndex?
    /// What the orders other than name sort by.
    private(set) var facts = ItemFacts()
    private var shuffle: ShuffleKeys
    /// The order the items are in; files that appear join it.
    private(set) var order: StripOrder
    private(set) var isReversed: Bool
    /// Which items are shown by their rating; the rest are left out, in order, until it changes.
    private(set) var filter = RatingFilter.all
    /// Items rated while the filter is on: shown until the filter changes, so that an image does not
    /// vanish under the key that rated it.
    private var keptByFilter = Set<UInt32>()
    /// Items that left the list (their ids stay in the table, which only grows).
    private var unlisted = Set<UInt32>()
    /// Whether some item is an http(s) URL: the strip then gates downloads every frame.
    private(set) var hasRemoteItems: Bool
    /// Moves whenever a key may have changed meaning (an item changed, came or went, or the cell's pixel
    /// size did): the same requests now mean other keys.
    private(set) var generation = 0

    /// The size, in device pixels, that images are decoded and scaled to for a cell.
    var cellPixelSize: PixelSize {
        didSet { if cellPixelSize != oldValue { keysChanged() } }
    }

    /// `key(for:variant:)`'s answers by index and variant, for the items being asked about (those on or
    /// near the screen, and on a fling's way), until the items or the pixel size change. A key hashes its
    /// path when made, and a frame that asks for loads makes some 25 keys.
    private var keys: [Int: ImageKey] = [:]
    /// Keys kept at most before the cache starts again: a long fling's worth.
    private static let keyCacheLimit = 4096
    /// `ImageVariant.allCases` makes a new array each time it is asked.
    private static let variantCount = ImageVariant.allCases.count

    /// - Parameters:
    ///   - table: the items as listed (name order).
    ///   - versions: what is known of items' files already, by id.
    ///   - shuffleSeed: the random order's seed, fixed for the run.
    init(table: ItemTable, versions: [UInt32: FileVersion] = [:], cellPixelSize: PixelSize, order: StripOrder = .name,
         reversed: Bool = false, shuffleSeed: UInt64 = 0) {
        let ids = Array(0..<UInt32(table.count))
        items = CarouselItems(table: table, ids: ids, versions: versions, orientations: [:])
        nameOrder = ids
        self.cellPixelSize = cellPixelSize
        self.order = .name
        isReversed = false
        shuffle = ShuffleKeys(seed: shuffleSeed)
        hasRemoteItems = table.hasRemoteItems
        for (id, version) in versions { facts.setVersion(version, of: id) }
        positions = Self.positions(of: ids, count: table.count)
        if order != .name || reversed { _ = sort(by: order, reversed: reversed) }
    }

    /// A list of these items, in this order (their versions and turns as given).
    convenience init(_ items: [CarouselItem], cellPixelSize: PixelSize) {
        var versions: [UInt32: FileVersion] = [:]
        for (id, item) in items.enumerated() { versions[UInt32(id)] = item.version }
        self.init(table: ItemTable(items), versions: versions, cellPixelSize: cellPixelSize)
        for (id, item) in items.enumerated() where item.sessionOrientation != 1 {
            setOrientation(item.sessionOrientation, of: UInt32(id))
        }
    }

    var table: ItemTable { items.table }
    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var indices: Range<Int> { items.indices }
    subscript(index: Int) -> CarouselItem { items[index] }

    func id(at index: Int) -> UInt32 { items.ids[index] }
    func path(at index: Int) -> String { items.path(at: index) }
    func isRemote(at index: Int) -> Bool { items.table.isRemote(items.ids[index]) }
    func version(at index: Int) -> FileVersion? { items.versions[items.ids[index]] }
    func sessionOrientation(at index: Int) -> Int { items.orientations[items.ids[index]].map(Int.init) ?? 1 }

    /// The index of item `id`; nil when it is not shown (it left).
    func index(ofID id: UInt32) -> Int? {
        guard Int(id) < positions.count, positions[Int(id)] != Self.hidden else { return nil }
        return Int(positions[Int(id)])
    }

    /// The id of the item shown at `path`.
    func id(of path: String) -> UInt32? {
        if pathIndex == nil { pathIndex = PathIndex(items.table) }
        guard let id = pathIndex?.id(of: path, in: items.table), index(ofID: id) != nil else { return nil }
        return id
    }

    func index(of path: String) -> Int? { id(of: path).flatMap(index(ofID:)) }

    /// The id of the item listed at `path`, shown or left out by the filter; nil when no such item is listed.
    func listedID(of path: String) -> UInt32? {
        if pathIndex == nil { pathIndex = PathIndex(items.table) }
        guard let id = pathIndex?.id(of: path, in: items.table), !unlisted.contains(id) else { return nil }
        return id
    }

    /// What the image cache and the pipeline know item `index`'s `variant` by.
    func key(for index: Int, variant: ImageVariant = .cell) -> ImageKey {
        let slot = index * Self.variantCount + variant.rawValue
        if let key = keys[slot] { return key }
        let cell = cellPixelSize
        let r = variant.reduction
        let box = PixelSize(width: (cell.width + r - 1) / r, height: (cell.height + r - 1) / r)
        let key = ImageKey(path: path(at: index), size: box, variant: variant, version: version(at: index),
                           sessionOrientation: sessionOrientation(at: index))
        if keys.count >= Self.keyCacheLimit { keys.removeAll(keepingCapacity: true) }
        keys[slot] = key
        return key
    }

    /// The file (or download) behind item `index` has new content: its keys change.
    func setVersion(_ version: FileVersion, at index: Int) {
        let id = items.ids[index]
        items.versions[id] = version
        facts.setVersion(version, of: id)
        facts.forgetTaken(of: id)
        keysChanged()
    }

    /// The user turned item `index`'s picture for the session: its keys change.
    func setSessionOrientation(_ orientation: Int, at index: Int) {
        setOrientation(orientation, of: items.ids[index])
        keysChanged()
    }

    private func setOrientation(_ orientation: Int, of id: UInt32) {
        items.orientations[id] = orientation == 1 ? nil : UInt8(orientation)
    }

    // MARK: Order

    /// Puts the items in `order` (reversed or not), with what is known of their files: an item whose key
    /// is not known yet goes last. Returns the items as they were, for the cells to follow theirs.
    func sort(by order: StripOrder, reversed: Bool) -> CarouselItems {
        let previous = items
        self.order = order
        isReversed = reversed
        if order == .random { shuffle.add(items.table) }
        let facts = facts, shuffle = shuffle
        let ids = order.arrange(admitted(nameOrder), reversed: reversed) { order.key(of: $0, facts: facts, shuffle: shuffle) }
        show(ids)
        return previous
    }

    /// Shows only the items `filter` admits, in the order they are in.
    func filter(by filter: RatingFilter) -> CarouselItems {
        self.filter = filter
        keptByFilter.removeAll()
        return sort(by: order, reversed: isReversed)
    }

    /// `ids` without those the filter leaves out.
    private func admitted(_ ids: [UInt32]) -> [UInt32] {
        guard filter != .all else { return ids }
        let facts = facts, filter = filter, kept = keptByFilter
        return ids.filter { filter.admits(facts.rating($0)) || kept.contains($0) }
    }

    /// Item `id`'s rating is `rating` now (written by Tessera). A shown item stays shown until the filter
    /// changes, whatever its new rating.
    func setRating(_ rating: Int, of id: UInt32) {
        facts.setRating(rating, of: id)
        if filter != .all, index(ofID: id) != nil { keptByFilter.insert(id) }
    }

    /// Learns what workers read of the items' files; the order takes it in at the next `sort`.
    func learn(_ readings: [ItemFacts.Reading]) {
        for reading in readings { facts.learn(reading) }
    }

    /// What must still be read of the items' files for the order they are in, then for the filter
    /// (ratings), and of which items (all of them, shown or left out).
    var factsNeeded: (kind: ItemFacts.Kind, ids: [UInt32])? {
        let kinds = [order.needs, filter == .all ? nil : .rating].compactMap { $0 }
        for kind in kinds {
            let ids = nameOrder.filter { facts.needsReading(kind, $0) && !items.table.isRemote($0) }
            if !ids.isEmpty { return (kind, ids) }
        }
        return nil
    }

    // MARK: Changes

    /// What `apply` changed.
    struct Update {
        /// Paths of items whose content changed (their new version is set).
        var changedContent: [String] = []
        /// Paths of items that left the list.
        var removed: Set<String> = []
        /// The items shown before items came or went (with what is known of them now); nil when none
        /// did (indices still hold).
        var previousItems: CarouselItems?
        /// Items that joined the list.
        var added: [UInt32] = []
    }

    /// Applies what the folder watcher saw: a changed file gets its new version (and keeps its place), a
    /// deleted one leaves, a new one takes its place in the order the strip is in (in name order among
    /// its folder's files). Batches drained together can name a path twice (created, then deleted): the
    /// last word counts.
    func apply(_ changes: [ItemChange]) -> Update {
        var last: [PathText.Key: ItemChange] = [:]
        var paths: [String] = []
        for change in changes {
            if last.updateValue(change, forKey: PathText.Key(change.path)) == nil { paths.append(change.path) }
        }
        var update = Update()
        var removedIDs = Set<UInt32>()
        var added: [(path: String, version: FileVersion)] = []
        for path in paths {
            switch last[PathText.Key(path)]! {
            case .present(_, let version):
                if let index = index(of: path) {
                    if self.version(at: index) != version {
                        setVersion(version, at: index)
                        update.changedContent.append(path)
                    }
                } else if let id = listedID(of: path) {
                    // Listed, left out by the filter: its file changed, it is still one item.
                    items.versions[id] = version
                    facts.setVersion(version, of: id)
                    facts.forgetTaken(of: id)
                } else {
                    added.append((path, version))
                }
            case .removed:
                if let id = listedID(of: path) {
                    update.removed.insert(path)
                    removedIDs.insert(id)
                }
            }
        }
        guard !removedIDs.isEmpty || !added.isEmpty else { return update }
        let previousIDs = items.ids

        // The table only grows, so the items shown before are still read from it.
        let newIDs = added.map { path, version in
            let id = items.table.appendPath(path)
            items.versions[id] = version
            facts.setVersion(version, of: id)
            return id
        }
        let table = items.table
        if !newIDs.isEmpty {
            if pathIndex == nil { pathIndex = PathIndex(table) }
            for id in newIDs { pathIndex?.insert(id, in: table) }
        }
        // One pass each, however many files came and went: a thousand new files must not cost a
        // thousand rebuilds of a strip of a million items on the main thread.
        var shown = items.ids
        if !removedIDs.isEmpty {
            nameOrder.removeAll { removedIDs.contains($0) }
            shown.removeAll { removedIDs.contains($0) }
            unlisted.formUnion(removedIDs)
        }
        if !newIDs.isEmpty {
            nameOrder = NameOrderInsertion.inserting(newIDs, into: nameOrder, table: table)
            if order == .random { shuffle.add(table) }
            if order == .name {
                shown = admitted(isReversed ? nameOrder.reversed() : nameOrder)
            } else {
                let ranks = Self.positions(of: nameOrder, count: table.count)
                let facts = facts, shuffle = shuffle, order = order
                shown = order.merging(admitted(newIDs), into: shown, reversed: isReversed,
                                      key: { order.key(of: $0, facts: facts, shuffle: shuffle) },
                                      rank: { Int(ranks[Int($0)]) })
            }
        }
        update.added = newIDs
        show(shown)
        update.previousItems = CarouselItems(table: table, ids: previousIDs, versions: items.versions,
                                             orientations: items.orientations)
        return update
    }

    // MARK: Helpers

    /// Shows `ids` in this order.
    private func show(_ ids: [UInt32]) {
        items.ids = ids
        positions = Self.positions(of: ids, count: items.table.count)
        hasRemoteItems = items.table.hasRemoteItems && ids.contains { items.table.isRemote($0) }
        keysChanged()
    }

    private func keysChanged() {
        keys.removeAll(keepingCapacity: true)
        generation &+= 1
    }

    /// Each id's index in `ids`; `hidden` for ids not in it.
    private static func positions(of ids: [UInt32], count: Int) -> [UInt32] {
        var positions = [UInt32](repeating: hidden, count: count)
        for (index, id) in ids.enumerated() { positions[Int(id)] = UInt32(index) }
        return positions
    }
}
