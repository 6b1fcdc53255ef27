/// One tile of a pyramid: level (0 is 1x1), column, row.
package struct TileID: Hashable, Sendable, CustomStringConvertible {
    package var level: Int, column: Int, row: Int

    package init(level: Int, column: Int, row: Int) {
        self.level = level; self.column = column; self.row = row
    }

    package var description: String { "\(level)/\(column)_\(row)" }
}
