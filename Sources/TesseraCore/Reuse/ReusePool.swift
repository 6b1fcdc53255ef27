/// A free list of reusable objects, `UITableView.dequeueReusableCell` style.
///
/// Cells own expensive resources (textures, buffers); creating one per item and dropping it when it scrolls
/// out would churn allocations every frame of a fling. With a pool, the number of cells ever created stays
/// at about the number visible at once, however long the strip — `createdCount` makes that testable.
///
/// Not thread-safe and not `Sendable` on purpose: cells belong to the UI thread.
package final class ReusePool<Cell: AnyObject> {
    private let make: () -> Cell
    private var free: [Cell] = []

    /// Cells created so far (not counting reuses).
    package private(set) var createdCount = 0

    /// Cells waiting to be reused.
    package var freeCount: Int { free.count }

    /// - Parameter make: builds a fresh cell when none is free.
    package init(make: @escaping () -> Cell) {
        self.make = make
    }

    /// A free cell if there is one (most recently returned first, while its resources are warm in cache),
    /// otherwise a new one. The caller must fully reconfigure it: it still holds its last item's state.
    package func dequeue() -> Cell {
        if let cell = free.popLast() { return cell }
        createdCount += 1
        return make()
    }

    /// Returns a cell that went out of view. Returning the same cell twice would hand it out to two
    /// owners, so that is a programming error.
    package func enqueue(_ cell: Cell) {
        assert(!free.contains { $0 === cell }, "ReusePool: cell enqueued twice")
        free.append(cell)
    }

    /// Drops all free cells (e.g. on a memory warning or when the cell size changes); cells in use are
    /// unaffected.
    package func removeAllFree() {
        free.removeAll()
    }
}
