import Foundation
import Synchronization

/// Why a tile could not be loaded: a short text for the log line.
public struct TileLoadFailure: Error, Sendable, Equatable {
    public let reason: String

    public init(reason: String) { self.reason = reason }
}

/// Reads and decodes tiles on several worker threads at once (CATiledLayer draws on background threads),
/// one job per tile, and hands finished tiles to the main loop through an inbox it drains each frame.
/// Queued tiles the view no longer needs are dropped before they start (`retainOnly`); a tile that failed
/// is remembered and not tried again.
public final class TileLoadQueue: Sendable {
    public typealias Loader = @Sendable (TileID) throws -> PixelBuffer

    public struct Arrival: Sendable {
        public let tile: TileID
        public let result: Result<PixelBuffer, TileLoadFailure>
    }

    public struct Counters: Sendable, Equatable {
        /// Jobs started (a tile asked for again while queued or running is not counted twice).
        public var requested = 0
        /// Tiles read and decoded successfully.
        public var decoded = 0
        /// Queued tiles dropped before they started.
        public var cancelled = 0
        public var failed = 0
        public var mainThreadLoads = 0

        public init() {}
    }

    private struct State {
        var inFlight: Set<TileID> = []
        var failures: [TileID: TileLoadFailure] = [:]
        var counters = Counters()
    }

    private let scheduler: WorkScheduler<TileID, PixelBuffer>
    private let loader: Loader
    private let arrivals = Inbox<Arrival>()
    private let state = Mutex(State())
    private let onArrival: @Sendable () -> Void

    /// - Parameters:
    ///   - loader: reads one tile; runs on a worker.
    ///   - onArrival: called on the worker after a result is queued (wakes the main loop).
    public init(scheduler: WorkScheduler<TileID, PixelBuffer>, loader: @escaping Loader,
                onArrival: @escaping @Sendable () -> Void = {}) {
        self.scheduler = scheduler
        self.loader = loader
        self.onArrival = onArrival
    }

    deinit { scheduler.shutdown() }

    public var counters: Counters { state.withLock { $0.counters } }
    public var inFlightCount: Int { state.withLock { $0.inFlight.count } }
    public var hasPendingArrivals: Bool { !arrivals.isEmpty }
    public func isInFlight(_ tile: TileID) -> Bool { state.withLock { $0.inFlight.contains(tile) } }
    public func failure(for tile: TileID) -> TileLoadFailure? { state.withLock { $0.failures[tile] } }

    /// Asks for a tile at `priority` (lower runs sooner). A tile already loading gets the new priority; a
    /// tile that failed is not tried again.
    public func request(_ tile: TileID, priority: Int) {
        let start = state.withLock { state -> Bool in
            guard state.failures[tile] == nil else { return false }
            guard state.inFlight.insert(tile).inserted else { return false }
            state.counters.requested += 1
            return true
        }
        guard start else {
            scheduler.reprioritize([tile: priority])
            return
        }
        let loader = self.loader
        scheduler.request(tile, priority: priority, work: { [self] in
            if Thread.isMainThread { state.withLock { $0.counters.mainThreadLoads += 1 } }
            return try loader(tile)
        }, completion: { [weak self] tile, result in
            self?.finish(tile, result)
        })
    }

    /// Drops queued tiles not in `keep`; running ones finish.
    public func retainOnly(_ keep: Set<TileID>) {
        scheduler.retainOnly(keep)
    }

    /// Tiles that finished since the last call, oldest first.
    public func takeArrivals() -> [Arrival] { arrivals.drain() }

    /// Lets running loads finish and drops the rest.
    public func shutdown() { scheduler.shutdown() }

    private func finish(_ tile: TileID, _ result: Result<PixelBuffer, Error>) {
        switch result {
        case .success(let pixels):
            state.withLock {
                $0.inFlight.remove(tile)
                $0.counters.decoded += 1
            }
            arrivals.push(Arrival(tile: tile, result: .success(pixels)))
        case .failure(let error as WorkSchedulerError):
            state.withLock {
                $0.inFlight.remove(tile)
                if error == .cancelled { $0.counters.cancelled += 1 }
            }
            return  // dropped before it ran: nobody wants it now
        case .failure(let error):
            let failure = (error as? TileLoadFailure) ?? TileLoadFailure(reason: String(describing: error))
            state.withLock {
                $0.inFlight.remove(tile)
                $0.failures[tile] = failure
                $0.counters.failed += 1
            }
            arrivals.push(Arrival(tile: tile, result: .failure(failure)))
        }
        onArrival()
    }
}
