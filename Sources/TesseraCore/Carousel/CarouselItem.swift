/// One image the carousel can show.
public struct CarouselItem: Hashable, Sendable {
    /// Where the bytes come from (a file path).
    public let path: String
    /// What the user sees in the overlay.
    public let displayName: String

    public init(path: String, displayName: String? = nil) {
        self.path = path
        self.displayName = displayName ?? String(path.split(separator: "/").last ?? Substring(path))
    }
}

/// What the image cache and the scheduler are keyed by: one item decoded for one pixel size. The same file
/// at cell size and at full-window size are two entries.
public struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    public let path: String
    public let size: PixelSize

    public init(path: String, size: PixelSize) {
        self.path = path
        self.size = size
    }

    public var description: String { "\(path)@\(size)" }
}
