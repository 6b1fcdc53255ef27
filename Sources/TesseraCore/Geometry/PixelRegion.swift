/// An integer rectangle in a pixel grid: an image's, or the window's when drawing.
package struct PixelRegion: Hashable, Sendable, CustomStringConvertible {
    package var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    package var maxX: Int { x + width }
    package var maxY: Int { y + height }
    package var isEmpty: Bool { width <= 0 || height <= 0 }
    package var description: String { "(\(x),\(y) \(width)x\(height))" }

    /// Whether every pixel of `other` is in this region (an empty one is in any).
    package func contains(_ other: PixelRegion) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    /// The overlap of two regions (empty, width or height 0, when they do not meet).
    package func intersection(_ other: PixelRegion) -> PixelRegion {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        return PixelRegion(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The parts of this region that none of `covers` overlaps, as disjoint rectangles, so a renderer can
    /// paint a background only where nothing opaque will be drawn over it. Cut into horizontal bands at
    /// the covers' top and bottom edges; a band's gaps merge with the same gaps in the band above, so a
    /// row of cells leaves one rectangle above it, one below, and one per gap.
    package func subtracting(_ covers: [PixelRegion]) -> [PixelRegion] {
        guard !isEmpty else { return [] }
        let clipped = covers.map(intersection).filter { !$0.isEmpty }
        guard !clipped.isEmpty else { return [self] }
        let edges = Set([y, maxY] + clipped.flatMap { [$0.y, $0.maxY] }).sorted()
        var done: [PixelRegion] = []
        var open: [PixelRegion] = []  // the previous band's gaps, still growing downwards
        for (top, bottom) in zip(edges, edges.dropFirst()) {
            let spans = clipped.filter { $0.y <= top && $0.maxY >= bottom }.sorted { $0.x < $1.x }
            var gaps: [(x: Int, maxX: Int)] = []
            var cursor = x
            for span in spans {
                if span.x > cursor { gaps.append((cursor, span.x)) }
                cursor = Swift.max(cursor, span.maxX)
            }
            if cursor < maxX { gaps.append((cursor, maxX)) }
            var next: [PixelRegion] = []
            for gap in gaps {
                if let i = open.firstIndex(where: { $0.x == gap.x && $0.maxX == gap.maxX }) {
                    var grown = open.remove(at: i)
                    grown.height = bottom - grown.y
                    next.append(grown)
                } else {
                    next.append(PixelRegion(x: gap.x, y: top, width: gap.maxX - gap.x, height: bottom - top))
                }
            }
            done += open
            open = next
        }
        return done + open
    }
}
