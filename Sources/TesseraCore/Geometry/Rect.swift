/// A rectangle in logical points (not pixels), origin at the top-left, y growing downwards like SDL's.
///
/// TesseraCore has no SDL, so layout and hit testing need their own geometry; `Double` keeps fractional
/// scroll offsets exact until the renderer rounds to device pixels.
package struct Rect: Equatable, Hashable, Sendable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    package var minX: Double { x }
    package var minY: Double { y }
    package var maxX: Double { x + width }
    package var maxY: Double { y + height }
    package var midX: Double { x + width / 2 }
    package var midY: Double { y + height / 2 }
    package var origin: Point { Point(x: x, y: y) }
    package var size: Size { Size(width: width, height: height) }
    /// No area: such a rectangle contains nothing and intersects nothing.
    package var isEmpty: Bool { width <= 0 || height <= 0 }

    package var description: String { "(\(x), \(y), \(width)x\(height))" }

    /// True when the two overlap with positive area. Rectangles that only share an edge do not intersect,
    /// so a cell that merely touches the viewport's edge is not counted as visible.
    package func intersects(_ other: Rect) -> Bool {
        !isEmpty && !other.isEmpty
            && minX < other.maxX && other.minX < maxX
            && minY < other.maxY && other.minY < maxY
    }

    /// Half-open containment (min edges in, max edges out), so a point on the line between two adjacent
    /// rectangles belongs to exactly one of them.
    package func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    /// True when `other` lies entirely inside this rectangle (edges may coincide).
    package func contains(_ other: Rect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// Shrinks by `dx` on the left and right and `dy` on the top and bottom (negative values grow it), as
    /// CGRect.insetBy does. Over-insetting gives a zero-size rectangle centred where the old one was.
    package func insetBy(dx: Double, dy: Double) -> Rect {
        let newWidth = width - 2 * dx
        let newHeight = height - 2 * dy
        return Rect(x: newWidth >= 0 ? x + dx : midX,
                    y: newHeight >= 0 ? y + dy : midY,
                    width: max(0, newWidth),
                    height: max(0, newHeight))
    }

    package func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }
}

/// A point in logical points; the companion of `Rect` for hit testing.
package struct Point: Equatable, Hashable, Sendable {
    package var x: Double
    package var y: Double

    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    package static let zero = Point(x: 0, y: 0)
}

/// A width and height in logical points; the companion of `Rect` for cell and viewport sizes.
package struct Size: Equatable, Hashable, Sendable {
    package var width: Double
    package var height: Double

    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    package static let zero = Size(width: 0, height: 0)
}
