import TesseraCore

/// Listing 14.1: load on the main thread when a cell appears. The frame that shows a new cell waits for
/// its decode. The only strategy with main-thread decodes.
package final class SyncStrategy: BookStrategy {
    package let name = "sync"
    package let loadStarter: any LoadStarting = MainThreadLoads()
    package let cachePolicy = CachePolicy.none

    package init() {}

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        frame.visible.map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.2: decode on a background queue and check the cell's index tag, but scale nothing on the
/// worker: the main thread uploads the whole image and the renderer shrinks it at every draw.
package final class AsyncStrategy: BookStrategy {
    package let name = "async"
    package let cachePolicy = CachePolicy.none

    package init() {}

    package func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.original] }

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .original, priority: 0) }
    }
}

/// Listing 14.3: decode in the background and redraw at the cell's pixel size there, so the main thread
/// only uploads a cell-sized image. No cache: a cell that scrolls back decodes again.
package final class PredrawStrategy: BookStrategy {
    package let name = "predraw"
    package let cachePolicy = CachePolicy.none

    package init() {}

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.4: every cell is a CATiledLayer with one cell-sized tile, drawn on several background
/// threads and faded in over fadeDuration each time the layer draws it. The layer keeps its tile only
/// while it lives, and a reused cell's layer starts empty, so nothing is cached across reuse and every
/// appearance fades.
package final class TiledStrategy: BookStrategy {
    package let name = "tiled"
    package let cachePolicy = CachePolicy.none
    package let fadesCachedImages = true

    package init() {}

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Listing 14.5: the cost cache with an in-flight marker, and the neighbours (index ± 1) preloaded.
package final class CacheStrategy: BookStrategy {
    package let name = "cache"
    package let cachePolicy = CachePolicy.leastRecentlyUsed
    package let preload: PreloadPolicy

    package init(preload: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1)) { self.preload = preload }

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let window = PreloadWindow(visible: frame.visible, itemCount: frame.itemCount, rows: frame.layout.rows,
                                   direction: frame.direction, policy: preload)
        return window.items.map { LoadRequest(index: $0.index, variant: .cell, priority: $0.priority) }
    }
}

/// Apple's LazyTableImages: start no load while the user drags or the list decelerates; when scrolling
/// ends (didEndDragging without deceleration, or didEndDecelerating) load the visible rows. Loaded images
/// stay with their records (here: the cache).
package final class LazyStrategy: BookStrategy {
    package let name = "lazy"
    package let cachePolicy = CachePolicy.leastRecentlyUsed

    package init() {}

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        guard !frame.isMoving else { return [] }
        return centreOutwards(frame.visible).map { LoadRequest(index: $0, variant: .cell, priority: 0) }
    }
}

/// Resolution swapping (book 14.1): a small version while the strip moves, full resolution for what is
/// on screen once scrolling ends. The swap is in what is asked for (`requests`); what a cell may show is
/// the same at rest and moving: the full image when at hand, else the preview, which beats a placeholder
/// while the full image decodes.
package final class SwapStrategy: BookStrategy {
    package let name = "swap"
    package let cachePolicy = CachePolicy.leastRecentlyUsed
    package let preload: PreloadPolicy

    package init(preload: PreloadPolicy = PreloadPolicy(ahead: 1, behind: 1)) { self.preload = preload }

    package func acceptableVariants(isMoving: Bool) -> [ImageVariant] { [.cell, .preview] }

    package func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let variant: ImageVariant = frame.isMoving ? .preview : .cell
        let window = PreloadWindow(visible: frame.visible, itemCount: frame.itemCount, rows: frame.layout.rows,
                                   direction: frame.direction, policy: preload)
        return window.items.map { LoadRequest(index: $0.index, variant: variant, priority: $0.priority) }
    }
}
