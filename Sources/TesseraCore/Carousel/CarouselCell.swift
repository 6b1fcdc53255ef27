/// A reusable cell of the strip. It is tagged with the index it shows now; a decode that finishes is
/// applied only if the tag (and the exact key) still match, so a late decode never lands in a cell that
/// has since scrolled on to another item (the book's listing 14.2).
public final class CarouselCell {
    public enum Content: Equatable {
        case placeholder
        case image(PixelBuffer)
        case failed(LoadFailure)

        public static func == (a: Content, b: Content) -> Bool {
            switch (a, b) {
            case (.placeholder, .placeholder): return true
            case (.image(let x), .image(let y)): return x.size == y.size && x.bytes == y.bytes
            case (.failed(let x), .failed(let y)): return x == y
            default: return false
            }
        }
    }

    /// Stable identity for the renderer to hang a texture on.
    public let id: Int
    /// The index of the item this cell shows, nil while in the reuse pool.
    public internal(set) var index: Int?
    /// The exact image this cell waits for or shows.
    public internal(set) var key: ImageKey?
    public internal(set) var content: Content = .placeholder
    /// The pixels still have to be copied into the cell's texture.
    public internal(set) var needsUpload = false
    /// Whether the image fades in when uploaded: only images that arrive while the cell is on screen do;
    /// one that was already cached appears at once.
    public internal(set) var fadesIn = false
    /// When the image was first drawn (uploaded); the fade runs from here.
    public internal(set) var shownAt: Duration?

    init(id: Int) { self.id = id }

    func prepareForReuse() {
        index = nil
        key = nil
        content = .placeholder
        needsUpload = false
        fadesIn = false
        shownAt = nil
    }

    /// Opacity of the image at `now` under `fade`.
    public func imageAlpha(now: Duration, fade: FadeTiming) -> Double {
        guard case .image = content, let shownAt else { return 0 }
        return fadesIn ? fade.alpha(startedAt: shownAt, now: now) : 1
    }
}
