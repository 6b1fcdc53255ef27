extension WorkScheduler {
    /// Binary min-heap on (priority, sequence): one lane's queued jobs.
    struct JobHeap {
        private(set) var entries: [HeapEntry] = []

        var count: Int { entries.count }

        /// The entry `popFirst` returns next, live or stale.
        var first: HeapEntry? { entries.first }

        mutating func push(_ entry: HeapEntry) {
            entries.append(entry)
            var child = entries.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard entries[child].runsBefore(entries[parent]) else { break }
                entries.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> HeapEntry? {
            guard !entries.isEmpty else { return nil }
            entries.swapAt(0, entries.count - 1)
            let first = entries.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1, right = left + 1
                var smallest = parent
                if left < entries.count, entries[left].runsBefore(entries[smallest]) { smallest = left }
                if right < entries.count, entries[right].runsBefore(entries[smallest]) { smallest = right }
                guard smallest != parent else { break }
                entries.swapAt(parent, smallest)
                parent = smallest
            }
            return first
        }

        /// Rebuilds from the live jobs only, so stale entries cannot pile up without bound.
        mutating func compact() {
            let live = entries.filter(\.isCurrent)
            entries = []
            entries.reserveCapacity(live.count)
            for entry in live { push(entry) }
        }
    }
}
