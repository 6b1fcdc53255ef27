/// One tile of a pyramid: level (0 is 1x1), column, row.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public var level: Int, column: Int, row: Int

    public init(level: Int, column: Int, row: Int) {
        self.level = level; self.column = column; self.row = row
    }

    public var description: String { "\(level)/\(column)_\(row)" }
}
