/// What load pipelines did, added up from their `LoadEvent`s: the report's decode and tile figures.
package struct LoadCounters: Sendable, Equatable {
    /// Loads begun by `request` (`LoadEvent.requested`).
    package var requested = 0
    /// Loader runs begun, on a worker or by `loadNow`. A load dropped while queued never runs.
    package var started = 0
    /// Loads that produced a value.
    package var succeeded = 0
    /// Loads that failed.
    package var failed = 0
    /// Cost of the values produced.
    package var loadedCost = 0
    /// Queued loads dropped before they started.
    package var droppedQueued = 0
    /// Running loads that stopped early.
    package var stoppedRunning = 0
    /// Loader runs on the main thread (`loadNow`, or a test's inline scheduler): the report shows them.
    package var mainThreadLoads = 0

    package init() {}

    package mutating func count(_ event: LoadEvent) {
        switch event {
        case .requested: requested += 1
        case .started(let onMainThread):
            started += 1
            if onMainThread { mainThreadLoads += 1 }
        case .succeeded(let cost):
            succeeded += 1
            loadedCost += cost
        case .failed: failed += 1
        case .droppedQueued(let count): droppedQueued += count
        case .stoppedRunning: stoppedRunning += 1
        }
    }
}
