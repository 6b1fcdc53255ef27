import TesseraCore

/// What the tiled view measured, for `--report`.
public struct TiledViewMetrics: Sendable, Equatable {
    public var tiles = LoadCounters()
    /// Open to the first frame with no hole (everything visible covered by a tile of some level, the
    /// overview, or a missing-tile mark).
    public var firstFrameMs: Double?
    /// Open to the first frame in which every visible tile is held at the level the zoom asks for.
    public var sharpMs: Double?
    /// Arrival to first full-opacity frame of each tile that faded in on screen.
    public var fadeSamplesMs: [Double] = []
    /// Frames after the first complete one that still showed a hole somewhere (panning faster than the
    /// coarse levels could cover, or tiles missing with nothing coarser held).
    public var holeFrames = 0
    public var uploadBytes = 0
    public var evictions = 0
    public var peakTextureBytes = 0

    public init() {}

    /// The median observed fade, nil when no tile faded in.
    public var fadeMsObserved: Double? {
        fadeSamplesMs.isEmpty ? nil : SampleSummary(samples: fadeSamplesMs).p50
    }
}

extension RunReport {
    /// Adds the tiled view's figures (the optional fields, left out of the JSON when never set). A tile
    /// loaded on the main thread counts as a main-thread decode.
    public mutating func add(_ metrics: TiledViewMetrics) {
        tilesRequested = (tilesRequested ?? 0) + metrics.tiles.requested
        tilesDecoded = (tilesDecoded ?? 0) + metrics.tiles.succeeded
        tilesCancelled = (tilesCancelled ?? 0) + metrics.tiles.droppedQueued
        tilesFailed = (tilesFailed ?? 0) + metrics.tiles.failed
        mainThreadDecodes += metrics.tiles.mainThreadLoads
        if let value = metrics.firstFrameMs { firstFrameMs = firstFrameMs ?? value }
        if let value = metrics.sharpMs { sharpMs = sharpMs ?? value }
        if let value = metrics.fadeMsObserved { fadeMsObserved = fadeMsObserved ?? value }
        holeFrames = (holeFrames ?? 0) + metrics.holeFrames
    }

    /// The frames during which the view moved (dragged, flung, animated), from the loop's frame times and
    /// a moving flag per frame.
    mutating func addMovingFrames(samples: [Double], moving: [Bool]) {
        let during = zip(samples, moving).filter(\.1).map(\.0)
        if !during.isEmpty { movingFrameMs = SampleSummary(samples: during) }
    }
}
