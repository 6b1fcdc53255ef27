/// What a `LoadPipeline` did, for run reports. Read on the main thread from the pipeline's own
/// bookkeeping, apart from `started`, which its scheduler counts as workers take jobs.
public struct LoadCounters: Sendable, Equatable {
    /// Loads begun by `request`: keys neither stored, in flight nor known to fail. A key asked for again
    /// while in flight is not counted twice.
    public var requested = 0
    /// Loader runs begun, on a worker or by `loadNow`. A load dropped while queued never runs.
    public var started = 0
    /// Loads that produced a value.
    public var succeeded = 0
    /// Loads that failed (each is remembered until forgotten).
    public var failed = 0
    /// Cost of the values produced (bytes of pixels, for images and tiles).
    public var loadedCost = 0
    /// Queued loads dropped before they started because nobody wanted their key any more.
    public var droppedQueued = 0
    /// Running loads that stopped early because nobody wanted their key any more.
    public var stoppedRunning = 0
    /// Loader runs on the main thread (`loadNow`, or a test's inline scheduler): the report shows them.
    public var mainThreadLoads = 0

    public init() {}

    /// The counters of two pipelines added up (the tiled view makes a new one per pyramid it opens).
    public static func + (a: LoadCounters, b: LoadCounters) -> LoadCounters {
        var sum = a
        sum.requested += b.requested
        sum.started += b.started
        sum.succeeded += b.succeeded
        sum.failed += b.failed
        sum.loadedCost += b.loadedCost
        sum.droppedQueued += b.droppedQueued
        sum.stoppedRunning += b.stoppedRunning
        sum.mainThreadLoads += b.mainThreadLoads
        return sum
    }
}
