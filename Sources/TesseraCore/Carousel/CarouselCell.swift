/// A reusable cell of the strip. It is tagged with the index it shows now; a decode that finishes is
/// applied only to the cell still tagged with that item and only in a variant the cell accepts, so a late
/// decode never lands in a cell that has since scrolled on to another item (the book's listing 14.2).
package final class CarouselCell {
    package enum Content: Equatable {
        case placeholder
        case image(PixelBuffer)
        case failed(LoadFailure)

        package static func == (a: Content, b: Content) -> Bool {
            switch (a, b) {
            case (.placeholder, .placeholder): return true
            case (.image(let x), .image(let y)): return x.size == y.size && x.bytes == y.bytes
            case (.failed(let x), .failed(let y)): return x == y
            default: return false
            }
        }
    }

    /// Stable identity for the renderer to hang a texture on.
    package let id: Int
    /// The index of the item this cell shows, nil while in the reuse pool.
    package internal(set) var index: Int?
    package internal(set) var content: Content = .placeholder
    /// Which variant `content` holds, when it holds an image.
    package internal(set) var shownVariant: ImageVariant?
    /// The pixels still have to be copied into the cell's texture.
    package internal(set) var needsUpload = false
    /// Whether the image fades in when uploaded: images that arrive while the cell is on screen do;
    /// one that was already cached appears at once (unless the strategy fades everything).
    package internal(set) var fadesIn = false
    /// When the image was first drawn (uploaded); the fade runs from here.
    package internal(set) var shownAt: Duration?
    /// The first frame the cell was on screen for its item, waiting or not.
    package internal(set) var placedAt: Duration?
    /// The file changed since `content` was decoded: the old image stays on screen (no flash of the
    /// placeholder) until the new one arrives, but any variant of the new content replaces it.
    package internal(set) var isStale = false
    /// The image was decoded for another cell size (the window changed the cells'): it stays on screen,
    /// drawn at the new size, until the image decoded for the new size replaces it.
    package internal(set) var isForOtherCellSize = false

    /// The variant shown, unless it is stale (then every variant of the new content is better).
    var freshVariant: ImageVariant? { isStale ? nil : shownVariant }

    init(id: Int) { self.id = id }

    var hasImage: Bool {
        if case .image = content { return true }
        return false
    }

    func prepareForReuse() {
        index = nil
        content = .placeholder
        shownVariant = nil
        needsUpload = false
        fadesIn = false
        shownAt = nil
        placedAt = nil
        isStale = false
        isForOtherCellSize = false
    }

    /// The file behind this cell changed: keep the image until the new one comes, retry a failure.
    func contentChanged() {
        if hasImage { isStale = true } else { content = .placeholder }
    }

    /// The cells' size changed: an image fitted to the old size stays until the one decoded for the new
    /// size replaces it; an unscaled image needs nothing new; a failure stays (the new size's load fails
    /// again or replaces it).
    func cellSizeChanged() {
        guard hasImage, shownVariant != .original else { return }
        isStale = true
        isForOtherCellSize = true
    }

    func show(_ pixels: PixelBuffer, variant: ImageVariant, fade: Bool) {
        // An upgrade (preview to full size) replaces the image in place; only a first image fades.
        let wasShowing = hasImage && shownAt != nil
        content = .image(pixels)
        shownVariant = variant
        isStale = false
        isForOtherCellSize = false
        needsUpload = true
        fadesIn = fade && !wasShowing
        if !wasShowing { shownAt = nil }
    }

    /// Opacity of the image at `now` under `fade`.
    package func imageAlpha(now: Duration, fade: FadeTiming) -> Double {
        guard hasImage, let shownAt else { return 0 }
        return fadesIn ? fade.alpha(startedAt: shownAt, now: now) : 1
    }
}
