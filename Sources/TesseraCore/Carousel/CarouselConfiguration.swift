/// How the strip looks and behaves; everything has a command-line flag.
public struct CarouselConfiguration: Sendable {
    public var rows = 1
    public var cellWidth = 400.0
    public var cellHeight = 300.0
    public var spacing = 16.0
    public var inset = 16.0
    /// Columns to preload beyond the visible ones, ahead of and behind the scroll direction.
    public var preload = PreloadPolicy(ahead: 2, behind: 1)
    public var fade = FadeTiming()

    public init() {}
}
