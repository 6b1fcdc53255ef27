import Foundation

/// Ours: what the book and LazyTableImages each do in part, driven by the scroll physics.
/// - The preload window leads in the direction of travel by as far as the strip will move in
///   `leadSeconds` (Texture's leading/trailing ranges, scaled by velocity), at least `base.ahead` columns.
/// - While a fling decelerates, its resting offset is already known (v0/1000 * d/(1-d)), so the screen
///   it will stop on is loaded at full resolution first, before anything it merely flies past.
/// - Moving fast, what flies past gets the cheap preview (a quarter size per side); at rest, full size.
/// - Priorities are recomputed every frame and everything no longer listed is dropped before it starts.
/// - The cache evicts what is farthest from the visible centre, not what was used longest ago.
/// - The upload budget is what is left of an 8 ms frame at the measured upload speed.
public final class AdaptiveStrategy: LoadingStrategy {
    public let name = "adaptive"
    public let execution = DecodeExecution.workers
    public let cachePolicy = CachePolicy.farthestFromCentre
    public let base: PreloadPolicy
    /// Load what the strip reaches within this time at its current speed.
    public var leadSeconds = 0.5
    /// The leading window never reaches further than this many screens.
    public var maxLeadScreens = 3.0
    /// Above this speed (screens per second) passing items get previews instead of full decodes.
    public var fastScreensPerSecond = 2.0
    /// The frame time uploads should leave room within.
    public var frameTargetMs = 8.0

    public init(base: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1)) { self.base = base }

    public func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.cell, .preview] }

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let layout = frame.layout
        let rows = max(1, layout.rows)
        let viewport = max(1, layout.viewportSize.width)
        let speed = abs(frame.velocity)
        let direction = frame.velocity > 1 ? 1 : (frame.velocity < -1 ? -1 : (frame.direction >= 0 ? 1 : -1))
        let fast = frame.isMoving && speed > fastScreensPerSecond * viewport
        var requests: [LoadRequest] = []
        var requested = Set<Int>()
        func add(_ index: Int, _ variant: ImageVariant, _ priority: Int) {
            guard index >= 0, index < frame.itemCount, requested.insert(index).inserted else { return }
            requests.append(LoadRequest(index: index, variant: variant, priority: priority))
        }
        func items(inColumn column: Int) -> Range<Int> {
            let start = column * rows
            return start < frame.itemCount && column >= 0 ? start..<min(frame.itemCount, start + rows) : 0..<0
        }

        // 1. Where a fling will stop: full resolution there before anything else.
        if frame.isDecelerating && !frame.isDragging {
            let resting = layout.visibleRange(offset: frame.projectedRestingOffset)
            for index in centreOutwards(resting) { add(index, .cell, 0) }
            if let last = direction > 0 ? resting.last : resting.first {
                for step in 1...max(1, base.ahead) {
                    for index in items(inColumn: last / rows + step * direction) { add(index, .cell, 3) }
                }
            }
        }
        // 2. What is on screen now: full size at rest or moving slowly, a preview when it will be gone soon.
        for index in centreOutwards(frame.visible) { add(index, fast ? .preview : .cell, fast ? 1 : 0) }

        // 3. The leading window grows with speed; the trailing one stays small.
        guard let edge = direction > 0 ? frame.visible.last : frame.visible.first else { return requests }
        let leadPoints = min(speed * leadSeconds, maxLeadScreens * viewport)
        let leadColumns = max(base.ahead, Int((leadPoints / layout.columnWidth).rounded(.up)))
        for step in 1...max(1, leadColumns) {
            for index in items(inColumn: edge / rows + step * direction) { add(index, fast ? .preview : .cell, 1 + step) }
        }
        if let trailingEdge = direction > 0 ? frame.visible.first : frame.visible.last, base.behind > 0 {
            for step in 1...base.behind {
                for index in items(inColumn: trailingEdge / rows - step * direction) { add(index, .cell, 2 + step) }
            }
        }
        return requests.sorted { $0.priority < $1.priority }
    }

    public func uploadBudget(defaultBytes: Int, frameElapsedMs: Double, bytesPerMs: Double) -> Int {
        let leftMs = max(0, frameTargetMs - frameElapsedMs)
        return Int(leftMs * bytesPerMs * 0.8)
    }
}
