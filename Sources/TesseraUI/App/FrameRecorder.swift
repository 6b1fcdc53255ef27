/// What `--frame-times` keeps of each of the strip viewer's frames besides its start and duration (which
/// the frame loop measures): the placeholders it drew and where its main-thread time went.
struct FrameRecorder {
    /// Placeholder cell-frames counted so far, after each frame.
    private var placeholdersAfterFrame: [Int] = []
    private var phasesOfFrame: [FramePhases] = []

    mutating func record(_ phases: FramePhases, placeholderCellFrames: Int) {
        phasesOfFrame.append(phases)
        placeholdersAfterFrame.append(placeholderCellFrames)
    }

    /// One row per frame: seconds since the start, frame ms, placeholders drawn, then the milliseconds of
    /// the frame's update, uploads and draw calls.
    func timeline(_ result: FrameLoop.Result) -> [[Double]] {
        zip(result.frameStarts, result.frameSamples).enumerated().map { i, sample in
            let before = i > 0 && i - 1 < placeholdersAfterFrame.count ? placeholdersAfterFrame[i - 1] : 0
            let after = i < placeholdersAfterFrame.count ? placeholdersAfterFrame[i] : before
            let phases = i < phasesOfFrame.count ? phasesOfFrame[i] : FramePhases()
            return [sample.0, sample.1, Double(after - before), phases.updateMs, phases.uploadMs, phases.drawMs]
        }
    }
}

/// Where one frame's main-thread time went before SDL drew it (`--frame-times`): what the frame time is
/// made of, so a slow frame can be told apart as ours or SDL's. The draw calls only queue work for SDL's
/// software renderer, which does the copies and fills when the frame is presented: that and the event poll
/// are the frame time these leave out.
struct FramePhases {
    var updateMs = 0.0
    var uploadMs = 0.0
    var drawMs = 0.0
}
