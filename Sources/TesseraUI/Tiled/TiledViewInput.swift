import Foundation
import TesseraCore
import TesseraSDL

/// The tiled view's keys, mouse and wheel: zooming and panning applied to the camera, and what the host
/// is asked to do (close, quit, show a neighbouring image).
struct TiledViewInput {
    /// The last pointer position, where keys zoom about.
    private(set) var cursor: Point?

    /// Applies `event` to `camera` (nil while the image's size is unknown); `viewport` is in points.
    mutating func handle(_ event: InputEvent, camera: inout ZoomPanModel?, viewport: Size, now: Duration) -> TiledViewAction? {
        switch event {
        case .keyDown(let key, _):
            let about = cursor ?? Point(x: viewport.width / 2, y: viewport.height / 2)
            // Arrow keys move a fifth of the viewport, animated (key repeat retargets the animation).
            func pan(_ dx: Double, _ dy: Double) {
                camera?.pan(dx: dx * viewport.width / 5, dy: dy * viewport.height / 5, animated: true, time: now)
            }
            switch key {
            case .escape, .enter: return .close
            case .character("q"): return .quit
            case .pageUp: return .showPrevious
            case .pageDown, .space: return .showNext
            case .character("+"), .character("="): camera?.zoom(by: 2.0.squareRoot(), about: about, time: now)
            case .character("-"): camera?.zoom(by: 1 / 2.0.squareRoot(), about: about, time: now)
            case .character("0"): camera?.fit(time: now)
            case .character("1"): camera?.zoomToNative(about: about, time: now)
            case .left, .character("h"): pan(-1, 0)
            case .right, .character("l"): pan(1, 0)
            case .up, .character("k"): pan(0, -1)
            case .down, .character("j"): pan(0, 1)
            default: break
            }
        case .mouseDown(.left, let x, let y, let clicks):
            cursor = Point(x: x, y: y)
            guard var moved = camera else { return nil }
            if clicks >= 2 {
                // Double-click zooms in 2x about the point; at the limit it goes back to fit.
                if moved.zoom >= moved.maxZoom * 0.999 { moved.fit(time: now) } else {
                    moved.zoom(by: 2, about: Point(x: x, y: y), time: now)
                }
            } else {
                moved.beginDrag(at: Point(x: x, y: y), time: now)
            }
            camera = moved
        case .mouseMotion(let x, let y, let isLeftDown):
            cursor = Point(x: x, y: y)
            if isLeftDown, camera?.isDragging == true { camera?.drag(to: Point(x: x, y: y), time: now) }
        case .mouseUp(.left, let x, let y):
            cursor = Point(x: x, y: y)
            camera?.endDrag(time: now)
        case .wheel(let dx, let dy, let x, let y):
            cursor = Point(x: x, y: y)
            if dy != 0 { camera?.zoom(by: pow(1.2, dy), about: Point(x: x, y: y), time: now) }
            if dx != 0 { camera?.pan(dx: dx * 40, dy: 0, animated: false, time: now) }
        default:
            break
        }
        return nil
    }
}
