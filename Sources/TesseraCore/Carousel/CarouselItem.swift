/// One image the carousel can show.
public struct CarouselItem: Hashable, Sendable {
    /// Where the bytes come from: a file path or an http(s) URL.
    public let path: String
    /// What the user sees in the overlay.
    public let displayName: String
    /// The content the cache keys belong to; nil when unknown (a URL not downloaded yet, a file that
    /// could not be read). Changes when the file does.
    public var version: FileVersion?
    /// Fetched over the network rather than read from a file (an http(s) URL). Stored: the strip asks
    /// for every request of every frame.
    public let isRemote: Bool

    public init(path: String, displayName: String? = nil, version: FileVersion? = nil) {
        self.path = path
        isRemote = Self.isRemote(path)
        self.displayName = displayName ?? String(path.split(separator: "/").last ?? Substring(path))
        self.version = version
    }
}
