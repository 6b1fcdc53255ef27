import TesseraCore

/// What `RunRecorder` measured of one zoomable view, from its opening: when it first showed no hole and
/// when it was first sharp, the frames with a hole after that, and the fades seen on screen.
struct TiledViewTally: Sendable {
    /// Opening to the first frame with no hole (everything visible covered by a tile of some level, the
    /// preview or overview, or a missing-tile mark), ms.
    var firstFrameMs: Double?
    /// Opening to the first frame in which every visible tile is held at the level the zoom asks for, ms.
    var sharpMs: Double?
    /// Frames after the first complete one that still showed a hole (panning faster than the coarse
    /// levels could cover, or tiles missing with nothing coarser held).
    var holeFrames = 0
    /// Arrival to first full-opacity frame of each tile that faded in on screen, ms.
    var fadeSamplesMs: [Double] = []
    /// Tiles fading in on screen, by when they started.
    private var fading: [TileID: Duration] = [:]

    mutating func frameDrawn(complete: Bool, sharp: Bool, sinceOpening: Duration) {
        let ms = sinceOpening.seconds * 1000
        if complete, firstFrameMs == nil { firstFrameMs = ms }
        if !complete, firstFrameMs != nil { holeFrames += 1 }
        if sharp, sharpMs == nil { sharpMs = ms }
    }

    mutating func fadeBegan(_ tile: TileID, at start: Duration) { fading[tile] = start }

    mutating func shownOpaque(_ tile: TileID, at now: Duration) {
        if let start = fading.removeValue(forKey: tile) { fadeSamplesMs.append((now - start).seconds * 1000) }
    }

    /// The median fade seen, nil when no tile faded in on screen.
    var fadeMsObserved: Double? { fadeSamplesMs.isEmpty ? nil : SampleSummary(samples: fadeSamplesMs).p50 }
}
