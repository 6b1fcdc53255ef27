import TesseraCore

/// Listing 14.1: load on the main thread when a cell appears. The frame that shows a new cell waits for
/// its decode. The only strategy with main-thread decodes.
public final class SyncStrategy: BookStrategy {
    public let name = "sync"
    public let loadStarter: any LoadStarting = MainThreadLoads()
    public let cachePolicy = CachePolicy.none

    public init() {}

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        frame.visible.map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.2: decode on a background queue and check the cell's index tag, but scale nothing on the
/// worker: the main thread uploads the whole image and the renderer shrinks it at every draw.
public final class AsyncStrategy: BookStrategy {
    public let name = "async"
    public let cachePolicy = CachePolicy.none

    public init() {}

    public func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.original] }

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .original, priority: 0) }
    }
}

/// Listing 14.3: decode in the background and redraw at the cell's pixel size there, so the main thread
/// only uploads a cell-sized image. No cache: a cell that scrolls back decodes again.
public final class PredrawStrategy: BookStrategy {
    public let name = "predraw"
    public let cachePolicy = CachePolicy.none

    public init() {}

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.4: every cell is a CATiledLayer with one cell-sized tile, drawn on several background
/// threads and faded in over fadeDuration each time the layer draws it. The layer keeps its tile only
/// while it lives, and a reused cell's layer starts empty, so nothing is cached across reuse and every
/// appearance fades.
public final class TiledStrategy: BookStrategy {
    public let name = "tiled"
    public let cachePolicy = CachePolicy.none
    public let fadesCachedImages = true

    public init() {}

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.5: the cost cache with an in-flight marker, and the neighbours (index ± 1) preloaded.
public final class CacheStrategy: BookStrategy {
    public let name = "cache"
    public let cachePolicy = CachePolicy.leastRecentlyUsed
    public let preload: PreloadPolicy

    public init(preload: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1)) { self.preload = preload }

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let window = PreloadWindow(visible: frame.visible, itemCount: frame.itemCount, rows: frame.layout.rows,
                                   direction: frame.direction, policy: preload)
        return window.items.map { LoadRequest(index: $0.index, variant: .cell, priority: $0.priority) }
    }
}

/// Apple's LazyTableImages: start no load while the user drags or the list decelerates; when scrolling
/// ends (didEndDragging without deceleration, or didEndDecelerating) load the visible rows. Loaded images
/// stay with their records (here: the cache).
public final class LazyStrategy: BookStrategy {
    public let name = "lazy"
    public let cachePolicy = CachePolicy.leastRecentlyUsed

    public init() {}

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        guard !frame.isMoving else { return [] }
        return centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Resolution swapping (book 14.1): a small version while the strip moves, full resolution for what is
/// on screen once scrolling ends. The swap is in what is asked for (`requests`); what a cell may show is
/// the same at rest and moving: the full image when at hand, else the preview, which beats a placeholder
/// while the full image decodes.
public final class SwapStrategy: BookStrategy {
    public let name = "swap"
    public let cachePolicy = CachePolicy.leastRecentlyUsed
    public let preload: PreloadPolicy

    public init(preload: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1)) { self.preload = preload }

    public func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.cell, .preview] }

    public func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let variant: ImageVariant = frame.isMoving ? .preview : .cell
        let window = PreloadWindow(visible: frame.visible, itemCount: frame.itemCount, rows: frame.layout.rows,
                                   direction: frame.direction, policy: preload)
        return window.items.map { LoadRequest(index: $0.index, variant: variant, priority: $0.priority) }
    }
}
