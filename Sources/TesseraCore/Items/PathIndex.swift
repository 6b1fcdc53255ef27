/// Finds an item of an `ItemTable` by its path: an open-addressed hash table of ids, eight bytes per item,
/// where a dictionary from path strings would hold a second copy of every path.
///
/// A path is hashed as its prefix's id and its name's bytes, and each slot probed is compared the same
/// way, so nothing is allocated to find one. The table must be the one the ids were added from, or a
/// later version of it (items only come at the end). Adding a path already present points it at the new id.
package struct PathIndex: Sendable {
    private var slots: [UInt32]
    private var stored = 0
    private static let empty = UInt32.max

    /// An index of `table`'s items (of two items with one path, the first).
    package init(_ table: ItemTable) {
        slots = Array(repeating: Self.empty, count: Self.capacity(for: table.count))
        for id in 0..<UInt32(table.count) where firstSlot(holdingPathOf: id, in: table) == nil {
            insertNew(id, in: table)
        }
    }

    /// The id of the item at `path`, if any.
    package func id(of path: String, in table: ItemTable) -> UInt32? {
        PathText.withBytes(path) { bytes -> UInt32? in
            guard let (prefix, nameStart) = table.locate(bytes) else { return nil }
            return id(prefix: prefix, name: UnsafeBufferPointer(rebasing: bytes[nameStart...]), in: table)
        }
    }

    /// The id of the item with `prefix` and `name`, if any: a folder's names looked up without a path
    /// string each.
    package func id(prefix: UInt32, name: UnsafeBufferPointer<UInt8>, in table: ItemTable) -> UInt32? {
        var slot = Self.hash(prefix: prefix, name: name) & (slots.count - 1)
        while slots[slot] != Self.empty {
            if table.has(slots[slot], prefix: prefix, name: name) { return slots[slot] }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// How many paths it finds.
    package var count: Int { stored }

    /// Whether looking up item `id`'s path finds `id` (not another item of that path).
    package func finds(_ id: UInt32, in table: ItemTable) -> Bool {
        firstSlot(holdingPathOf: id, in: table).map { slots[$0] == id } ?? false
    }

    /// Adds item `id` of `table`; a path already present now finds `id`.
    package mutating func insert(_ id: UInt32, in table: ItemTable) {
        if let slot = firstSlot(holdingPathOf: id, in: table) {
            slots[slot] = id
        } else {
            insertNew(id, in: table)
        }
    }

    // MARK: Slots

    /// Twice the items at least, a power of two: probes stay short.
    private static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }

    private static func hash(prefix: UInt32, name: UnsafeBufferPointer<UInt8>) -> Int {
        var hasher = Hasher()
        hasher.combine(prefix)
        hasher.combine(bytes: UnsafeRawBufferPointer(name))
        return hasher.finalize()
    }

    private static func hash(of id: UInt32, in table: ItemTable) -> Int {
        table.names.withName(Int(id)) { hash(prefix: table.prefix(of: id), name: $0) }
    }

    /// The slot of an item with `id`'s path, if one is stored.
    private func firstSlot(holdingPathOf id: UInt32, in table: ItemTable) -> Int? {
        var slot = Self.hash(of: id, in: table) & (slots.count - 1)
        while slots[slot] != Self.empty {
            if table.haveSamePath(slots[slot], id) { return slot }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    private mutating func insertNew(_ id: UInt32, in table: ItemTable) {
        if (stored + 1) * 2 > slots.count { grow(in: table) }
        var slot = Self.hash(of: id, in: table) & (slots.count - 1)
        while slots[slot] != Self.empty { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = id
        stored += 1
    }

    private mutating func grow(in table: ItemTable) {
        let ids = slots.filter { $0 != Self.empty }
        slots = Array(repeating: Self.empty, count: slots.count * 2)
        stored = 0
        for id in ids { insertNew(id, in: table) }
    }
}
