/// The strip's rows and cell size at a viewport size: what the user fixed (`--rows`, `--cell`, or the
/// configuration file) is kept, and the viewport decides the rest so that the cells fill the window's
/// height above the name bar, as nsxiv's thumbnail grid fills its window.
///
/// - Neither fixed: 4:3 cells in as few rows as keep a cell at most `largestCellHeight` tall and narrow
///   enough for two whole columns side by side (a tall narrow window gets more, smaller rows rather than
///   one column and a sliver), but not below `smallestCellHeight` while one row fewer can be had; the
///   rows fill the height.
/// - Rows fixed: the rows fill the height, a cell no wider than the viewport.
/// - Cell fixed: as many rows as the height holds, at least one.
/// - Both fixed: as given.
///
/// Fitted cells are `heightStep` multiples; what is left over of the height becomes even margins above
/// and below the grid (`StripLayout.gridTop`).
package struct StripFit: Equatable, Sendable {
    /// Rows the user fixed; nil: the viewport decides.
    package var rows: Int?
    /// Cell size the user fixed, in points; nil: the viewport decides.
    package var cellSize: Size?

    /// The tallest a fitted cell is made while another row can be had: larger, and a window shows so few
    /// pictures that browsing becomes paging.
    package static let largestCellHeight = 400.0
    /// The smallest a fitted cell is made when fewer rows would do: smaller, and a picture's subject is
    /// hard to make out.
    package static let smallestCellHeight = 180.0
    /// Fitted cells' width over height: most photos are 4:3 or 3:2, and a 4:3 cell wastes little of either.
    package static let aspect = 4.0 / 3.0
    /// Fitted cell heights are multiples of this: with the 4:3 aspect the width is then whole too (8 points
    /// a step), and a window being resized changes the cells' size, and so the size thumbnails are decoded
    /// at, every few points rather than at every one.
    package static let heightStep = 6.0
    /// The most rows there are: as `--rows` allows.
    package static let maximumRows = 32

    package init(rows: Int? = nil, cellSize: Size? = nil) {
        precondition(rows.map { $0 >= 1 } ?? true, "StripFit: rows must be at least 1")
        precondition(cellSize.map { $0.width > 0 && $0.height > 0 } ?? true, "StripFit: empty cell size")
        self.rows = rows
        self.cellSize = cellSize
    }

    /// Whether the viewport decides nothing.
    package var isFixed: Bool { rows != nil && cellSize != nil }

    /// The rows and cell size for a viewport of `viewportSize` points, with `spacing` between cells,
    /// `inset` around the grid and `bottomBar` points at the bottom covered by the name bar.
    package func grid(viewportSize: Size, spacing: Double, inset: Double,
                      bottomBar: Double) -> (rows: Int, cellSize: Size) {
        // The height the rows and the gaps between them share, and the widest a cell can be to show whole.
        let height = viewportSize.height - bottomBar - 2 * inset
        let widest = viewportSize.width - 2 * inset
        func rowHeight(_ rows: Int) -> Double { (height - Double(rows - 1) * spacing) / Double(rows) }

        switch (rows, cellSize) {
        case let (rows?, cellSize?):
            return (rows, cellSize)
        case let (nil, cellSize?):
            let fitting = Int(((height + spacing) / (cellSize.height + spacing)).rounded(.down))
            return (min(max(1, fitting), Self.maximumRows), cellSize)
        case let (rows?, nil):
            return (rows, Self.cell(height: min(rowHeight(rows), widest / Self.aspect)))
        case (nil, nil):
            let twoColumns = (widest - spacing) / 2 / Self.aspect
            let tallest = max(Self.smallestCellHeight, min(Self.largestCellHeight, twoColumns))
            var rows = 1
            while rows < Self.maximumRows && rowHeight(rows) > tallest { rows += 1 }
            if rows > 1 && rowHeight(rows) < Self.smallestCellHeight { rows -= 1 }
            return (rows, Self.cell(height: min(rowHeight(rows), widest / Self.aspect)))
        }
    }

    /// A 4:3 cell at most `height` tall, in whole steps (one step at least, however small the window).
    private static func cell(height: Double) -> Size {
        let steps = max(1, (height / heightStep).rounded(.down))
        return Size(width: (steps * heightStep * aspect).rounded(), height: steps * heightStep)
    }
}
