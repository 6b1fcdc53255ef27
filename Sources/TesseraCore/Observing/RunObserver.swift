/// What a run's measurement hears of it: the one way measurement reaches the product. The frame loop, the
/// views and the load pipelines call it through one optional reference each, so a run nobody measures
/// (no `--report`) pays a nil check per call and counts, times and keeps nothing. `RunRecorder` (the UI's
/// `--report`) is the implementation; every call has an empty default, so a test observer implements
/// only what it checks.
///
/// Main thread only, apart from `load(.started, ...)`, which comes from the thread that runs the load.
package protocol RunObserver: AnyObject, Sendable {
    // MARK: Frames

    /// A frame began at `start` on the frame loop's clock (its events are about to be handled).
    func frameBegan(at start: Duration)
    /// The frame's main-thread work entered or left one of its phases (`--frame-times`).
    func phaseBegan(_ phase: FramePhase)
    func phaseEnded(_ phase: FramePhase)
    /// The frame showed the view moving (dragged, flung, animated).
    func frameShowedMotion()
    /// The frame was presented.
    func frameEnded()

    // MARK: The strip

    /// One strip frame drew `visible` cells, `placeholders` of them with no picture yet, and some picture
    /// was part-way through its fade-in when `fading`.
    func cellsDrawn(placeholders: Int, visible: Int, fading: Bool)
    /// A cell texture was made inside a frame rather than ahead of the frames.
    func cellTextureMade()
    /// File changes from the watcher that the strip applied.
    func fileChangesApplied(_ count: Int)

    // MARK: Animations

    /// A frame of an animation went up on screen (in the single view or the strip's selected cell).
    func animationFrameShown()

    // MARK: Both views

    /// Pixels copied into textures.
    func uploaded(bytes: Int, in view: MeasuredView)
    /// What one of the load pipelines did (`LoadObservation` says which).
    func load(_ event: LoadEvent, in view: MeasuredView)

    // MARK: The zoomable view

    /// A zoomable view opened an image (each opening is measured on its own).
    func tiledViewOpened()
    /// A zoomable view's frame `sinceOpening` the image: `complete` with no hole on screen, `sharp` with
    /// every visible tile at the level the zoom asks for.
    func tiledFrameDrawn(complete: Bool, sharp: Bool, sinceOpening: Duration)
    /// A tile arriving on screen started fading in at `start`.
    func tileFadeBegan(_ tile: TileID, at start: Duration)
    /// A tile was drawn at full opacity at `now`.
    func tileShownOpaque(_ tile: TileID, at now: Duration)
}

extension RunObserver {
    package func frameBegan(at start: Duration) {}
    package func phaseBegan(_ phase: FramePhase) {}
    package func phaseEnded(_ phase: FramePhase) {}
    package func frameShowedMotion() {}
    package func frameEnded() {}
    package func cellsDrawn(placeholders: Int, visible: Int, fading: Bool) {}
    package func cellTextureMade() {}
    package func fileChangesApplied(_ count: Int) {}
    package func animationFrameShown() {}
    package func uploaded(bytes: Int, in view: MeasuredView) {}
    package func load(_ event: LoadEvent, in view: MeasuredView) {}
    package func tiledViewOpened() {}
    package func tiledFrameDrawn(complete: Bool, sharp: Bool, sinceOpening: Duration) {}
    package func tileFadeBegan(_ tile: TileID, at start: Duration) {}
    package func tileShownOpaque(_ tile: TileID, at now: Duration) {}
}
