import Synchronization
@testable import TesseraCore

/// A run observer that only adds up the load pipelines' events, per view: what tests of the pipeline and
/// the strategies check of the loads that ran.
final class CountingObserver: RunObserver {
    private let counted = Mutex<[MeasuredView: LoadCounters]>([:])

    func load(_ event: LoadEvent, in view: MeasuredView) {
        counted.withLock { $0[view, default: LoadCounters()].count(event) }
    }

    /// The strip's loads so far.
    var strip: LoadCounters { counted.withLock { $0[.strip] ?? LoadCounters() } }

    /// The zoomable views' loads so far.
    var tiled: LoadCounters { counted.withLock { $0[.tiled] ?? LoadCounters() } }

    /// An observation of a pipeline's loads as the strip's.
    var stripLoads: LoadObservation { LoadObservation(self, view: .strip) }
}
