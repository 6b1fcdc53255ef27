import Foundation
import TesseraCore
import TesseraSDL
import TesseraTiling

/// The tiled view's keys (as actions: the host reads the key bindings), mouse and wheel: zooming and
/// panning applied to the camera, and what the host is asked to do (close, quit, show a neighbouring image).
struct TiledViewInput {
    /// The last pointer position, where keys zoom about.
    private(set) var cursor: Point?

    /// Applies a key's `action` to `camera` (nil while the image's size is unknown); `viewport` is in points.
    /// Returns what the host is asked to do; nil also for actions that are not the view's.
    func perform(_ action: ViewerAction, camera: inout ZoomPanModel?, viewport: Size, now: Duration) -> TiledViewAction? {
        let about = cursor ?? Point(x: viewport.width / 2, y: viewport.height / 2)
        // Keys pan a fifth of the viewport, animated (key repeat retargets the animation).
        func pan(_ dx: Double, _ dy: Double) {
            camera?.pan(dx: dx * viewport.width / 5, dy: dy * viewport.height / 5, animated: true, time: now)
        }
        // Sideways keys pan an image wider than the window; one that shows its whole width has nothing
        // there to pan, and they step to the neighbouring image instead.
        let isWiderThanWindow = (camera?.imageFrame.width ?? 0) > viewport.width + 0.5
        switch action {
        case .close: return .close
        case .quit: return .quit
        case .previous: return .showPrevious
        case .next: return .showNext
        case .zoomIn: camera?.zoom(by: 2.0.squareRoot(), about: about, time: now)
        case .zoomOut: camera?.zoom(by: 1 / 2.0.squareRoot(), about: about, time: now)
        case .fit: camera?.fit(time: now)
        case .actualSize: camera?.zoomToNative(about: about, time: now)
        case .left:
            guard isWiderThanWindow else { return .showPrevious }
            pan(-1, 0)
        case .right:
            guard isWiderThanWindow else { return .showNext }
            pan(1, 0)
        case .up: pan(0, -1)
        case .down: pan(0, 1)
        default: break
        }
        return nil
    }

    /// Applies the mouse and the wheel to `camera` (nil while the image's size is unknown); `viewport` is in
    /// points.
    mutating func handle(_ event: InputEvent, camera: inout ZoomPanModel?, viewport: Size, now: Duration) -> TiledViewAction? {
        switch event {
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
