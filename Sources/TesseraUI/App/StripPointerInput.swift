import TesseraCore
import TesseraSDL

/// The mouse and the wheel over the strip: a drag scrolls (a fling when let go moving), a click selects
/// (and retries an error cell), a double-click asks for the image alone, the wheel scrolls.
struct StripPointerInput {
    /// What the host is asked to do.
    enum Request { case open }

    /// Press bookkeeping to tell a click from a drag.
    private var press: (x: Double, y: Double, moved: Bool)?

    mutating func handle(_ event: InputEvent, model: CarouselModel, now: Duration) -> Request? {
        switch event {
        case .mouseDown(.left, let x, let y, let clicks):
            if clicks >= 2, let index = model.index(atViewportX: x, y: y) {
                model.selectWithoutScrolling(index)
                return .open
            }
            press = (x, y, false)
            model.beginDrag(x: x, time: now)
        case .mouseMotion(let x, let y, let isLeftDown):
            guard isLeftDown, var current = press else { return nil }
            if abs(x - current.x) > 4 || abs(y - current.y) > 4 { current.moved = true }
            press = current
            model.drag(x: x, time: now)
        case .mouseUp(.left, let x, let y):
            guard let current = press else { return nil }
            press = nil
            model.endDrag(time: now)
            if !current.moved, let index = model.index(atViewportX: x, y: y) {
                model.selectWithoutScrolling(index)
                // A click on an error cell tries again (a download that failed, a file since fixed).
                if let cell = model.visibleCells.first(where: { $0.index == index }), case .failed = cell.content { model.retry(index) }
            }
        case .wheel(let dx, let dy, _, _):
            // One wheel notch moves about a third of a cell; touchpads send fractions.
            model.scrollBy((dx - dy) * 120, time: now)
        default:
            break
        }
        return nil
    }
}
