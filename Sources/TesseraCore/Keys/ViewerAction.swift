/// What a key can ask the viewer to do. The raw values are the names a configuration file binds keys to
/// (`"ctrl+d" = "trash"`).
package enum ViewerAction: String, CaseIterable, Sendable {
    case next, previous, first, last
    /// In the strip, a column back or forward (one image in a single row), a row up or down in a grid; in
    /// the single view, panning (and, sideways, the neighbouring image when the whole width is shown).
    case left, right, up, down
    case pageBack = "page-back", pageForward = "page-forward"
    case open, close, quit, fullscreen, info
    case mark, invertMarks = "invert-marks", clearMarks = "clear-marks"
    case nextMark = "next-mark", previousMark = "previous-mark"
    /// The prefix: the key after it goes to the key-handler.
    case keyHandler = "key-handler"
    case trash, undo
    case rotateLeft = "rotate-left", rotateRight = "rotate-right"
    case flipHorizontal = "flip-horizontal", flipVertical = "flip-vertical"
    case sort, slideshow
    /// The single view's space bar: `pause` on an animation, `next` on anything else.
    case pauseOrNext = "pause-or-next"
    /// Pauses or resumes an animation.
    case pause
    case copyPath = "copy-path", copyImage = "copy-image"
    /// The picture itself on the clipboard (PNG), with its file.
    case copyPicture = "copy-picture"
    case zoomIn = "zoom-in", zoomOut = "zoom-out", fit, actualSize = "actual-size"
    /// The single view's next or previous image of a file of several (a multi-page TIFF's pages).
    case nextPage = "next-page", previousPage = "previous-page"
    /// The marked images (or the selected one and the next) side by side; again, back.
    case compare
    /// The compare view: the next pane takes the keys; zoom and pan locked together or each its own.
    case nextPane = "next-pane", lockPanes = "lock-panes"
    /// Marks where the shown image's highlights are clipped and its shadows crushed.
    case clipping
    /// Ratings in XMP sidecars, on the marked images (else the selected one).
    case rate1 = "rate-one", rate2 = "rate-two", rate3 = "rate-three", rate4 = "rate-four", rate5 = "rate-five"
    case clearRating = "clear-rating", reject
    /// Steps the rating filter: all, rejected hidden, 1+ ... 5+ stars.
    case ratingFilter = "rating-filter"
    /// The single view's row of neighbouring thumbnails along the bottom.
    case filmStrip = "film-strip"
    /// The single view's tiles that failed (a remote pyramid's, a broken file's) are asked for again.
    case retryTiles = "retry-tiles"

    /// One line saying what the action does in `view` (the same in both views for most).
    package func summary(in view: KeyBindings.View) -> String {
        switch (self, view) {
        case (.next, _): "next image"
        case (.previous, _): "previous image"
        case (.first, _): "first image"
        case (.last, _): "last image"
        case (.left, .strip): "previous column (one image back in a single row)"
        case (.right, .strip): "next column"
        case (.up, .strip): "up inside a grid column"
        case (.down, .strip): "down inside a grid column"
        case (.left, .single): "pan left; the previous image when the whole width shows"
        case (.right, .single): "pan right; the next image when the whole width shows"
        case (.up, .single): "pan up"
        case (.down, .single): "pan down"
        case (.pageBack, _): "a screen back"
        case (.pageForward, _): "a screen forward"
        case (.open, _): "the selected image alone (on an error cell: try again)"
        case (.close, _): "back to the strip, at this image"
        case (.quit, _): "quit (with -o, the marked paths go to standard output)"
        case (.fullscreen, _): "fullscreen on/off"
        case (.info, _): "overlay: off, name and position, full information"
        case (.mark, _): "mark or unmark the selected image"
        case (.invertMarks, _): "invert all marks"
        case (.clearMarks, _): "unmark all"
        case (.nextMark, _): "next marked image"
        case (.previousMark, _): "previous marked image"
        case (.keyHandler, _): "then a key: the key-handler, on the marked or selected images"
        case (.trash, _): "move the marked or selected images to the trash"
        case (.undo, _): "undo the last trash, turn or rating"
        case (.rotateLeft, _): "rotate the marked or selected images 90° counter-clockwise"
        case (.rotateRight, _): "rotate them 90° clockwise"
        case (.flipHorizontal, _): "flip them left to right"
        case (.flipVertical, _): "flip them top to bottom"
        case (.sort, _): "next sort order (name, modified, taken, size, random, rating)"
        case (.slideshow, _): "slideshow on/off"
        case (.pause, _): "pause or resume an animation"
        case (.pauseOrNext, _): "pause or resume an animation; the next image otherwise"
        case (.copyPath, _): "copy the selected image's path"
        case (.copyImage, _): "copy the selected image as a file:// URI (files paste as files)"
        case (.copyPicture, _): "copy the picture itself (PNG, with its file), to paste into an editor or a chat"
        case (.zoomIn, _): "zoom in"
        case (.zoomOut, _): "zoom out"
        case (.fit, _): "fit the window"
        case (.actualSize, _): "100 %"
        case (.nextPage, _): "next page of a file of several (a TIFF's pages, a HEIF's images)"
        case (.previousPage, _): "previous page"
        case (.compare, _): "compare the marked images (2 to 4; else this one and the next) side by side; again to leave"
        case (.nextPane, _): "compare: the next pane takes the keys (a click does too)"
        case (.lockPanes, _): "compare: zoom and pan the panes together or each alone"
        case (.clipping, _): "mark clipped highlights (red) and crushed shadows (blue)"
        case (.rate1, _): "rate the marked or selected images 1 star (in NAME.EXT.xmp sidecars)"
        case (.rate2, _): "rate them 2 stars"
        case (.rate3, _): "rate them 3 stars"
        case (.rate4, _): "rate them 4 stars"
        case (.rate5, _): "rate them 5 stars"
        case (.clearRating, _): "clear their rating"
        case (.reject, _): "mark them rejected"
        case (.ratingFilter, _): "show: all, rejected hidden, 1+ ... 5+ stars"
        case (.filmStrip, _): "a film strip of the neighbouring images along the bottom, on/off"
        case (.retryTiles, _): "try the tiles that failed again"
        }
    }
}
