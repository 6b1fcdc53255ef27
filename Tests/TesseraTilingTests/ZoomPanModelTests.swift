import XCTest
@testable import TesseraCore
@testable import TesseraTiling

final class ZoomPanModelTests: XCTestCase {
    private let image = PixelSize(width: 4000, height: 2000)
    private let viewport = Size(width: 800, height: 600)

    func testStartsFittedAndCentred() {
        let model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        XCTAssertEqual(model.zoom, 0.2, accuracy: 1e-12)
        XCTAssertEqual(model.imageFrame, Rect(x: 0, y: 100, width: 800, height: 400))
        XCTAssertEqual(model.visibleImageRegion, PixelRegion(x: 0, y: 0, width: 4000, height: 2000))
    }

    /// Opening at 100 % about a point shows it at the centre, unless an edge of the image is nearer.
    func testShowingAPointCentresItAsFarAsTheEdgesAllow() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        model.show(imagePoint: Point(x: 1000, y: 500), atZoom: model.nativeZoom, time: .zero)
        XCTAssertEqual(model.zoom, 1, accuracy: 1e-12)
        XCTAssertEqual(model.visibleImageRegion, PixelRegion(x: 600, y: 200, width: 800, height: 600))
        model.show(imagePoint: Point(x: 10, y: 10), atZoom: 1, time: .zero)
        XCTAssertEqual(model.visibleImageRegion, PixelRegion(x: 0, y: 0, width: 800, height: 600), "held at the corner")
    }

    func testZoomKeepsThePointUnderTheCursor() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        let cursor = Point(x: 600, y: 250)
        let before = model.imagePoint(atViewport: cursor)
        model.zoom(by: 3, about: cursor, time: .zero)
        let after = model.imagePoint(atViewport: cursor)
        XCTAssertEqual(before.x, after.x, accuracy: 1e-9)
        XCTAssertEqual(before.y, after.y, accuracy: 1e-9)
        XCTAssertEqual(model.zoom, 0.6, accuracy: 1e-12)
        XCTAssertFalse(model.isFitted)
    }

    /// A vector picture of 100 x 50 whose pyramid is drawn 4 times as large: 100 % and the zoom limit are
    /// the picture's own, and at the limit the pyramid's largest level shows one to one.
    func testAMagnifiedPyramidZoomsByThePicturesOwnPixels() {
        var model = ZoomPanModel(imageSize: PixelSize(width: 400, height: 200), viewportSize: viewport, magnification: 4)
        XCTAssertEqual(model.fitZoom, 1, accuracy: 1e-12, "fit stops at 4x the picture")
        XCTAssertEqual(model.pictureScale, 4, accuracy: 1e-12)
        XCTAssertEqual(model.deviceScale, 1, accuracy: 1e-12)
        model.zoomToNative(about: Point(x: 400, y: 300), time: .zero)
        XCTAssertEqual(model.pictureScale, 1, accuracy: 1e-12, "100 %: one picture pixel per device pixel")
        XCTAssertEqual(model.imageFrame.width, 100, accuracy: 1e-9)
        XCTAssertEqual(model.minZoom, 0.25, accuracy: 1e-12, "it can be seen at 100 %")
        model.zoom(to: 100, about: Point(x: 400, y: 300), time: .zero)
        XCTAssertEqual(model.pictureScale, 4, accuracy: 1e-12)
        XCTAssertEqual(model.level(in: DeepZoomGeometry(width: 400, height: 200)), DeepZoomGeometry(width: 400, height: 200).maxLevel)
    }

    func testZoomRangeIsFitToFourTimesNative() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport, pixelScale: 2)
        model.zoom(to: 100, about: Point(x: 400, y: 300), time: .zero)
        XCTAssertEqual(model.deviceScale, 4, accuracy: 1e-12)
        model.zoom(to: 0.0001, about: Point(x: 400, y: 300), time: .zero)
        XCTAssertEqual(model.zoom, model.fitZoom, accuracy: 1e-12)
        model.zoomToNative(about: Point(x: 400, y: 300), time: .zero)
        XCTAssertEqual(model.deviceScale, 1, accuracy: 1e-12, "100 %: one image pixel per device pixel")
        model.fit(time: .zero)
        XCTAssertTrue(model.isFitted)
        // A small image can be seen at 100 % (smaller than fit).
        let small = ZoomPanModel(imageSize: PixelSize(width: 100, height: 100), viewportSize: viewport)
        XCTAssertEqual(small.fitZoom, 4, accuracy: 1e-12, "fit never magnifies past 4x")
        XCTAssertEqual(small.minZoom, 1, accuracy: 1e-12)
    }

    func testDragMovesContentAndFlingDecelerates() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        model.zoom(to: 1, about: Point(x: 0, y: 0), time: .zero)
        let start = model.imageFrame.x
        var t = Duration.seconds(1)
        model.beginDrag(at: Point(x: 700, y: 300), time: t)
        for step in 1...6 {
            t += .milliseconds(16)
            model.drag(to: Point(x: 700 - Double(step) * 40, y: 300), time: t)
        }
        XCTAssertEqual(model.imageFrame.x, start - 240, accuracy: 1e-9, "content follows the finger")
        model.endDrag(time: t)
        XCTAssertTrue(model.needsStep, "released at speed: it flings")
        let released = model.imageFrame.x
        t += .milliseconds(100)
        model.step(to: t)
        XCTAssertLessThan(model.imageFrame.x, released, "inertia carries on")
        t += .seconds(10)
        model.step(to: t)
        XCTAssertFalse(model.isMoving)
    }

    func testResizeKeepsAFittedImageFitted() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        model.resize(viewportSize: Size(width: 1600, height: 1200), pixelScale: 1, time: .zero)
        XCTAssertEqual(model.zoom, 0.4, accuracy: 1e-12)
    }

    func testArrowPanIsAnimatedAndClamped() {
        var model = ZoomPanModel(imageSize: image, viewportSize: viewport)
        model.zoom(to: 1, about: Point(x: 0, y: 0), time: .zero)
        model.pan(dx: -500, dy: 0, animated: true, time: .zero)
        model.step(to: .seconds(1))
        XCTAssertTrue(model.isAtLeftEdge)
        model.pan(dx: 100_000, dy: 0, animated: false, time: .seconds(1))
        XCTAssertTrue(model.isAtRightEdge)
        XCTAssertEqual(model.visibleImageRegion.maxX, 4000)
    }
}
