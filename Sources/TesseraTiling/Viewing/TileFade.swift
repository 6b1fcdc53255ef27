import TesseraCore
import TesseraImaging
/// CATiledLayer's fade for tiles: a tile that arrives while its place is on screen fades in over
/// `timing.duration` (0.25 s by default, linear), over the coarser tile drawn under it; a tile that was
/// already held, or arrived off screen, appears at once when it is drawn. (The view also shows at once a
/// tile with nothing under it yet: fading the very first picture in from the background would only be a
/// quarter-second hole. A tile tried again after a failure fades in even so: it replaces an error square.)
package struct TileFade: Sendable, Equatable {
    package var timing: FadeTiming

    package init(timing: FadeTiming = .default) {
        self.timing = timing
    }

    /// When a tile arriving `now` starts to fade in: now if it is awaited on screen, otherwise far enough
    /// back that it is already opaque.
    package func start(arrivingAt now: Duration, onScreen: Bool) -> Duration {
        onScreen ? now : now - timing.duration
    }

    package func alpha(fadeStart: Duration, now: Duration) -> Double {
        timing.alpha(startedAt: fadeStart, now: now)
    }

    /// `.opaque` once the fade is over, `.fading` until then.
    package func availability(fadeStart: Duration, now: Duration) -> TileAvailability {
        timing.isComplete(startedAt: fadeStart, now: now) ? .opaque : .fading
    }
}
