import Logging
import TesseraCore
import TesseraImaging
import TesseraSDL

/// One animation on screen: takes each frame from its feed (decoded on the executor's workers) when the
/// player says it is due and copies it into one texture, updated in place. The main thread only uploads.
///
/// The feed stops when this goes (the host left the image). Main thread only.
final class AnimationPlayback {
    private let feed: AnimationFeed
    private let renderer: Renderer
    private let observer: (any RunObserver)?
    private let view: MeasuredView
    private var player: AnimationPlayer?
    /// Taken from the feed, waiting for its time.
    private var waiting: AnimationFrame?
    /// A pause asked for before the first frame came.
    private var startsPaused = false
    private let logger = Logger(label: "tessera.animation")

    /// The frame on screen; nil until the first frame is up.
    private(set) var picture: ImageTexture?

    /// - Parameters:
    ///   - view: where its uploads are counted in a measured run.
    init(feed: AnimationFeed, renderer: Renderer, observer: (any RunObserver)?, view: MeasuredView) {
        self.feed = feed
        self.renderer = renderer
        self.observer = observer
        self.view = view
    }

    deinit { feed.stop() }

    /// Not even the first frame could be decoded: the host shows the still it has.
    var hasFailed: Bool { feed.failure != nil }
    var isPaused: Bool { player?.isPaused ?? startsPaused }
    /// Frames shown so far (for tests).
    var framesShown: Int { player?.framesShown ?? 0 }

    /// When the frame loop must wake for the next frame: its due time once it is decoded (the feed wakes the
    /// loop when a frame is decoded); nil when nothing is waiting, or paused, or the plays are over.
    var nextWake: Duration? { waiting == nil ? nil : player?.nextChangeAt }

    /// Puts up the next frame when it is due and decoded. Returns whether the picture changed.
    @discardableResult
    func update(now: Duration) -> Bool {
        if waiting == nil { waiting = feed.takeFrame() }
        guard let frame = waiting else { return false }
        guard var player else {
            guard show(frame) else { return false }
            var started = AnimationPlayer(firstDelay: frame.delay, plays: feed.plays ?? 0, now: now)
            if startsPaused { started.pause(now: now) }
            player = started
            waiting = nil
            return true
        }
        defer { self.player = player }
        guard player.offer(frame: frame.index, delay: frame.delay, now: now) else {
            if player.isFinished {
                feed.stop()
                waiting = nil
            }
            return false
        }
        waiting = nil
        return show(frame)
    }

    /// Pauses or resumes.
    func togglePause(now: Duration) {
        if player == nil { startsPaused.toggle() } else { player?.togglePause(now: now) }
    }

    private func show(_ frame: AnimationFrame) -> Bool {
        do {
            if picture == nil || picture?.texture.width != frame.pixels.width || picture?.texture.height != frame.pixels.height {
                // With an alpha channel whatever the first frame is: a later frame may have transparency.
                let texture = try renderer.makeTexture(width: frame.pixels.width, height: frame.pixels.height, opaque: false)
                picture = ImageTexture(texture: texture, isOpaque: false)
            }
            let bytes = try picture?.upload(frame.pixels) ?? 0
            observer?.uploaded(bytes: bytes, in: view)
            observer?.animationFrameShown()
            return true
        } catch {
            logger.warning("animation frame not shown: \(error)")
            return false
        }
    }
}
