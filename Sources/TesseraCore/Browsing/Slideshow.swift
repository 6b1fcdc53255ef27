/// When the slideshow moves on: each image stays `delay` from when it was shown (by the slideshow or by
/// a key, which starts the delay again), and the next one is shown only once it is decoded, so the show
/// never steps to a placeholder. Time is passed in.
package struct Slideshow: Sendable, Equatable {
    package let delay: Duration
    package private(set) var isRunning = false
    /// When the image on screen was shown.
    private var shownAt: Duration = .zero

    package init(delay: Duration) { self.delay = delay }

    package mutating func start(now: Duration) {
        isRunning = true
        shownAt = now
    }

    package mutating func stop() { isRunning = false }

    /// An image was shown: its delay starts now.
    package mutating func imageShown(now: Duration) { shownAt = now }

    /// When the image on screen has had its time; nil when the show is stopped.
    package var dueAt: Duration? { isRunning ? shownAt + delay : nil }

    /// Whether to show the next image now: running, the delay over, the next image decoded.
    package func shouldAdvance(now: Duration, nextIsReady: Bool) -> Bool {
        guard let dueAt else { return false }
        return now >= dueAt && nextIsReady
    }
}
