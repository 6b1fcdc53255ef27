import Foundation
import XCTest
@testable import TesseraCore

final class ScrollModelTests: XCTestCase {
    /// Frame k of a 60 Hz display.
    private func frame(_ k: Int) -> Duration { .seconds(1) * k / 60 }

    /// Flicks so the offset moves at `velocity` pt/s: the finger moves the opposite way, one sample a frame
    /// for 100 ms, released on the last sample. Returns the release time.
    @discardableResult
    private func fling(_ model: inout ScrollModel, velocity: Double, startFrame: Int = 0) -> Duration {
        var position = 500.0
        model.beginDrag(at: position, time: frame(startFrame))
        for k in 1...6 {
            position -= velocity / 60
            model.drag(to: position, time: frame(startFrame + k))
        }
        let release = frame(startFrame + 6)
        model.endDrag(time: release)
        return release
    }

    /// Steps frame by frame until the model stops (or `limit` frames), collecting events and checking the
    /// offset never rests out of bounds.
    private func run(_ model: inout ScrollModel, from startFrame: Int, limit: Int = 3000,
                     file: StaticString = #filePath, line: UInt = #line) -> (events: [ScrollEvent], frames: Int) {
        var events = model.takeEvents()
        var k = startFrame
        while model.needsStep, k < startFrame + limit {
            k += 1
            model.step(to: frame(k))
            events += model.takeEvents()
        }
        XCTAssertFalse(model.needsStep, "still moving after \(limit) frames", file: file, line: line)
        XCTAssertGreaterThanOrEqual(model.offset, 0, file: file, line: line)
        XCTAssertLessThanOrEqual(model.offset, model.maxOffset, file: file, line: line)
        return (events, k - startFrame)
    }

    // MARK: Dragging

