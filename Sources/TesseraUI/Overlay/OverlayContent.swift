import TesseraCore
import TesseraImaging

/// What the overlay shows this frame, gathered by the viewer from its state; `OverlayPainter` draws it.
struct OverlayContent {
    var level = OverlayLevel.name
    /// The selected image's name; nil when the strip is empty.
    var name: String?
    /// "3 / 20".
    var position = ""
    /// Short words about the image and the viewer beside the position: "marked", "25 %", "slideshow".
    var tags: [String] = []
    /// The image's information, label and value, for `.information`.
    var information: [(label: String, value: String)] = []
    /// The shown image's histogram, drawn at the top right with `.information` in the single view.
    var histogram: Histogram?
    /// What runs now or waits for a key ("running key-handler: C-r"); shown whatever the level.
    var activity: String?
    /// The last action's message; shown whatever the level.
    var status: StatusLine.Message?
}
