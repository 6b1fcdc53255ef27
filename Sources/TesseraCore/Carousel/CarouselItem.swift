/// One image the carousel can show.
package struct CarouselItem: Hashable, Sendable {
    /// Where the bytes come from: a file path or an http(s) URL.
    package let path: String
    /// What the user sees in the overlay.
    package let displayName: String
    /// The content the cache keys belong to; nil when unknown (a URL not downloaded yet, a file that
    /// could not be read). Changes when the file does.
    package var version: FileVersion?
    /// Fetched over the network rather than read from a file (an http(s) URL). Stored: the strip asks
    /// for every request of every frame.
    package let isRemote: Bool
    /// The turn the user gave the picture for this session, as an EXIF orientation (1 to 8, 1 for none),
    /// applied after the file's own: for images whose format stores no orientation Tessera writes.
    package var sessionOrientation = 1

    package init(path: String, displayName: String? = nil, version: FileVersion? = nil) {
        self.path = path
        isRemote = Self.isRemote(path)
        self.displayName = displayName ?? PathText.displayName(String(path.split(separator: "/").last ?? Substring(path)))
        self.version = version
    }

    /// Items are equal by their path's bytes (`PathText.same`), not by string equality, which would make
    /// one item of two names that differ only in Unicode normalisation.
    package static func == (a: CarouselItem, b: CarouselItem) -> Bool {
        PathText.same(a.path, b.path) && a.displayName == b.displayName && a.version == b.version
            && a.sessionOrientation == b.sessionOrientation
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(PathText.Key(path))
        hasher.combine(version)
        hasher.combine(sessionOrientation)
    }
}
