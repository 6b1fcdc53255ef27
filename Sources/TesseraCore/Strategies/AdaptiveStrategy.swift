import Foundation

/// Ours: what the book and LazyTableImages each do in part, driven by the scroll physics.
/// - The preload window leads in the direction of travel by as far as the strip will move in
///   `AdaptiveTuning.leadSeconds` (Texture's leading/trailing ranges, scaled by velocity), at least
///   `base.ahead` columns.
/// - While a fling decelerates, its resting offset is already known (v0/1000 * d/(1-d)): once the stop is
///   a second away, the screen it will stop on is loaded at full resolution right after what is visible,
///   then the screen and a half before it (what the slow tail shows). Not earlier: outside a planned fling
///   running decodes are not stopped, and decodes needed in seconds must not hold up cells on screen now.
/// - When the strip supplies `itemLoads` (the carousel does), a fling (or a drag fast enough to become
///   one) is instead planned over its whole trajectory by `FlingPlanner`; the two rules above remain for
///   callers that do not.
/// - Cells that will be gone before a decode could land (faster than a screen per 40 ms) are not loaded.
/// - Workers with nothing else to do (at rest, in a fling's slow tail) decode the next three screens in
///   the direction of travel and one behind, queued after everything else: the first screens of the next
///   fling pass too fast for any decode to land in time, so they are decoded before it starts.
/// - Previews (a quarter size per side) for fast motion are available but off by default (`AdaptiveTuning.fastScreensPerSecond`).
/// - Priorities are recomputed every frame and everything no longer listed is dropped before it starts.
/// - The cache evicts what is farthest from the visible centre, not what was used longest ago.
/// - Uploads fill what is left of an 8 ms frame (`FillFramePacing`).
package final class AdaptiveStrategy: LoadingStrategy {
    package let name = "adaptive"
    package let cachePolicy = CachePolicy.farthestFromCentre
    package let base: PreloadPolicy
    /// Its figures: how far it looks ahead, when it plans, how long a frame's uploads may take.
    package var tuning: AdaptiveTuning

    package var uploadPacing: any UploadPacing { FillFramePacing(milliseconds: tuning.frameTargetMs) }
    /// While a fling decelerates, decodes are ordered by `FlingPlanner` over the whole known trajectory
    /// (when the strip supplies `itemLoads`) instead of by steps 1 and 2 below: the fast part of a fling
    /// passes cells faster than the workers can decode them, and every decode started for a cell that is
    /// gone before it lands holds up the slow tail and the resting screen, which the user sees longest.
    package var planner: FlingPlanner?

    /// Only a fling, or a drag fast enough to become one, is planned, and only when it could pass cells
    /// faster than the workers decode them (`passesFasterThanDecoded`, judged before this path's costs are
    /// known: at the mean decode time of the last path gathered, with a margin of two). Gathering the
    /// per-item costs (a cache lookup, a queue lookup and an estimate per item on the way) is most of a
    /// frame's strategy work, wasted on a slow drag's coast for a plan the planner would not make.
    package func plansWithItemLoads(_ frame: StrategyFrame) -> Bool {
        guard let planner, isFlinging(frame) || isThrowing(frame) else { return false }
        let meanSeconds = lastPathMeanDecodeSeconds ?? planner.defaultDecodeSeconds
        return 2 * cellsPerSecond(abs(frame.velocity), frame.layout) > planningThreshold(meanDecodeSeconds: meanSeconds, planner)
    }

    /// Cells a second above which the planner takes over: `AdaptiveTuning.planAboveThroughput` times what the workers
    /// decode at `meanDecodeSeconds` each.
    private func planningThreshold(meanDecodeSeconds: Double, _ planner: FlingPlanner) -> Double {
        tuning.planAboveThroughput * Double(planner.workers) / max(1e-3, meanDecodeSeconds)
    }

    /// The mean decode time of the items on the last path whose costs were gathered.
    private var lastPathMeanDecodeSeconds: Double?

    private func cellsPerSecond(_ speed: Double, _ layout: StripLayout) -> Double {
        speed / max(1, layout.columnWidth) * Double(max(1, layout.rows))
    }

    private func isFlinging(_ frame: StrategyFrame) -> Bool { frame.isDecelerating && !frame.isDragging }

    private func isThrowing(_ frame: StrategyFrame) -> Bool {
        frame.isDragging && abs(frame.velocity) >= tuning.planWhileDraggingScreensPerSecond * max(1, frame.layout.viewportSize.width)
    }

    /// Whether this frame's requests may stop running work: only while the planner plans. Outside a fling
    /// a cell that left the window mostly comes back (the strip rests or turns), and a stopped decode
    /// would have to start over.
    package private(set) var cancelsRunningWork = false

    /// - Parameters:
    ///   - decodeWorkers: the strip's decode workers, which the fling planner spreads decodes over.
    ///   - tuning: its figures; the defaults are the ones docs/EXPERIMENT.md measures.
    package init(base: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1), decodeWorkers: Int,
                tuning: AdaptiveTuning = AdaptiveTuning()) {
        self.base = base
        self.tuning = tuning
        planner = FlingPlanner(workers: decodeWorkers)
    }

    package func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.cell, .preview] }

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        cancelsRunningWork = false
        let layout = frame.layout
        let rows = max(1, layout.rows)
        let viewport = max(1, layout.viewportSize.width)
        let speed = abs(frame.velocity)
        let direction = frame.velocity > 1 ? 1 : (frame.velocity < -1 ? -1 : (frame.direction >= 0 ? 1 : -1))
        let tuning = self.tuning
        let fast = frame.isMoving && speed > tuning.fastScreensPerSecond * viewport
        // Some 25 requests a frame with the lookahead: sized once rather than grown each frame.
        var requests: [LoadRequest] = []
        requests.reserveCapacity(64)
        listed.removeAll(count: frame.itemCount)
        func add(_ index: Int, _ variant: ImageVariant, _ priority: Int) {
            guard index >= 0, index < frame.itemCount, listed.insert(index) else { return }
            requests.append(LoadRequest(index: index, variant: variant, priority: priority))
        }
        func items(inColumn column: Int) -> Range<Int> {
            let start = column * rows
            return start < frame.itemCount && column >= 0 ? start..<min(frame.itemCount, start + rows) : 0..<0
        }

        if var planner, isFlinging(frame) || isThrowing(frame), !frame.itemLoads.isEmpty,
           passesFasterThanDecoded(speed: speed, frame: frame, planner: planner) {
            planner.reclaimsRunning = tuning.reclaimsRunningWork
            cancelsRunningWork = tuning.reclaimsRunningWork
            let candidates = planner.candidates(layout: layout, itemCount: frame.itemCount, offset: frame.offset,
                                                restingOffset: frame.projectedRestingOffset,
                                                rate: ScrollModel.DecelerationRate.normal.rawValue, loads: frame.itemLoads)
            for (rank, index) in planner.plan(candidates).enumerated() { add(index, .cell, rank) }
            return requests
        }
        // 1. What is on screen now, unless it will be gone before a decode could land: full size at rest
        //    or moving slowly, a preview (1/8-scale JPEG decoding) when it will be gone soon.
        let secondsOnScreen = speed > 1 ? viewport / speed : .infinity
        if secondsOnScreen >= tuning.minimumSecondsOnScreen {
            for index in centreOutwards(frame.visible) { add(index, fast ? .preview : .cell, 0) }
        }
        // 2. While a fling decelerates its resting offset is known: the screen it stops on at full size
        //    (needed in seconds, but needed for long), the next column it reaches, then the stretch its
        //    slow tail shows on the way in, nearest the resting point first.
        if frame.isDecelerating && !frame.isDragging && secondsToRest(speed) <= tuning.restingLeadSeconds {
            // Running decodes are not stopped here, so asking earlier would hold the workers up with work
            // the user sees seconds later while new cells wait on screen.
            let restingOffset = frame.projectedRestingOffset
            let resting = layout.visibleRange(offset: restingOffset)
            for index in centreOutwards(resting) { add(index, .cell, 1) }
            let approachOffset = restingOffset - Double(direction) * tuning.approachScreens * viewport
            let approach = direction > 0
                ? layout.visibleRange(offset: max(frame.offset, approachOffset)).lowerBound..<resting.lowerBound
                : resting.upperBound..<layout.visibleRange(offset: min(frame.offset, approachOffset)).upperBound
            let ordered = direction > 0 ? Array(approach.reversed()) : Array(approach)
            for (step, index) in ordered.enumerated() { add(index, .cell, 2 + step / rows) }
        } else if let edge = direction > 0 ? frame.visible.last : frame.visible.first {
            // 3. Otherwise the leading window grows with speed; the trailing one stays small.
            let leadPoints = min(speed * tuning.leadSeconds, tuning.maxLeadScreens * viewport)
            let leadColumns = max(base.ahead, Int((leadPoints / layout.columnWidth).rounded(.up)))
            for step in 1...max(1, leadColumns) {
                for index in items(inColumn: edge / rows + step * direction) { add(index, fast ? .preview : .cell, 1 + step) }
            }
            if let trailingEdge = direction > 0 ? frame.visible.first : frame.visible.last, base.behind > 0 {
                for step in 1...base.behind {
                    for index in items(inColumn: trailingEdge / rows - step * direction) { add(index, .cell, 2 + step) }
                }
            }
        }
        // 4. Whatever the workers have left: while the strip is slow enough for the steps above to keep up
        //    (at rest, the slow tail of a fling, a slow drag), the screens beyond, in the direction of
        //    travel. Queued last and dropped the moment anything above needs the workers, this costs
        //    nothing on screen, and the next fling starts over cells that are already decoded: its first
        //    screens pass too fast for any decode to land in time.
        if speed < tuning.idleSpeedScreensPerSecond * viewport {
            let anchor = frame.isDecelerating ? layout.visibleRange(offset: frame.projectedRestingOffset) : frame.visible
            let columnsPerScreen = max(1, Int((viewport / layout.columnWidth).rounded(.up)))
            if let edge = direction > 0 ? anchor.last : anchor.first {
                for step in 1...max(1, Int(tuning.idleLeadScreens * Double(columnsPerScreen))) {
                    for index in items(inColumn: edge / rows + step * direction) { add(index, .cell, Self.idlePriority + step) }
                }
            }
            if let trailingEdge = direction > 0 ? anchor.first : anchor.last, tuning.idleTrailScreens > 0 {
                for step in 1...max(1, Int(tuning.idleTrailScreens * Double(columnsPerScreen))) {
                    for index in items(inColumn: trailingEdge / rows - step * direction) {
                        add(index, .cell, Self.idlePriority + 2 * step)
                    }
                }
            }
        }
        return requests.sorted { $0.priority < $1.priority }
    }

    /// The items this frame's requests list so far, so that each is listed once, at its most urgent.
    private var listed = IndexMarks()

    /// Priorities from here on are the idle lookahead's (step 4), after everything the strip needs now.
    static let idlePriority = 1_000

    /// Whether cells pass by faster than `planner.workers` can decode them at the decode times known so far.
    func passesFasterThanDecoded(speed: Double, frame: StrategyFrame, planner: FlingPlanner) -> Bool {
        let known = frame.itemLoads.values.compactMap(\.decodeSeconds)
        let meanSeconds = known.isEmpty ? planner.defaultDecodeSeconds : known.reduce(0, +) / Double(known.count)
        if !known.isEmpty { lastPathMeanDecodeSeconds = max(1e-3, meanSeconds) }
        return cellsPerSecond(speed, frame.layout) > planningThreshold(meanDecodeSeconds: meanSeconds, planner)
    }

    /// How long a deceleration at `speed` still runs before it rests (UIScrollView's decay, to 20 pt/s).
    func secondsToRest(_ speed: Double) -> Double {
        guard speed > 20 else { return 0 }
        return Foundation.log(speed / 20) / (-1000 * Foundation.log(ScrollModel.DecelerationRate.normal.rawValue))
    }
}
