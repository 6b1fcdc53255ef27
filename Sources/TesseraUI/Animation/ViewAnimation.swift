import TesseraCore
import TesseraSDL

/// A zoomable view's animation: whether its image is one, whether it plays (a view opened ahead and not
/// shown does not: turning that off stops the decoding), and the playback while it does, started from the
/// first frame each time it starts. One that cannot be read plays no more and counts as a still. Main
/// thread only.
final class ViewAnimation {
    private let start: () -> AnimationPlayback
    private var playback: AnimationPlayback?

    /// The opener found the image animated.
    var isAnimated = false
    var plays = true {
        didSet { if !plays { playback = nil } }
    }

    /// `start` makes the playback when it is to play.
    init(start: @escaping () -> AnimationPlayback) { self.start = start }

    /// The frame on screen, once the first is up.
    var picture: ImageTexture? { playback?.picture }
    var isPaused: Bool { playback?.isPaused ?? false }
    /// When the frame loop must wake for the next frame (nil when it need not).
    var nextWake: Duration? { playback?.nextWake }
    var framesShown: Int { playback?.framesShown ?? 0 }

    /// Starts the playback when due and puts up the frame due.
    func update(now: Duration) {
        if isAnimated, plays, playback == nil { playback = start() }
        guard let playback else { return }
        if playback.hasFailed {
            self.playback = nil
            isAnimated = false
        } else {
            playback.update(now: now)
        }
    }

    /// Pauses or resumes; false when nothing plays.
    func togglePause(now: Duration) -> Bool {
        guard isAnimated, let playback else { return false }
        playback.togglePause(now: now)
        return true
    }
}
