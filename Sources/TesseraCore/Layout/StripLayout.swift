import Foundation

/// The geometry of the thumbnail strip: `rows` rows of equal cells that scroll horizontally.
///
/// Items fill column-major (item i sits in column i / rows, row i % rows) so that reading order runs along
/// the scroll direction, a column is the unit that scrolls in and out of view, and every visible set is a
/// contiguous index range (cheap to compute and to hand to the preloader). The grid is centred vertically
/// because the strip only scrolls horizontally: extra height becomes even margins rather than a gap
/// at the bottom. It is centred in the height above `bottomBar`, the band the overlay's name bar covers,
/// so the bar hides no part of the bottom row.
///
/// Coordinates: *content* coordinates run along the whole strip (x = 0 at its leading edge); *viewport*
/// coordinates are what is on screen, content x minus the scroll `offset`. All in logical points.
package struct StripLayout: Equatable, Sendable {
    package var itemCount: Int
    /// Rows of cells, at least 1.
    package var rows: Int
    package var cellSize: Size
    /// Gap between neighbouring cells, horizontally and vertically.
    package var spacing: Double
    /// Padding between the grid and the ends of the strip (left/right), and the minimum margin the
    /// centring aims for (top/bottom).
    package var inset: Double
    /// Points at the bottom of the viewport that the name bar covers.
    package var bottomBar: Double
    package var viewportSize: Size

    package init(itemCount: Int, rows: Int = 1, cellSize: Size, spacing: Double = 16, inset: Double = 16,
                bottomBar: Double = 0, viewportSize: Size) {
        precondition(itemCount >= 0, "StripLayout: negative itemCount \(itemCount)")
        precondition(rows >= 1, "StripLayout: rows must be at least 1, got \(rows)")
        precondition(cellSize.width > 0 && cellSize.height > 0, "StripLayout: empty cell size \(cellSize)")
        precondition(spacing >= 0 && inset >= 0 && bottomBar >= 0, "StripLayout: negative spacing, inset or bar")
        self.itemCount = itemCount
        self.rows = rows
        self.cellSize = cellSize
        self.spacing = spacing
        self.inset = inset
        self.bottomBar = bottomBar
        self.viewportSize = viewportSize
    }

    // MARK: Sizes

    /// Number of (possibly partly filled) columns.
    package var columnCount: Int { (itemCount + rows - 1) / rows }

    /// Distance from one column's leading edge to the next: cell width plus spacing. The step for the
    /// Left/Right keys.
    package var columnWidth: Double { cellSize.width + spacing }

    /// Total scrollable width: the columns, the gaps between them and the inset at both ends.
    package var contentWidth: Double {
        guard columnCount > 0 else { return 2 * inset }
        return 2 * inset + Double(columnCount) * cellSize.width + Double(columnCount - 1) * spacing
    }

    /// The largest scroll offset: content never scrolls past its trailing end.
    package var maxOffset: Double { max(0, contentWidth - viewportSize.width) }

    /// Height of the rows and the gaps between them.
    package var gridHeight: Double { Double(rows) * cellSize.height + Double(rows - 1) * spacing }

    /// Top of the first row: centred above the name bar, but never above the viewport's top when the grid
    /// is too tall (it then overflows at the bottom, where clipping is least disturbing).
    package var gridTop: Double { max(0, (viewportSize.height - bottomBar - gridHeight) / 2) }

    /// How many whole columns fit in the viewport (at least 1): a "page" for PageUp/PageDown.
    package var columnsPerPage: Int {
        max(1, Int(((viewportSize.width + spacing) / columnWidth).rounded(.down)))
    }

    /// The most columns that can be in view at once, partly shown ones included: what the strip needs
    /// cells (and cell textures) for.
    package var maximumVisibleColumns: Int {
        min(columnCount, Int(((viewportSize.width + cellSize.width) / columnWidth).rounded(.up)))
    }

    /// Scroll distance of one page: `columnsPerPage` columns, so paging keeps the column grid aligned.
    package var pageWidth: Double { Double(columnsPerPage) * columnWidth }

    // MARK: Frames

    package func column(of index: Int) -> Int { index / rows }
    package func row(of index: Int) -> Int { index % rows }

    /// The cell of item `index` in content coordinates. Valid for any index >= 0, even past `itemCount`,
    /// so callers can ask where the next item would go.
    package func frame(of index: Int) -> Rect {
        precondition(index >= 0, "StripLayout: negative index \(index)")
        return Rect(x: inset + Double(column(of: index)) * columnWidth,
                    y: gridTop + Double(row(of: index)) * (cellSize.height + spacing),
                    width: cellSize.width,
                    height: cellSize.height)
    }

    // MARK: Queries

    /// Items whose cells overlap the viewport at scroll `offset`, partly shown cells included, cells that
    /// only touch the viewport's edge excluded. Whole columns: with column-major order that is one
    /// contiguous range. Empty when no cell is visible (no items, or only a gap is in view).
    package func visibleRange(offset: Double) -> Range<Int> {
        guard columnCount > 0, viewportSize.width > 0 else { return 0..<0 }
        // Column c spans [inset + c*w, inset + c*w + cellWidth); it is visible when that overlaps
        // (offset, offset + viewportWidth).
        let first = Int(((offset - inset - cellSize.width) / columnWidth).rounded(.down)) + 1
        let last = Int(((offset + viewportSize.width - inset) / columnWidth).rounded(.up)) - 1
        let firstColumn = max(0, first)
        let lastColumn = min(columnCount - 1, last)
        guard firstColumn <= lastColumn else {
            let at = min(max(0, first), columnCount) * rows
            return min(at, itemCount)..<min(at, itemCount)
        }
        return firstColumn * rows..<min(itemCount, (lastColumn + 1) * rows)
    }

    /// Columns wholly inside the viewport at scroll `offset`; nil when none is (a viewport narrower than a
    /// cell, or no items).
    package func wholeColumns(offset: Double) -> ClosedRange<Int>? {
        guard columnCount > 0, viewportSize.width > 0 else { return nil }
        // A column starting within a rounding error of the viewport's edge counts as inside it.
        let slack = 1e-6
        let first = max(0, Int(((offset - inset - slack) / columnWidth).rounded(.up)))
        let last = min(columnCount - 1,
                       Int(((offset + viewportSize.width - inset - cellSize.width + slack) / columnWidth).rounded(.down)))
        return first <= last ? first...last : nil
    }

    /// The item under `point` (viewport coordinates) at scroll `offset`, or nil for gaps, insets, empty
    /// slots of the last column and points outside the viewport.
    package func index(at point: Point, offset: Double) -> Int? {
        guard point.x >= 0, point.x < viewportSize.width, point.y >= 0, point.y < viewportSize.height else {
            return nil
        }
        let content = Point(x: point.x + offset, y: point.y)
        let column = Int(((content.x - inset) / columnWidth).rounded(.down))
        let row = Int(((content.y - gridTop) / (cellSize.height + spacing)).rounded(.down))
        guard column >= 0, row >= 0, row < rows else { return nil }
        let index = column * rows + row
        guard index < itemCount, frame(of: index).contains(content) else { return nil }
        return index
    }

    /// The offset nearest to `offset` at which item `index` is fully in view with a `spacing` margin on
    /// each side (so the selection never sits flush against the window edge and the neighbouring gap shows);
    /// unchanged if it already is. Clamped to `0...maxOffset`. A cell wider than the viewport is aligned
    /// to its leading edge.
    package func offsetToShow(index: Int, offset: Double) -> Double {
        let frame = frame(of: index)
        let leading = frame.minX - spacing
        let trailing = frame.maxX + spacing
        var target = offset
        if trailing - leading >= viewportSize.width || leading < offset {
            target = leading
        } else if trailing > offset + viewportSize.width {
            target = trailing - viewportSize.width
        }
        return clamp(target)
    }

    /// The offset that puts item `index` in the middle of the viewport, as far as the ends allow.
    package func offsetCentering(index: Int) -> Double {
        clamp(frame(of: index).midX - viewportSize.width / 2)
    }

    /// Clamps an offset to the scrollable range.
    package func clamp(_ offset: Double) -> Double {
        min(max(offset, 0), maxOffset)
    }
}