    func testDragTracksFingerOneToOne() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 100)
        model.beginDrag(at: 300, time: .zero)
        XCTAssertEqual(model.phase, .dragging)
        XCTAssertTrue(model.isTracking)
        XCTAssertTrue(model.isMoving)
        model.drag(to: 250, time: frame(1))
        XCTAssertEqual(model.offset, 150, accuracy: 1e-9)
        model.drag(to: 350, time: frame(2))
        XCTAssertEqual(model.offset, 50, accuracy: 1e-9)
        model.drag(to: 300, time: frame(3))
        XCTAssertEqual(model.offset, 100, accuracy: 1e-9)
        XCTAssertTrue(model.takeEvents().isEmpty)
    }

    func testReleaseVelocityMatchesFingerSpeed() {
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 40_000)
        fling(&model, velocity: 1800)
        XCTAssertEqual(model.velocity, 1800, accuracy: 1e-6)
        XCTAssertEqual(model.phase, .decelerating)
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: true)])
    }

    func testRubberBandResistsBeyondEdges() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.beginDrag(at: 0, time: .zero)
        model.drag(to: 100, time: frame(1))   // pulls 100 pt past the start
        let first = -model.offset
        XCTAssertGreaterThan(first, 0)
        XCTAssertLessThan(first, 100)
        XCTAssertEqual(first, ScrollModel.rubberBand(overshoot: 100, dimension: 500), accuracy: 1e-9)
        model.drag(to: 200, time: frame(2))
        let second = -model.offset
        XCTAssertLessThan(second - first, first, "resistance grows with distance")
        model.drag(to: 100_000, time: frame(3))
        XCTAssertLessThan(-model.offset, 500, "never more than a viewport out")

        // Past the far end too.
        var far = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 1500)
        far.beginDrag(at: 0, time: .zero)
        far.drag(to: -60, time: frame(1))
        XCTAssertGreaterThan(far.offset, 1500)
        XCTAssertLessThan(far.offset - 1500, 60)
        // Slope at the edge is UIKit's 0.55.
        XCTAssertEqual(ScrollModel.rubberBand(overshoot: 0.001, dimension: 500) / 0.001, 0.55, accuracy: 1e-4)
    }

    func testReleasedPastEdgeBouncesBackAndRestsInBounds() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.beginDrag(at: 0, time: .zero)
        model.drag(to: 150, time: frame(1))
        model.endDrag(time: frame(1))
        XCTAssertEqual(model.phase, .bouncing)
        XCTAssertTrue(model.isDecelerating)
        XCTAssertEqual(model.projectedRestingOffset, 0)
        let (events, frames) = run(&model, from: 1)
        XCTAssertEqual(events, [.didEndDragging(willDecelerate: true), .didEndDecelerating])
        XCTAssertEqual(model.offset, 0)
        XCTAssertEqual(model.phase, .idle)
        XCTAssertLessThanOrEqual(frames, 25)
    }

    func testGrabbingMidBounceContinuesWithoutJump() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.beginDrag(at: 0, time: .zero)
        model.drag(to: 200, time: frame(1))
        model.endDrag(time: frame(1))
        model.step(to: frame(4))
        let shown = model.offset
        XCTAssertLessThan(shown, 0)
        model.beginDrag(at: 40, time: frame(5))
        model.drag(to: 40, time: frame(6))
        XCTAssertEqual(model.offset, shown, accuracy: 1e-6)
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: true)], "bounce stopped silently")
    }

    // MARK: Deceleration

    func testDecelerationFollowsUIKitCurve() {
        let v0 = 2000.0
        let d = 0.998
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 40_000)
        let release = fling(&model, velocity: v0)
        let o0 = model.offset
        var k = 6
        for checkFrame in [6 + 1, 6 + 15, 6 + 30, 6 + 60, 6 + 120, 6 + 180] {
            while k < checkFrame {
                k += 1
                model.step(to: frame(k))
            }
            let t = (frame(k) - release) / .seconds(1)
            XCTAssertEqual(model.velocity, v0 * pow(d, 1000 * t), accuracy: 1e-6 * v0, "v at t=\(t)")
            XCTAssertEqual(model.phase, .decelerating)
        }
        // At a whole millisecond the offset equals the per-millisecond sum (v *= d; offset += v/1000).
        var discreteVelocity = v0
        var discreteOffset = o0
        for _ in 0..<3000 {   // 180 frames = 3.000 s
            discreteVelocity *= d
            discreteOffset += discreteVelocity / 1000
        }
        XCTAssertEqual(model.offset, discreteOffset, accuracy: 1e-6)
    }

    func testTotalTravelMatchesDocumentedFormula() {
        for (v0, rate) in [(2000.0, ScrollModel.DecelerationRate.normal), (-3500, .normal), (800, .normal),
                           (2000, .fast), (-5000, .fast)] {
            var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 50_000)
            model.decelerationRate = rate
            fling(&model, velocity: v0)
            let o0 = model.offset
            let expected = v0 / 1000 * rate.rawValue / (1 - rate.rawValue)
            XCTAssertEqual(ScrollModel.projectedTravel(velocity: v0, rate: rate), expected, accuracy: 1e-9)
            XCTAssertEqual(model.projectedRestingOffset, o0 + expected, accuracy: 1e-9)
            let (events, _) = run(&model, from: 6, limit: 6000)
            XCTAssertEqual(model.offset - o0, expected, accuracy: 0.5, "v0 \(v0) rate \(rate.rawValue)")
            XCTAssertEqual(events, [.didEndDragging(willDecelerate: true), .didEndDecelerating])
            XCTAssertEqual(model.velocity, 0)
        }
    }

    func testFastRateCurveAndStop() {
        let v0 = 3000.0
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 10_000)
        model.decelerationRate = .fast
        let release = fling(&model, velocity: v0)
        var k = 6
        for checkFrame in [8, 12, 20, 30] {
            while k < checkFrame {
                k += 1
                model.step(to: frame(k))
            }
            let t = (frame(k) - release) / .seconds(1)
            XCTAssertEqual(model.velocity, v0 * pow(0.99, 1000 * t), accuracy: 1e-6 * v0)
        }
        let (_, frames) = run(&model, from: k)
        // .fast loses 99% of its speed in ~0.46 s; at rest well within a second.
        XCTAssertLessThan(k - 6 + frames, 60)
    }

    func testEndEventsFireOnceInOrder() {
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 50_000)
        fling(&model, velocity: 1500)
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: true)])
        var later: [ScrollEvent] = []
        for k in 7...2000 {
            model.step(to: frame(k))
            later += model.takeEvents()
        }
        XCTAssertEqual(later, [.didEndDecelerating])
        XCTAssertEqual(model.phase, .idle)
        XCTAssertFalse(model.isMoving)
    }

    func testReleaseWithoutVelocityDoesNotDecelerate() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 300)
        model.beginDrag(at: 100, time: .zero)
        model.drag(to: 100, time: frame(10))
        model.endDrag(time: frame(11))
        XCTAssertEqual(model.phase, .idle)
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: false)])
        for k in 12...100 { model.step(to: frame(k)) }
        XCTAssertTrue(model.takeEvents().isEmpty)
        XCTAssertEqual(model.offset, 300)
    }

    func testPauseBeforeReleaseKillsTheFling() {
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 50_000)
        var position = 500.0
        model.beginDrag(at: position, time: .zero)
        for k in 1...6 {
            position -= 40
            model.drag(to: position, time: frame(k))
        }
        XCTAssertGreaterThan(model.velocity, 2000)
        model.endDrag(time: frame(6) + .milliseconds(200))   // held still for 200 ms, then let go
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: false)])
        XCTAssertEqual(model.phase, .idle)
    }

    func testNewDragInterruptsDecelerationWithoutDidEndDecelerating() {
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 50_000)
        fling(&model, velocity: 2000)
        for k in 7...20 { model.step(to: frame(k)) }
        let caught = model.offset
        model.beginDrag(at: 10, time: frame(21))
        XCTAssertEqual(model.phase, .dragging)
        XCTAssertEqual(model.offset, caught, "a touch stops the content where it is")
        model.step(to: frame(30))
        XCTAssertEqual(model.offset, caught, "stepping does not move a held drag")
        model.endDrag(time: frame(40))
        for k in 41...400 { model.step(to: frame(k)) }
        XCTAssertEqual(model.takeEvents(),
                       [.didEndDragging(willDecelerate: true), .didEndDragging(willDecelerate: false)])
    }

    func testDecelerationStopsAtEndsAndNeverRestsOutOfBounds() {
        // Towards the far end.
        var model = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 800)
        fling(&model, velocity: 5000)
        XCTAssertEqual(model.phase, .decelerating)
        XCTAssertEqual(model.projectedRestingOffset, 1500)
        var events = model.takeEvents()
        var k = 6
        while model.needsStep {
            k += 1
            model.step(to: frame(k))
            XCTAssertLessThanOrEqual(model.offset, 1500)
            events += model.takeEvents()
        }
        XCTAssertEqual(model.offset, 1500)
        XCTAssertEqual(events, [.didEndDragging(willDecelerate: true), .didEndDecelerating])
        XCTAssertLessThan(k, 60)

        // Towards the start.
        var back = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 900)
        fling(&back, velocity: -4000)
        XCTAssertEqual(back.phase, .decelerating)
        let (backEvents, _) = run(&back, from: 6)
        XCTAssertEqual(back.offset, 0)
        XCTAssertEqual(backEvents, [.didEndDragging(willDecelerate: true), .didEndDecelerating])
    }

    func testFlingIntoTheEdgeAlreadyReachedDoesNotDecelerate() {
        // Dragged back onto the start edge and let go still moving backwards: nowhere to coast to.
        var atStart = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 20)
        atStart.beginDrag(at: 0, time: .zero)
        atStart.drag(to: 20, time: frame(6))   // offset 0 exactly, moving backwards
        XCTAssertEqual(atStart.offset, 0, accuracy: 1e-9)
        atStart.endDrag(time: frame(6))
        XCTAssertEqual(atStart.takeEvents(), [.didEndDragging(willDecelerate: false)])
        XCTAssertEqual(atStart.phase, .idle)
    }

    // MARK: Wheel and programmatic

    func testWheelScrollingClamps() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 10)
        model.scroll(by: 30, time: .zero)
        XCTAssertEqual(model.offset, 40)
        model.scroll(by: -50, time: .zero)
        XCTAssertEqual(model.offset, 0)
        model.scroll(by: 1_000_000, time: .zero)
        XCTAssertEqual(model.offset, 1500)
        XCTAssertEqual(model.phase, .idle)
        XCTAssertTrue(model.takeEvents().isEmpty)
    }

    func testWheelEndsDeceleration() {
        var model = ScrollModel(contentLength: 100_000, viewportLength: 1000, offset: 50_000)
        fling(&model, velocity: 2000)
        model.step(to: frame(10))
        let before = model.offset
        model.scroll(by: 10, time: frame(11))
        XCTAssertEqual(model.offset, before + 10, accuracy: 1e-9)
        XCTAssertEqual(model.phase, .idle)
        XCTAssertEqual(model.velocity, 0)
        XCTAssertEqual(model.takeEvents(), [.didEndDragging(willDecelerate: true), .didEndDecelerating])
        model.step(to: frame(20))
        XCTAssertEqual(model.offset, before + 10, accuracy: 1e-9)
    }

    func testWheelIgnoredWhileDragging() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500, offset: 100)
        model.beginDrag(at: 0, time: .zero)
        model.scroll(by: 50, time: frame(1))
        XCTAssertEqual(model.offset, 100)
        XCTAssertEqual(model.phase, .dragging)
    }

    func testAnimatedScrollReachesTargetExactly() {
        var model = ScrollModel(contentLength: 5000, viewportLength: 800, offset: 123.4)
        model.scroll(to: 987.6, animated: true, time: frame(0))
        XCTAssertEqual(model.phase, .animating)
        XCTAssertEqual(model.projectedRestingOffset, 987.6)
        var previous = model.offset
        var events: [ScrollEvent] = []
        var k = 0
        while model.needsStep {
            k += 1
            model.step(to: frame(k))
            XCTAssertGreaterThanOrEqual(model.offset, previous, "ease-out is monotonic")
            previous = model.offset
            events += model.takeEvents()
        }
        XCTAssertEqual(model.offset, 987.6)   // exactly
        XCTAssertEqual(k, 15, "0.25 s at 60 Hz")
        XCTAssertEqual(events, [.didEndScrollingAnimation])
        XCTAssertEqual(model.phase, .idle)
    }

    func testAnimatedScrollEasesOut() {
        var model = ScrollModel(contentLength: 5000, viewportLength: 800)
        model.scroll(to: 1000, animated: true, time: .zero)
        model.step(to: .milliseconds(125))
        // Cubic ease-out at half time: 1 - 0.5^3 = 87.5 %.
        XCTAssertEqual(model.offset, 875, accuracy: 1e-9)
        XCTAssertGreaterThan(model.velocity, 0)
    }

    func testAnimatedScrollClampsAndRetargetsWithOneEvent() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.scroll(to: 400, animated: true, time: frame(0))
        model.step(to: frame(5))
        model.scroll(to: 99_999, animated: true, time: frame(5))
        XCTAssertEqual(model.projectedRestingOffset, 1500)
        let (events, _) = run(&model, from: 5)
        XCTAssertEqual(model.offset, 1500)
        XCTAssertEqual(events, [.didEndScrollingAnimation])
    }

    func testNonAnimatedScrollIsImmediate() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.scroll(to: 700, animated: false, time: .zero)
        XCTAssertEqual(model.offset, 700)
        XCTAssertEqual(model.phase, .idle)
        model.scroll(to: -5, animated: false, time: .zero)
        XCTAssertEqual(model.offset, 0)
        XCTAssertTrue(model.takeEvents().isEmpty)
    }

    func testDragStopsAnimationSilently() {
        var model = ScrollModel(contentLength: 2000, viewportLength: 500)
        model.scroll(to: 1000, animated: true, time: .zero)
        model.step(to: frame(3))
        let caught = model.offset
        model.beginDrag(at: 0, time: frame(4))
        XCTAssertEqual(model.offset, caught)
        XCTAssertTrue(model.takeEvents().isEmpty)
    }

    // MARK: Bounds

    func testResizeKeepsOffsetInBounds() {
        var model = ScrollModel(contentLength: 3000, viewportLength: 500, offset: 2400)
        model.contentLength = 1000
        XCTAssertEqual(model.offset, 500)
        model.resize(contentLength: 4000, viewportLength: 1000)
        XCTAssertEqual(model.offset, 500)
        model.viewportLength = 5000
        XCTAssertEqual(model.offset, 0)
        XCTAssertEqual(model.maxOffset, 0)
    }

    func testContentShorterThanViewportStaysPut() {
        var model = ScrollModel(contentLength: 300, viewportLength: 500)
        fling(&model, velocity: 3000)
        let (events, _) = run(&model, from: 6)
        XCTAssertEqual(model.offset, 0)
        XCTAssertEqual(events, [.didEndDragging(willDecelerate: true), .didEndDecelerating])
    }
}
