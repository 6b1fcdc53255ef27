/// When each frame of an animation is shown: each frame for its own delay, in order, looping as the file
/// says, pausable. Frames are offered to it as they become ready (decoding runs elsewhere); it says
/// whether an offered frame is due, and when the next change is, so the frame loop can sleep until then.
///
/// Driven entirely by the times passed in, so a test steps it with a manual clock. Holds no pixels.
package struct AnimationPlayer: Sendable, Equatable {
    /// Delays at or under this are shown as `tinyDelayReplacement`.
    package static let tinyDelayLimit = Duration.milliseconds(10)
    /// What browsers show a zero or tiny delay as (a GIF's 0 or 1 centisecond), so such files do not race.
    package static let tinyDelayReplacement = Duration.milliseconds(100)

    /// The delay a frame is shown for: its own, or 100 ms when that is 10 ms or less.
    package static func shownDelay(_ delay: Duration) -> Duration {
        delay <= tinyDelayLimit ? tinyDelayReplacement : delay
    }

    /// How many times the whole animation plays; 0 plays it forever.
    package let plays: Int
    /// The frame on screen.
    package private(set) var frameIndex: Int
    /// When the frame on screen went up (its schedule, which may be a little before it was drawn).
    package private(set) var shownAt: Duration
    /// How long the frame on screen stays (already through `shownDelay`).
    package private(set) var delay: Duration
    /// Plays finished so far.
    package private(set) var playsCompleted = 0
    /// Frames put on screen, the first included.
    package private(set) var framesShown = 1
    /// The last play has ended: the last frame stays.
    package private(set) var isFinished = false
    /// Time left on the frame on screen when paused; nil when playing.
    private var remainingWhenPaused: Duration?

    /// Starts with frame 0, whose own delay is `firstDelay`, shown at `now`.
    package init(firstDelay: Duration, plays: Int, now: Duration) {
        self.plays = max(0, plays)
        frameIndex = 0
        shownAt = now
        delay = Self.shownDelay(firstDelay)
    }

    package var isPaused: Bool { remainingWhenPaused != nil }

    /// When the next frame is due; nil while paused or once finished.
    package var nextChangeAt: Duration? {
        guard !isPaused, !isFinished else { return nil }
        return shownAt + delay
    }

    /// Whether a next frame offered at `now` would be shown.
    package func isDue(now: Duration) -> Bool {
        guard let due = nextChangeAt else { return false }
        return now >= due
    }

    /// Offers frame `index` (with its own `delay`) as the next one. Returns true when it goes on screen now:
    /// the current frame's time is up and the animation neither paused nor finished. A frame with a lower
    /// index than the one shown starts the next play, and finishes the animation instead when the plays are
    /// done. A frame that arrives in time keeps the schedule (it is shown from when it was due); one that
    /// came later than its own delay starts from `now`, so a slow decode is never made up by racing.
    package mutating func offer(frame index: Int, delay ownDelay: Duration, now: Duration) -> Bool {
        guard let due = nextChangeAt, now >= due else { return false }
        if index <= frameIndex {
            if plays > 0 && playsCompleted + 1 >= plays {
                playsCompleted = plays
                isFinished = true
                return false
            }
            playsCompleted += 1
        }
        let shown = Self.shownDelay(ownDelay)
        frameIndex = index
        shownAt = now - due < shown ? due : now
        delay = shown
        framesShown += 1
        return true
    }

    /// Stops the clock of the frame on screen; `resume` gives it back the time it had left.
    package mutating func pause(now: Duration) {
        guard !isPaused, !isFinished else { return }
        remainingWhenPaused = max(.zero, shownAt + delay - now)
    }

    package mutating func resume(now: Duration) {
        guard let remaining = remainingWhenPaused else { return }
        remainingWhenPaused = nil
        shownAt = now + remaining - delay
    }

    /// Pauses a playing animation, resumes a paused one.
    package mutating func togglePause(now: Duration) {
        if isPaused { resume(now: now) } else { pause(now: now) }
    }
}
