/// Which version of an item's pixels: decoded for the cell, a quarter of that while the strip moves, or
/// the whole image unscaled (listing 14.2 scales nothing on the worker).
package enum ImageVariant: Int, Hashable, Sendable, CaseIterable {
    /// Fitted to the cell's pixel size: what a resting strip shows.
    case cell
    /// The whole image, not scaled on the worker.
    case original
    /// A quarter of the cell's size per side: cheap to decode from JPEG (1/8 scaled) and to upload.
    case preview

    /// How many times smaller than the cell size this variant is decoded.
    package var reduction: Int { self == .preview ? 4 : 1 }
}

/// One load a strategy wants this frame: lower priority numbers run first.
package struct LoadRequest: Hashable, Sendable {
    package var index: Int
    package var variant: ImageVariant
    package var priority: Int

    package init(index: Int, variant: ImageVariant, priority: Int) {
        self.index = index
        self.variant = variant
        self.priority = priority
    }
}

/// What happens to decoded images once their cell has gone.
package struct CachePolicy: Sendable, Equatable {
    /// Whether decoded images are kept at all; without, a cell that comes back decodes again and every
    /// image reaches its cell only as the pipeline delivers it.
    package var keepsImages: Bool
    /// Whether the cache evicts what is farthest from the visible centre first; otherwise what was used
    /// longest ago (the cost cache's own order).
    package var evictsFarthestFromCentre: Bool

    package init(keepsImages: Bool, evictsFarthestFromCentre: Bool) {
        self.keepsImages = keepsImages
        self.evictsFarthestFromCentre = evictsFarthestFromCentre
    }

    /// The cost cache, farthest from the visible centre out first.
    package static let farthestFromCentre = CachePolicy(keepsImages: true, evictsFarthestFromCentre: true)
}

/// What a strategy sees of the strip each frame.
package struct StrategyFrame: Sendable {
    package var now: Duration
    package var visible: Range<Int>
    package var itemCount: Int
    package var layout: StripLayout
    package var offset: Double
    /// Points per second; positive moves towards later items.
    package var velocity: Double
    package var isDragging: Bool
    package var isDecelerating: Bool
    /// Dragging, decelerating, bouncing or animating.
    package var isMoving: Bool
    /// Where a fling in progress will come to rest (the current offset when nothing is moving).
    package var projectedRestingOffset: Double
    /// +1 towards later items, -1 towards earlier ones: the last direction the strip moved.
    package var direction: Int
    /// The scroll view delegate events of this frame.
    package var events: [ScrollEvent]
    /// For strategies that plan (`plansWithItemLoads`), while a fling decelerates: what is known of each
    /// item between the visible ones and the resting screen. Empty otherwise.
    package var itemLoads: [Int: ItemLoad] = [:]

    package init(now: Duration, visible: Range<Int>, itemCount: Int, layout: StripLayout, offset: Double,
                velocity: Double, isDragging: Bool, isDecelerating: Bool, isMoving: Bool,
                projectedRestingOffset: Double, direction: Int, events: [ScrollEvent]) {
        self.now = now; self.visible = visible; self.itemCount = itemCount; self.layout = layout
        self.offset = offset; self.velocity = velocity; self.isDragging = isDragging
        self.isDecelerating = isDecelerating; self.isMoving = isMoving
        self.projectedRestingOffset = projectedRestingOffset; self.direction = direction; self.events = events
    }
}

/// A way of feeding a scrolling strip with images: our adaptive one, or one of the Core Animation book's
/// (and LazyTableImages'), which TesseraExperiment holds. The carousel asks its strategy, every frame,
/// what to load and what a cell may show, and the view how to pace uploads; everything else (cells,
/// tags, cache, workers, uploads) is shared.
package protocol LoadingStrategy: AnyObject {
    /// The name used on the command line and in reports.
    var name: String { get }
    /// How the loads this strategy asks for start: on the pipeline's workers unless it says otherwise.
    var loadStarter: any LoadStarting { get }
    var cachePolicy: CachePolicy { get }
    /// Whether an image found in the cache fades in like a new arrival (CATiledLayer fades every tile
    /// it draws); otherwise cached images appear at once.
    var fadesCachedImages: Bool { get }
    /// The variants a visible cell may show, best first; a cell upgrades when a better one is at hand.
    func acceptableVariants(isMoving: Bool) -> [ImageVariant]
    /// Everything this frame wants loaded, most urgent first. Work for anything not listed is dropped
    /// before it starts.
    func requests(for frame: StrategyFrame) -> [LoadRequest]
    /// How much of a frame the view may spend copying decoded images into textures.
    var uploadPacing: any UploadPacing { get }
    /// Whether this frame's `StrategyFrame.itemLoads` should be filled in (a cache lookup and a cost
    /// estimate per item on the fling's way, so only when the strategy will plan with them).
    func plansWithItemLoads(_ frame: StrategyFrame) -> Bool
    /// Whether decodes already running for items no longer requested are asked to stop (PNG and WebP
    /// stop part way, JPEG only before it starts), freeing their worker. The book's strategies let them
    /// finish, as UIKit's operation queues did.
    var cancelsRunningWork: Bool { get }
}

extension LoadingStrategy {
    package var loadStarter: any LoadStarting { QueuedLoads() }

    package var fadesCachedImages: Bool { false }

    package func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.cell] }

    package func plansWithItemLoads(_ frame: StrategyFrame) -> Bool { false }

    package var cancelsRunningWork: Bool { false }
}

/// Visible items from the centre outwards, so the middle of the screen fills first.
package func centreOutwards(_ visible: Range<Int>) -> [Int] {
    guard !visible.isEmpty else { return [] }
    let centre = Double(visible.lowerBound + visible.upperBound - 1) / 2
    return visible.sorted { abs(Double($0) - centre) < abs(Double($1) - centre) }
}
