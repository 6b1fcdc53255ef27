import TesseraCore

/// Colours and sizes in one place.
enum Theme {
    static let background = RGBA(r: 24, g: 24, b: 27)
    static let cellBackground = RGBA(r: 38, g: 38, b: 44)
    /// Transparent images are drawn over this neutral grey.
    static let imageBackdrop = RGBA(r: 52, g: 52, b: 58)
    static let selection = RGBA(r: 90, g: 160, b: 255)
    /// A marked image's badge.
    static let mark = RGBA(r: 255, g: 196, b: 40)
    /// A damaged image's badge (shown as far as its file could be read).
    static let damage = RGBA(r: 240, g: 90, b: 60)
    /// The badge of a file that holds several images.
    static let pages = RGBA(r: 225, g: 228, b: 235)
    static let text = RGBA(r: 235, g: 235, b: 240)
    static let dimText = RGBA(r: 160, g: 160, b: 170)
    static let errorText = RGBA(r: 255, g: 170, b: 140)
    static let overlayBar = RGBA(r: 0, g: 0, b: 0, a: 170)
    static let placeholderGlyph = RGBA(r: 70, g: 70, b: 78)
    /// The lines between the compare view's panes, and the frame of the focused one.
    static let compareGap = RGBA(r: 10, g: 10, b: 12)
    static let compareFocus = selection
}

/// How a rating is drawn on a cell and on a compare pane: its stars in the mark's yellow, a rejected
/// image's cross in the damage red. One place, so the two read alike.
enum RatingMark {
    /// The text and its colour for `rating` (-1 rejected, 1 to 5 stars); nil for no rating.
    static func of(_ rating: Int) -> (text: String, colour: RGBA)? {
        if rating < 0 { return ("✕", Theme.damage) }
        return rating == 0 ? nil : (String(repeating: "★", count: min(rating, 5)), Theme.mark)
    }
}
