/// What a `LoadPipeline` did with one key, as its observer hears it.
package enum LoadEvent: Sendable, Equatable {
    /// A load begun by `request`: the key was neither stored, in flight nor known to fail. A key asked for
    /// again while in flight is not a new load.
    case requested
    /// The loader began, on a worker or by `loadNow`; `onMainThread` when it runs on the main thread.
    case started(onMainThread: Bool)
    /// A load produced a value costing `cost` (bytes of pixels, for images and tiles).
    case succeeded(cost: Int)
    /// A load failed (and is remembered until forgotten).
    case failed
    /// Queued loads dropped before they started because nobody wanted their key any more.
    case droppedQueued(count: Int)
    /// A running load stopped early because nobody wanted its key any more.
    case stoppedRunning
}
