import TesseraCore
import TesseraImaging
/// The tiled view's camera, as a value with no UI: which part of the image shows, at what zoom, and how it
/// moves. `UIScrollView` with zooming, in two dimensions: each axis is a `ScrollModel` (drag with rubber
/// band, fling with UIKit's 0.998/ms decay, animated key scrolls), and the zoom scales both contents.
///
/// Units: the viewport is in points (window coordinates, what input events carry); `zoom` is points per
/// full-resolution image pixel; `pixelScale` is device pixels per point, so `deviceScale` (device pixels
/// per image pixel) is what picks the pyramid level. An image narrower than the viewport is centred.
///
/// Zoom runs from fitting the whole image (or 100 % if that is smaller) to `maxDeviceScale` device pixels
/// per picture pixel: 4, CATiledLayer's levelsOfDetailBias of 2 (2x and 4x past native pixels).
///
/// A vector image's pyramid is drawn `magnification` times its own size, so that its magnified levels are
/// drawn rather than enlarged: `imageSize` is the pyramid's, and 100 % and the zoom limit are the picture's
/// own (one pixel of the picture at its own size is `magnification` pyramid pixels).
package struct ZoomPanModel: Sendable {
    package let imageSize: PixelSize
    package private(set) var viewportSize: Size
    package private(set) var pixelScale: Double
    package private(set) var zoom: Double
    /// Device pixels per pixel of the picture at its own size at most.
    package let maxDeviceScale: Double
    /// Pixels of `imageSize` per pixel of the picture at its own size: 1 but for a vector image.
    package let magnification: Double
    /// The zoom follows the window when it is resized (true after `fit`, false after any zoom).
    package private(set) var isFitted = true

    private var horizontal: ScrollModel
    private var vertical: ScrollModel

    package init(imageSize: PixelSize, viewportSize: Size, pixelScale: Double = 1, maxDeviceScale: Double = 4,
                magnification: Double = 1) {
        precondition(imageSize.width > 0 && imageSize.height > 0, "ZoomPanModel: empty image")
        self.imageSize = imageSize
        self.viewportSize = viewportSize
        self.pixelScale = max(pixelScale, 0.01)
        self.maxDeviceScale = maxDeviceScale
        self.magnification = max(magnification, 1)
        zoom = 1
        horizontal = ScrollModel(contentLength: 0, viewportLength: viewportSize.width)
        vertical = ScrollModel(contentLength: 0, viewportLength: viewportSize.height)
        zoom = fitZoom
        applyZoom(zoom, keeping: Point(x: 0, y: 0), imagePoint: Point(x: 0, y: 0), time: .zero)
    }

    // MARK: Derived

    /// Device pixels per pixel of `imageSize`: what picks the pyramid level.
    package var deviceScale: Double { zoom * pixelScale }
    /// Device pixels per pixel of the picture at its own size: the zoom as the user reads it (1 is 100 %).
    package var pictureScale: Double { deviceScale * magnification }
    /// 100 %: one pixel of the picture at its own size per device pixel.
    package var nativeZoom: Double { 1 / (pixelScale * magnification) }
    package var maxZoom: Double { maxDeviceScale / (pixelScale * magnification) }
    package var minZoom: Double { min(fitZoom, nativeZoom) }
    /// The zoom that shows the whole image, at most `maxZoom`.
    package var fitZoom: Double { min(fitZoomUnclamped, maxZoom) }

    private var fitZoomUnclamped: Double {
        guard viewportSize.width > 0, viewportSize.height > 0 else { return nativeZoom }
        return min(viewportSize.width / Double(imageSize.width), viewportSize.height / Double(imageSize.height))
    }

    /// The image's rectangle in viewport points (may extend past the viewport).
    package var imageFrame: Rect {
        let width = Double(imageSize.width) * zoom, height = Double(imageSize.height) * zoom
        return Rect(x: inset(content: width, viewport: viewportSize.width) - horizontal.offset,
                    y: inset(content: height, viewport: viewportSize.height) - vertical.offset,
                    width: width, height: height)
    }

    /// The image point (full-resolution pixels, fractional) under a viewport point.
    package func imagePoint(atViewport point: Point) -> Point {
        let frame = imageFrame
        return Point(x: (point.x - frame.x) / zoom, y: (point.y - frame.y) / zoom)
    }

    /// The visible part of the image in full-resolution pixels, rounded outwards, clipped to the image.
    package var visibleImageRegion: PixelRegion {
        let topLeft = imagePoint(atViewport: Point(x: 0, y: 0))
        let bottomRight = imagePoint(atViewport: Point(x: viewportSize.width, y: viewportSize.height))
        let x0 = max(0, Int(topLeft.x.rounded(.down))), y0 = max(0, Int(topLeft.y.rounded(.down)))
        let x1 = min(imageSize.width, Int(bottomRight.x.rounded(.up)))
        let y1 = min(imageSize.height, Int(bottomRight.y.rounded(.up)))
        return PixelRegion(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }

    /// The pyramid level that matches the zoom on this display.
    package func level(in geometry: DeepZoomGeometry) -> Int {
        geometry.level(forScale: deviceScale)
    }

    /// How fast the view moves over the image, in image pixels per second (positive: towards the right
    /// and bottom of the image). What a preloader looks ahead along.
    package var imageVelocity: Point {
        Point(x: horizontal.velocity / zoom, y: vertical.velocity / zoom)
    }

    package var isMoving: Bool { horizontal.isMoving || vertical.isMoving }
    package var isDragging: Bool { horizontal.isTracking || vertical.isTracking }
    /// Call `step(to:)` every frame while this is true.
    package var needsStep: Bool { horizontal.needsStep || vertical.needsStep }
    /// The left edge of the image is at (or past) the viewport's left edge, for scripts.
    package var isAtLeftEdge: Bool { horizontal.offset <= 0.5 }
    package var isAtRightEdge: Bool { horizontal.offset >= horizontal.maxOffset - 0.5 }

    // MARK: Viewport

    /// The window changed size or moved to a display with another scale. A fitted image stays fitted;
    /// otherwise the image point at the centre stays at the centre.
    package mutating func resize(viewportSize: Size, pixelScale: Double, time: Duration) {
        let centre = Point(x: self.viewportSize.width / 2, y: self.viewportSize.height / 2)
        let anchor = imagePoint(atViewport: centre)
        self.viewportSize = viewportSize
        self.pixelScale = max(pixelScale, 0.01)
        let newCentre = Point(x: viewportSize.width / 2, y: viewportSize.height / 2)
        let target = isFitted ? fitZoom : min(max(zoom, minZoom), maxZoom)
        applyZoom(target, keeping: newCentre, imagePoint: anchor, time: time)
    }

    // MARK: Zooming

    /// Zooms to `newZoom` (clamped) keeping the image point under `point` where it is.
    package mutating func zoom(to newZoom: Double, about point: Point, time: Duration) {
        guard !isDragging else { return }  // the finger owns the content
        let anchor = imagePoint(atViewport: point)
        applyZoom(min(max(newZoom, minZoom), maxZoom), keeping: point, imagePoint: anchor, time: time)
        isFitted = false
    }

    package mutating func zoom(by factor: Double, about point: Point, time: Duration) {
        zoom(to: zoom * factor, about: point, time: time)
    }

    /// Shows the whole image, centred.
    package mutating func fit(time: Duration) {
        applyZoom(fitZoom, keeping: Point(x: 0, y: 0), imagePoint: Point(x: 0, y: 0), time: time)
        isFitted = true
    }

    /// 100 %: one image pixel per device pixel, about `point`.
    package mutating func zoomToNative(about point: Point, time: Duration) {
        zoom(to: nativeZoom, about: point, time: time)
    }

    /// Shows `imagePoint` (full-resolution pixels) at the viewport's centre at `newZoom` (clamped), as far
    /// as the image's edges allow.
    package mutating func show(imagePoint: Point, atZoom newZoom: Double, time: Duration) {
        applyZoom(min(max(newZoom, minZoom), maxZoom), keeping: Point(x: viewportSize.width / 2, y: viewportSize.height / 2),
                  imagePoint: imagePoint, time: time)
        isFitted = false
    }

    // MARK: Panning

    package mutating func beginDrag(at point: Point, time: Duration) {
        horizontal.beginDrag(at: point.x, time: time)
        vertical.beginDrag(at: point.y, time: time)
    }

    package mutating func drag(to point: Point, time: Duration) {
        horizontal.drag(to: point.x, time: time)
        vertical.drag(to: point.y, time: time)
    }

    /// Lets go: flings on with UIScrollView's deceleration, or springs back from past an edge.
    package mutating func endDrag(time: Duration) {
        horizontal.endDrag(time: time)
        vertical.endDrag(time: time)
        discardEvents()
    }

    /// Moves the view over the image by (dx, dy) points (keys: animated; wheel: at once).
    package mutating func pan(dx: Double, dy: Double, animated: Bool, time: Duration) {
        if animated {
            if dx != 0 { horizontal.scroll(to: horizontal.projectedRestingOffset + dx, animated: true, time: time) }
            if dy != 0 { vertical.scroll(to: vertical.projectedRestingOffset + dy, animated: true, time: time) }
        } else {
            horizontal.scroll(by: dx, time: time)
            vertical.scroll(by: dy, time: time)
        }
        discardEvents()
    }

    /// Advances fling, bounce and animated pans to `time`.
    package mutating func step(to time: Duration) {
        horizontal.step(to: time)
        vertical.step(to: time)
        discardEvents()
    }

    // MARK: Private

    private func inset(content: Double, viewport: Double) -> Double {
        max(0, (viewport - content) / 2)
    }

    /// Sets the zoom and the offsets so that `imagePoint` shows at viewport `point`.
    private mutating func applyZoom(_ newZoom: Double, keeping point: Point, imagePoint: Point, time: Duration) {
        zoom = newZoom
        let width = Double(imageSize.width) * zoom, height = Double(imageSize.height) * zoom
        horizontal.resize(contentLength: width, viewportLength: viewportSize.width)
        vertical.resize(contentLength: height, viewportLength: viewportSize.height)
        // imageFrame.x = inset - offset, and the point must land at inset - offset + imagePoint * zoom.
        let x = imagePoint.x * zoom + inset(content: width, viewport: viewportSize.width) - point.x
        let y = imagePoint.y * zoom + inset(content: height, viewport: viewportSize.height) - point.y
        horizontal.scroll(to: x, animated: false, time: time)
        vertical.scroll(to: y, animated: false, time: time)
        discardEvents()
    }

    private mutating func discardEvents() {
        _ = horizontal.takeEvents()
        _ = vertical.takeEvents()
    }
}
