/// How a freshly loaded image fades in over its placeholder.
///
/// A fade hides the moment a thumbnail pops in while scrolling, which otherwise reads as flicker;
/// the 0.25 s default is CATiledLayer's `fadeDuration`, long enough to soften, short enough not to look
/// slow. Linear, because the eye sees an alpha ramp as already eased. Stateless: the caller keeps each
/// image's arrival time and asks for its alpha when drawing.
package struct FadeTiming: Equatable, Hashable, Sendable {
    /// Fade length; `.zero` disables fading (images appear at full opacity at once).
    package var duration: Duration

    package init(duration: Duration = .milliseconds(250)) {
        precondition(duration >= .zero, "FadeTiming: negative duration")
        self.duration = duration
    }

    /// CATiledLayer's 0.25 s.
    package static let `default` = FadeTiming()
    /// No fade (e.g. for images already seen, or a reduce-motion setting).
    package static let none = FadeTiming(duration: .zero)

    /// Opacity in 0...1 for an image that arrived at `startedAt`, at `now`: 0 on arrival, rising linearly,
    /// 1 from `startedAt + duration` on. Before arrival it is 0.
    package func alpha(startedAt: Duration, now: Duration) -> Double {
        guard duration > .zero else { return 1 }
        let progress = (now - startedAt) / duration
        return min(max(progress, 0), 1)
    }

    /// True once the fade has finished, so the renderer can stop redrawing for it.
    package func isComplete(startedAt: Duration, now: Duration) -> Bool {
        now - startedAt >= duration
    }
}
