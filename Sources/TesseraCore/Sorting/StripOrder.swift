/// The orders the strip can show its items in (`--sort`, and `o` steps through them), and how each one
/// arranges them: the one place that says what an order sorts by.
///
/// `name` is the order the items were listed in: the paths as given, a folder's images in `NaturalOrder`
/// and then its subfolders'. Every other order sorts by a key (a time, a size, a shuffle) and breaks ties
/// by that name order, so re-sorting never shuffles equal items between runs. An item whose key is not
/// known yet (its file not stat'ed, a download not here) goes after the rest, in name order.
package enum StripOrder: String, CaseIterable, Sendable {
    /// As listed: natural order within each folder (img2 before img10).
    case name
    /// Oldest modification first.
    case mtime
    /// Earliest EXIF DateTimeOriginal first; a file without one by its modification time.
    case taken
    /// Smallest file first.
    case size
    /// A shuffle, the same for the whole run (new files join it by their path).
    case random
    /// Most stars first, then unrated, then rejected (XMP ratings).
    case rating

    /// The order `o` goes to from this one: the next of `allCases`, round to the first.
    package var next: StripOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// How the overlay names it.
    package var label: String {
        switch self {
        case .name: "name"
        case .mtime: "modification time"
        case .taken: "date taken"
        case .size: "file size"
        case .random: "random"
        case .rating: "rating"
        }
    }

    /// What must be read from each file before this order is final.
    package var needs: ItemFacts.Kind? {
        switch self {
        case .name, .random: nil
        case .mtime, .size: .stat
        case .taken: .taken
        case .rating: .rating
        }
    }

    /// The key item `id` sorts by in this order; nil when not known (yet). Name order has no key.
    package func key(of id: UInt32, facts: ItemFacts, shuffle: ShuffleKeys) -> Int64? {
        switch self {
        case .name: nil
        case .mtime: facts.modified(id)
        case .size: facts.size(id)
        case .taken: facts.taken(id) ?? facts.modified(id)
        case .random: shuffle.key(of: id)
        case .rating: facts.rating(id).map { -Int64($0) }
        }
    }

    /// Arranges the items: `nameOrder` holds each item shown, in name order; `key` gives an item's key
    /// (`key(of:facts:shuffle:)`). Reversed, the known items come in the opposite order (ties too), and
    /// those not known yet still come last.
    package func arrange(_ nameOrder: [UInt32], reversed: Bool, key: (UInt32) -> Int64?) -> [UInt32] {
        guard self != .name else { return reversed ? nameOrder.reversed() : nameOrder }
        var known: [(key: Int64, rank: UInt32)] = []
        var unknown: [UInt32] = []
        known.reserveCapacity(nameOrder.count)
        for (rank, id) in nameOrder.enumerated() {
            if let value = key(id) { known.append((value, UInt32(rank))) } else { unknown.append(id) }
        }
        known.sort { $0.key != $1.key ? $0.key < $1.key : $0.rank < $1.rank }
        var result = known.map { nameOrder[Int($0.rank)] }
        if reversed {
            result.reverse()
            unknown.reverse()
        }
        return result + unknown
    }

    /// `order` (arranged by `arrange`) with `new` merged in where arranging all of them would put them,
    /// in one pass. `rank` gives each item's place in name order, `new` included.
    package func merging(_ new: [UInt32], into order: [UInt32], reversed: Bool, key: (UInt32) -> Int64?,
                        rank: (UInt32) -> Int) -> [UInt32] {
        // Where each item goes, as one comparable value: known before unknown, then by key (not for name),
        // then by rank; reversed flips both within each group.
        func place(_ id: UInt32) -> (Int, Int64, Int) {
            let position = reversed ? -rank(id) : rank(id)
            guard let value = self == .name ? 0 : key(id) else { return (1, 0, position) }
            return (0, reversed ? ~value : value, position)
        }
        let incoming = new.map { (place($0), $0) }.sorted { $0.0 < $1.0 }
        var result: [UInt32] = []
        result.reserveCapacity(order.count + new.count)
        var next = 0
        for id in order {
            let here = place(id)
            while next < incoming.count, incoming[next].0 < here {
                result.append(incoming[next].1)
                next += 1
            }
            result.append(id)
        }
        result.append(contentsOf: incoming[next...].map(\.1))
        return result
    }
}
