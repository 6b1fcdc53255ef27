import Foundation

/// One axis of `UIScrollView` behaviour, as a plain value with no UI: drag tracking with rubber-banding,
/// velocity estimation, fling deceleration with UIKit's exact decay law, bounce-back, animated programmatic
/// scrolls and immediate wheel scrolls.
///
/// Why a value type with time passed in: the physics must be testable frame by frame without a window or a
/// real clock, and the UI owns exactly one copy it mutates on the main thread. The caller feeds input
/// events, calls `step(to:)` once per frame while `needsStep` is true, and drains `takeEvents()`.
///
/// Event contract (UIKit semantics, made strict so listeners can rely on it):
/// - every `endDrag` emits exactly one `didEndDragging(willDecelerate:)`;
/// - `willDecelerate: true` is followed by exactly one `didEndDecelerating` — when the motion comes to rest
///   (also at a bound), or when a wheel or programmatic scroll cuts it short — *unless* a new drag begins
///   first: a touch silently stops the motion, exactly as in UIKit, and that drag's own `didEndDragging`
///   follows later;
/// - an animated scroll emits one `didEndScrollingAnimation` when it ends or is cut short by a wheel or
///   non-animated scroll; retargeting it with another animated scroll coalesces into one event; a drag
///   silently stops it.
///
/// Longer than most files: the phases share one motion record and each input ends the others by the
/// contract above, so they read best side by side. The laws themselves are in `ScrollModel+Physics`, the
/// finger's speed in `DragVelocityTracker`.
package struct ScrollModel: Sendable {
    package enum Phase: Equatable, Sendable {
        /// At rest, in bounds.
        case idle
        /// The finger is down and moves the content.
        case dragging
        /// Flung: coasting with exponential decay after the finger let go.
        case decelerating
        /// A programmatic, animated scroll (keys: arrows, PageUp/PageDown, Home/End).
        case animating
        /// Released past an edge: springing back to the edge.
        case bouncing
    }

    /// UIScrollView's deceleration rate: the fraction of velocity kept per millisecond.
    package struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        package let rawValue: Double
        package init(rawValue: Double) {
            precondition(rawValue > 0 && rawValue < 1, "DecelerationRate must be in (0, 1), got \(rawValue)")
            self.rawValue = rawValue
        }
        /// `UIScrollView.DecelerationRate.normal`: long, gliding flings.
        package static let normal = DecelerationRate(rawValue: 0.998)
        /// `UIScrollView.DecelerationRate.fast`: paging-like, short flings.
        package static let fast = DecelerationRate(rawValue: 0.99)
    }

    // MARK: Tuning

    /// A deceleration stops (and snaps to its exact resting point) once less than this much travel remains,
    /// so it ends exactly where `projectedRestingOffset` said without a visible jump. For `.fast` this is
    /// reached at ~5 pt/s, UIKit's "about 0.1 pt per frame"; for `.normal` at ~1 pt/s, because a 5 pt/s cut-off
    /// there would leave a 2.5 pt jump (travel remaining is v/1000 * d/(1-d)).
    package static let restingDistance: Double = 0.5
    /// How far back the release velocity looks. Short enough that a finger that paused before letting go
    /// does not fling, long enough to average out the jitter of millisecond event timestamps.
    package static let velocityWindow: Duration = .milliseconds(80)
    /// Duration of an animated programmatic scroll (UIKit's setContentOffset(animated:) is ~0.25-0.3 s).
    package static let animationDuration: Duration = .milliseconds(250)
    /// Duration of the spring back from past an edge.
    package static let bounceDuration: Duration = .milliseconds(350)
    /// UIScrollView's rubber-band constant: the slope of the resistance curve at the edge.
    package static let rubberBandCoefficient: Double = 0.55

    // MARK: State

    private var _contentLength: Double
    private var _viewportLength: Double

    /// Length of everything that scrolls, in points. Setting it keeps the offset in bounds.
    package var contentLength: Double {
        get { _contentLength }
        set { resize(contentLength: newValue, viewportLength: _viewportLength) }
    }
    /// Length of the visible window, in points. Setting it keeps the offset in bounds.
    package var viewportLength: Double {
        get { _viewportLength }
        set { resize(contentLength: _contentLength, viewportLength: newValue) }
    }
    /// The scroll position: content point at the viewport's leading edge. In `0...maxOffset` except
    /// while dragging or bouncing past an edge.
    package private(set) var offset: Double
    /// Rate of change of `offset`, points per second (positive = offset increasing).
    package private(set) var velocity: Double = 0
    package private(set) var phase: Phase = .idle
    /// The rate used by the *next* fling; a fling in progress keeps the rate it started with.
    package var decelerationRate: DecelerationRate = .normal

    private var events: [ScrollEvent] = []

    private var dragStartPosition = 0.0
    private var dragStartRaw = 0.0
    private var dragRaw = 0.0
    private var fingerVelocity = DragVelocityTracker(window: Self.velocityWindow)

    // Shared by deceleration, animation and bounce: where and when the current motion started.
    private var motionStartTime: Duration = .zero
    private var motionStartOffset = 0.0
    private var motionStartVelocity = 0.0
    private var motionRate = DecelerationRate.normal.rawValue
    private var motionTarget = 0.0
    private var motionDuration: Duration = .zero

    package init(contentLength: Double, viewportLength: Double, offset: Double = 0) {
        _contentLength = max(0, contentLength)
        _viewportLength = max(0, viewportLength)
        self.offset = 0
        self.offset = clamp(offset)
    }

    // MARK: Derived

    package var maxOffset: Double { max(0, _contentLength - _viewportLength) }
    /// The finger is down (UIScrollView.isTracking).
    package var isTracking: Bool { phase == .dragging }
    /// Coasting after a drag, including a bounce back (UIScrollView.isDecelerating).
    package var isDecelerating: Bool { phase == .decelerating || phase == .bouncing }
    /// Anything but idle: the content is being moved or moves by itself.
    package var isMoving: Bool { phase != .idle }
    /// The content moves by itself: call `step(to:)` every frame until this turns false.
    package var needsStep: Bool { phase == .decelerating || phase == .animating || phase == .bouncing }

    /// Where the content will come to rest if left alone (clamped to bounds). While dragging: where it
    /// would rest if released now. This is what a preloader should aim at, not the current offset.
    package var projectedRestingOffset: Double {
        switch phase {
        case .idle:
            return offset
        case .decelerating:
            return clamp(motionStartOffset + Self.projectedTravel(velocity: motionStartVelocity, rate: motionRate))
        case .animating, .bouncing:
            return motionTarget
        case .dragging:
            if offset < 0 || offset > maxOffset { return clamp(offset) }
            return clamp(offset + Self.projectedTravel(velocity: velocity, rate: decelerationRate.rawValue))
        }
    }

    // MARK: Events

    /// Returns the events emitted since the last call, oldest first, and forgets them.
    package mutating func takeEvents() -> [ScrollEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    // MARK: Bounds

    /// Changes both lengths at once (a window resize changes both; setting them one by one could clamp
    /// the offset against a meaningless intermediate size).
    package mutating func resize(contentLength: Double, viewportLength: Double) {
        _contentLength = max(0, contentLength)
        _viewportLength = max(0, viewportLength)
        switch phase {
        case .idle:
            offset = clamp(offset)
        case .dragging:
            offset = banded(dragRaw)
        case .decelerating:
            if offset < 0 || offset > maxOffset {
                offset = clamp(offset)
                finish(with: .didEndDecelerating)
            }
        case .animating, .bouncing:
            motionTarget = clamp(motionTarget)
            if phase == .animating { motionStartOffset = clamp(motionStartOffset) }
        }
    }

    /// Content was inserted or removed before what is on screen, moving everything shown by `delta`
    /// points, and the content is now `contentLength` long. The offset and any motion in progress (the
    /// finger's grab point, a fling, an animation's start and target) move with it, so the user sees no
    /// jump and a fling carries on as it was.
    package mutating func shiftContent(by delta: Double, contentLength: Double) {
        offset += delta
        dragStartRaw += delta
        dragRaw += delta
        motionStartOffset += delta
        motionTarget += delta
        resize(contentLength: contentLength, viewportLength: _viewportLength)
    }

    // MARK: Dragging

    /// The finger went down. Stops any motion in progress without an end event (UIKit: a touch catches
    /// the content); the drag's own `didEndDragging` comes from `endDrag`.
    package mutating func beginDrag(at position: Double, time: Duration) {
        // Grabbing content that is past an edge (mid-bounce) continues from where it shows.
        if offset < 0 {
            dragStartRaw = -Self.rubberBandInverse(displacement: -offset, dimension: _viewportLength)
        } else if offset > maxOffset {
            dragStartRaw = maxOffset + Self.rubberBandInverse(displacement: offset - maxOffset,
                                                              dimension: _viewportLength)
        } else {
            dragStartRaw = offset
        }
        dragRaw = dragStartRaw
        dragStartPosition = position
        fingerVelocity.begin(at: position, time: time)
        velocity = 0
        phase = .dragging
    }

    /// The finger moved to `position` (same axis and units as the content; moving the finger towards
    /// smaller positions scrolls forward). Content follows 1:1 in bounds and with rubber-band
    /// resistance past an edge. Ignored when not dragging.
    package mutating func drag(to position: Double, time: Duration) {
        guard phase == .dragging else { return }
        dragRaw = dragStartRaw - (position - dragStartPosition)
        offset = banded(dragRaw)
        velocity = fingerVelocity.add(position, time: time)
    }

    /// The finger let go at `time`. Emits `didEndDragging(willDecelerate:)`, then flings, bounces back
    /// or comes to rest.
    package mutating func endDrag(time: Duration) {
        guard phase == .dragging else { return }
        let releaseVelocity = fingerVelocity.release(at: time)

        if offset < 0 || offset > maxOffset {
            events.append(.didEndDragging(willDecelerate: true))
            startTimedMotion(to: clamp(offset), duration: Self.bounceDuration, phase: .bouncing, time: time)
            return
        }
        let rate = decelerationRate.rawValue
        let rest = clamp(offset + Self.projectedTravel(velocity: releaseVelocity, rate: rate))
        guard abs(rest - offset) >= Self.restingDistance else {
            // Too slow to go anywhere, or flung into the edge it already touches.
            velocity = 0
            phase = .idle
            events.append(.didEndDragging(willDecelerate: false))
            return
        }
        events.append(.didEndDragging(willDecelerate: true))
        phase = .decelerating
        velocity = releaseVelocity
        motionStartTime = time
        motionStartOffset = offset
        motionStartVelocity = releaseVelocity
        motionRate = rate
    }

    // MARK: Programmatic scrolling

    /// Scrolls to `target` (clamped), either at once or with a 0.25 s ease-out ending exactly on target.
    /// Ignored while dragging: the finger owns the content. An animated scroll during an animation
    /// retargets it from where it is now (key repeat), emitting one `didEndScrollingAnimation` at the end.
    package mutating func scroll(to target: Double, animated: Bool, time: Duration) {
        guard phase != .dragging else { return }
        let destination = clamp(target)
        let wasAnimating = phase == .animating
        if isDecelerating {
            settle()
            events.append(.didEndDecelerating)
        }
        if animated {
            if abs(destination - offset) < 1e-9 {
                offset = destination
                settle()
                if wasAnimating { events.append(.didEndScrollingAnimation) }
            } else {
                startTimedMotion(to: destination, duration: Self.animationDuration, phase: .animating, time: time)
            }
        } else {
            offset = destination
            settle()
            if wasAnimating { events.append(.didEndScrollingAnimation) }
        }
    }

    /// A wheel or touchpad step: moves at once by `delta` (clamped) and ends any motion in progress
    /// (emitting its end event). Ignored while dragging.
    package mutating func scroll(by delta: Double, time: Duration) {
        switch phase {
        case .dragging:
            return
        case .decelerating, .bouncing:
            events.append(.didEndDecelerating)
        case .animating:
            events.append(.didEndScrollingAnimation)
        case .idle:
            break
        }
        offset = clamp(offset + delta)
        settle()
    }

    // MARK: Time

    /// Advances deceleration, animation or bounce to `time`. A no-op when idle or dragging, so it is safe
    /// to call every frame.
    package mutating func step(to time: Duration) {
        switch phase {
        case .idle, .dragging:
            return
        case .decelerating:
            stepDeceleration(to: time)
        case .animating, .bouncing:
            stepTimedMotion(to: time)
        }
    }

    // MARK: Private

    private func clamp(_ value: Double) -> Double {
        min(max(value, 0), maxOffset)
    }

    private func banded(_ raw: Double) -> Double {
        if raw < 0 { return -Self.rubberBand(overshoot: -raw, dimension: _viewportLength) }
        if raw > maxOffset { return maxOffset + Self.rubberBand(overshoot: raw - maxOffset, dimension: _viewportLength) }
        return raw
    }

    private mutating func settle() {
        velocity = 0
        phase = .idle
    }

    private mutating func finish(with event: ScrollEvent) {
        settle()
        events.append(event)
    }

    /// UIKit's law, per millisecond: v *= d; offset += v/1000. After n ms: v = v0 d^n and
    /// offset = o0 + v0/1000 * d(1 - d^n)/(1 - d). Evaluated in closed form at fractional n, which equals the
    /// per-millisecond sum at every whole millisecond and interpolates smoothly between them (whole-ms
    /// stepping would move 16, 17, 17, 16... ms per 60 Hz frame: a visible unevenness).
    private mutating func stepDeceleration(to time: Duration) {
        let milliseconds = max(0, (time - motionStartTime) / .milliseconds(1))
        let decay = pow(motionRate, milliseconds)
        let travel = Self.projectedTravel(velocity: motionStartVelocity, rate: motionRate)
        let position = motionStartOffset + travel * (1 - decay)
        velocity = motionStartVelocity * decay
        if position < 0 || position > maxOffset {
            // Ran into an edge: stop there. Content never rests out of bounds.
            offset = clamp(position)
            finish(with: .didEndDecelerating)
        } else if abs(travel) * decay < Self.restingDistance {
            offset = clamp(motionStartOffset + travel)
            finish(with: .didEndDecelerating)
        } else {
            offset = position
        }
    }

    private mutating func startTimedMotion(to target: Double, duration: Duration, phase newPhase: Phase,
                                           time: Duration) {
        motionStartTime = time
        motionStartOffset = offset
        motionTarget = target
        motionDuration = duration
        phase = newPhase
        // Ease-out starts at 3x the average speed.
        velocity = (target - offset) * 3 / (duration / .seconds(1))
    }

    /// Cubic ease-out, 1 - (1 - p)^3: starts fast (the response to a key press is immediate) and lands softly,
    /// reaching the target exactly at the end.
    private mutating func stepTimedMotion(to time: Duration) {
        let progress = min(max((time - motionStartTime) / motionDuration, 0), 1)
        if progress >= 1 {
            offset = motionTarget
            finish(with: phase == .animating ? .didEndScrollingAnimation : .didEndDecelerating)
            return
        }
        let remaining = 1 - progress
        let distance = motionTarget - motionStartOffset
        offset = motionStartOffset + distance * (1 - remaining * remaining * remaining)
        velocity = distance * 3 * remaining * remaining / (motionDuration / .seconds(1))
    }
}
