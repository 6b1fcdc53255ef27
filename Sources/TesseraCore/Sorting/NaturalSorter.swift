#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Puts names in `NaturalOrder` by their keys (`NaturalSortKey`), each made once: every primary key goes
/// into one buffer, the sort compares their first sixteen bytes as two integers (which settles nearly
/// every comparison of a camera's numbered names) and the rest with `memcmp`, and only names whose primary
/// keys are equal (differing in case or leading zeros alone) are ordered again by their full keys.
package enum NaturalSorter {
    /// The indices of `names` in natural order.
    package static func order(of names: NameList) -> [UInt32] {
        let count = names.count
        guard count > 1 else { return count == 1 ? [0] : [] }
        var keys: [UInt8] = []
        keys.reserveCapacity(names.bytes.count + names.bytes.count / 4 + 16)
        var keyEnds = [Int](repeating: 0, count: count)
        names.bytes.withUnsafeBufferPointer { all in
            for index in 0..<count {
                NaturalSortKey.appendPrimary(of: UnsafeBufferPointer(rebasing: all[names.range(index)]), to: &keys)
                keyEnds[index] = keys.count
            }
        }

        var entries = [Entry](repeating: Entry(head: 0, next: 0, index: 0), count: count)
        keys.withUnsafeBufferPointer { key in
            keyEnds.withUnsafeBufferPointer { ends in
                for index in 0..<count {
                    let start = index == 0 ? 0 : ends[index - 1]
                    entries[index] = Entry(head: head(of: key, from: start, to: ends[index]),
                                           next: head(of: key, from: start + 8, to: ends[index]), index: UInt32(index))
                }
                let primaries = PrimaryKeys(bytes: key, ends: ends)
                entries.sort { a, b in
                    if a.head != b.head { return a.head < b.head }
                    if a.next != b.next { return a.next < b.next }
                    let order = primaries.compareTails(Int(a.index), Int(b.index))
                    return order != 0 ? order < 0 : a.index < b.index
                }
                orderTies(&entries, primaries: primaries, names: names)
            }
        }
        return entries.map(\.index)
    }

    /// One name in the sort: its key's first sixteen bytes as two big-endian integers (zeros past a shorter
    /// key's end), and its index.
    private struct Entry {
        var head: UInt64
        var next: UInt64
        var index: UInt32
    }

    /// Eight bytes of a key from `start`, big-endian, zeros past `end`.
    private static func head(of key: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> UInt64 {
        var head: UInt64 = 0
        for offset in 0..<8 {
            head <<= 8
            if start + offset < end { head |= UInt64(key[start + offset]) }
        }
        return head
    }

    /// The primary keys, one after another.
    private struct PrimaryKeys {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>

        func range(_ index: Int) -> Range<Int> { (index == 0 ? 0 : ends[index - 1])..<ends[index] }

        /// Three-way comparison of two keys whose first sixteen bytes are equal.
        func compareTails(_ a: Int, _ b: Int) -> Int {
            let x = range(a), y = range(b)
            let lengthX = x.count - 16, lengthY = y.count - 16
            let shared = min(lengthX, lengthY)
            if shared > 0 {
                let order = memcmp(bytes.baseAddress! + x.lowerBound + 16, bytes.baseAddress! + y.lowerBound + 16, shared)
                if order != 0 { return Int(order) }
            }
            return lengthX == lengthY ? 0 : (lengthX < lengthY ? -1 : 1)
        }
    }

    /// Sorts each run of equal primary keys by full key.
    private static func orderTies(_ entries: inout [Entry], primaries: PrimaryKeys, names: NameList) {
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].head == entries[start].head, entries[end].next == entries[start].next,
                  primaries.compareTails(Int(entries[end].index), Int(entries[start].index)) == 0 {
                end += 1
            }
            if end - start > 1 {
                let full = entries[start..<end].map { entry in
                    (entry, names.withName(Int(entry.index)) { NaturalSortKey.full(of: $0) })
                }
                let sorted = full.sorted { $0.1.lexicographicallyPrecedes($1.1) }
                for (offset, item) in sorted.enumerated() { entries[start + offset] = item.0 }
            }
            start = end
        }
    }
}
