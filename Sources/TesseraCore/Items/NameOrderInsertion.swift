/// Where files that appear go in name order: among the files of their own folder, in natural order
/// (img2 before img10), which is how folders are listed in the first place. A file whose folder shows
/// nothing else goes at the end (such files among themselves in natural order of their paths).
enum NameOrderInsertion {
    /// `nameOrder` (ids of `table` in name order) with `new` merged in. Linear in the strip plus a binary
    /// search per new file, so a folder that gains a thousand files at once costs one pass, not a thousand.
    static func inserting(_ new: [UInt32], into nameOrder: [UInt32], table: ItemTable) -> [UInt32] {
        guard !new.isEmpty else { return nameOrder }
        // Each new file's folder's items, by their place in name order (a folder's files are listed
        // together and sorted).
        var wanted = [Bool](repeating: false, count: table.prefixes.count)
        for id in new { wanted[Int(table.prefix(of: id))] = true }
        var siblings: [UInt32: [Int]] = [:]
        for (position, id) in nameOrder.enumerated() where wanted[Int(table.prefix(of: id))] {
            siblings[table.prefix(of: id), default: []].append(position)
        }

        let placed = new.map { id -> (position: Int, orphan: Bool, id: UInt32) in
            guard let positions = siblings[table.prefix(of: id)] else { return (nameOrder.count, true, id) }
            let name = table.names[Int(id)]
            // The first sibling whose name sorts after the new one; after the last sibling if none does.
            var low = 0, high = positions.count
            while low < high {
                let middle = (low + high) / 2
                if NaturalOrder.compare(table.names[Int(nameOrder[positions[middle]])], name) <= 0 {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return (low < positions.count ? positions[low] : positions[positions.count - 1] + 1, false, id)
        }.sorted { a, b in
            if a.position != b.position { return a.position < b.position }
            if a.orphan != b.orphan { return !a.orphan }
            let (x, y) = (table.path(of: a.id), table.path(of: b.id))
            return a.orphan ? NaturalOrder.areInIncreasingOrder(x, y) : NaturalOrder.areInIncreasingOrder(
                table.names[Int(a.id)], table.names[Int(b.id)])
        }

        var result: [UInt32] = []
        result.reserveCapacity(nameOrder.count + new.count)
        var next = placed.startIndex
        for (position, id) in nameOrder.enumerated() {
            while next < placed.endIndex && placed[next].position == position {
                result.append(placed[next].id)
                next += 1
            }
            result.append(id)
        }
        result.append(contentsOf: placed[next...].map(\.id))
        return result
    }
}
