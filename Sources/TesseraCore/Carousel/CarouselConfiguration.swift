/// How the strip looks and behaves; everything has a command-line flag.
package struct CarouselConfiguration: Sendable {
    package var rows = 1
    package var cellWidth = 400.0
    package var cellHeight = 300.0
    package var spacing = 16.0
    package var inset = 16.0
    /// Columns to preload beyond the visible ones, ahead of and behind the scroll direction.
    package var preload = PreloadPolicy(ahead: 2, behind: 1)
    package var fade = FadeTiming()

    package init() {}
}
