/// How the strip looks and behaves; everything has a command-line flag.
package struct CarouselConfiguration: Sendable {
    /// Rows of cells; nil: as many as fill the viewport's height (`StripFit`). One by default here, so that
    /// tests and benchmarks lay out the same strip in any window; the command line leaves it nil unless
    /// the user gives `--rows`.
    package var rows: Int? = 1
    /// Cell size in points; nil: 4:3 cells that fill the viewport's height (`StripFit`). Fixed by default
    /// here for the same reason as `rows`.
    package var cellSize: Size? = Size(width: 400, height: 300)
    package var spacing = 16.0
    package var inset = 16.0
    /// Points at the bottom of the window that the overlay's name bar covers: the grid is laid out above it.
    package var bottomBar = CarouselConfiguration.nameBarHeight
    /// Columns to preload beyond the visible ones, ahead of and behind the scroll direction.
    package var preload = PreloadPolicy(ahead: 2, behind: 1)
    package var fade = FadeTiming()
    /// A picture that lands within this time of its cell coming on screen appears at once, as a cached one
    /// does: its placeholder was hardly seen, and a fade would only hold it back (a warm thumbnail cache
    /// fills a screen so). One that kept the user looking at a placeholder fades in.
    package var quickArrival: Duration = .milliseconds(100)

    /// The name bar's height in points, as the overlay draws it.
    package static let nameBarHeight = 36.0

    package init() {}

    /// What of the grid is fixed, the rest following the viewport.
    package var fit: StripFit { StripFit(rows: rows, cellSize: cellSize) }
}
