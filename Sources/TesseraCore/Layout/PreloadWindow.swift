/// How far beyond the visible cells to load, in columns, relative to the scroll direction.
///
/// Measured in columns because a column is what scrolls into view next; with one row this is plain
/// "index ± n", the classic preload-the-neighbours rule generalised to a grid.
package struct PreloadPolicy: Equatable, Hashable, Sendable {
    /// Columns to preload on the side the content is scrolling towards.
    package var ahead: Int
    /// Columns to keep/preload on the side it is leaving.
    package var behind: Int

    package init(ahead: Int = 1, behind: Int = 1) {
        precondition(ahead >= 0 && behind >= 0, "PreloadPolicy: negative reach")
        self.ahead = ahead
        self.behind = behind
    }

    /// One column either side: the neighbours of what is on screen.
    package static let `default` = PreloadPolicy()
}

/// One item to load, and how urgently. Lower priority values load first.
package struct PreloadItem: Equatable, Hashable, Sendable {
    package var index: Int
    /// 0 for visible items; n for items n columns beyond the visible ones.
    package var priority: Int

    package init(index: Int, priority: Int) {
        self.index = index
        self.priority = priority
    }
}

/// The ordered set of items worth having decoded right now: what is on screen, then its neighbours in the
/// direction of travel.
///
/// Why ordered: the decoder is the bottleneck while scrolling, so the order it receives work in is the
/// order cells fill in. Visible cells come first, middle of the screen first (where the eye is), then
/// preload columns nearest first, the side being scrolled towards before the side being left. Anything not
/// in the window may be cancelled or evicted.
package struct PreloadWindow: Equatable, Sendable {
    /// Highest urgency first.
    package let items: [PreloadItem]

    /// - Parameters:
    ///   - visible: the visible item range (`StripLayout.visibleRange`); column-aligned at its start.
    ///   - itemCount: total items; preloading never goes past either end.
    ///   - rows: rows of the grid (items per column).
    ///   - direction: +1 scrolling towards higher indices, -1 towards lower, 0 at rest. At rest either way is
    ///     equally likely next, so both sides get the larger of the two reaches (reading order, higher
    ///     indices, breaks ties).
    ///   - policy: reach ahead and behind, in columns.
    package init(visible: Range<Int>, itemCount: Int, rows: Int = 1, direction: Int,
                policy: PreloadPolicy = .default) {
        precondition(rows >= 1, "PreloadWindow: rows must be at least 1")
        let visible = visible.clamped(to: 0..<max(0, itemCount))
        var result: [PreloadItem] = []

        // Visible, nearest the centre first: by column distance; between two columns equally far, the one
        // the content is scrolling towards (its cells are arriving, the other's leaving); then the middle row
        // first; then lower index, so the order is total and stable.
        let firstColumn = Double(visible.lowerBound / rows)
        let lastColumn = Double(max(visible.lowerBound, visible.upperBound - 1) / rows)
        let centreColumn = (firstColumn + lastColumn) / 2
        let middleRow = Double(rows - 1) / 2
        let centred = visible.sorted { a, b in
            let columnA = a / rows, columnB = b / rows
            let ca = abs(Double(columnA) - centreColumn), cb = abs(Double(columnB) - centreColumn)
            if ca != cb { return ca < cb }
            if columnA != columnB { return direction > 0 ? columnA > columnB : columnA < columnB }
            let ra = abs(Double(a % rows) - middleRow), rb = abs(Double(b % rows) - middleRow)
            if ra != rb { return ra < rb }
            return a < b
        }
        result += centred.map { PreloadItem(index: $0, priority: 0) }

        let forwardReach: Int
        let backwardReach: Int
        switch direction.signum() {
        case 1: (forwardReach, backwardReach) = (policy.ahead, policy.behind)
        case -1: (forwardReach, backwardReach) = (policy.behind, policy.ahead)
        default: (forwardReach, backwardReach) = (max(policy.ahead, policy.behind), max(policy.ahead, policy.behind))
        }
        let forwardFirst = direction >= 0

        // Columns just past the visible ones. Forward starts at the column after the last visible item
        // (partial columns are whole columns here: items are filled column by column).
        let forwardStartColumn = visible.isEmpty ? visible.lowerBound / rows
            : (visible.upperBound - 1) / rows + 1
        let backwardStartColumn = visible.lowerBound / rows - 1
        for distance in 1...max(1, max(forwardReach, backwardReach)) {
            var forward: [Int] = []
            var backward: [Int] = []
            if distance <= forwardReach {
                let column = forwardStartColumn + distance - 1
                forward = Self.indices(ofColumn: column, rows: rows, itemCount: itemCount)
                    .filter { !visible.contains($0) }
            }
            if distance <= backwardReach {
                let column = backwardStartColumn - (distance - 1)
                backward = Self.indices(ofColumn: column, rows: rows, itemCount: itemCount)
                    .filter { !visible.contains($0) }
            }
            let ordered = forwardFirst ? forward + backward : backward + forward
            result += ordered.map { PreloadItem(index: $0, priority: distance) }
        }
        items = result
    }

    /// Item indices in load order.
    package var indices: [Int] { items.map(\.index) }

    package func contains(_ index: Int) -> Bool { items.contains { $0.index == index } }

    /// The item's priority, or nil if it is outside the window (and may be evicted or cancelled).
    package func priority(of index: Int) -> Int? { items.first { $0.index == index }?.priority }

    private static func indices(ofColumn column: Int, rows: Int, itemCount: Int) -> [Int] {
        guard column >= 0 else { return [] }
        let start = column * rows
        guard start < itemCount else { return [] }
        return Array(start..<min(itemCount, start + rows))
    }
}
