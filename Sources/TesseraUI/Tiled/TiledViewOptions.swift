import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraTiling

/// How the tiled view behaves; the command line fills it in.
package struct TiledViewOptions: Sendable {
    /// A newly arrived tile's fade-in (CATiledLayer's 0.25 s); `.none` disables it.
    package var fade = FadeTiming.default
    /// Bound on the evictable tile textures, in bytes (the pinned coarse levels come on top).
    package var cacheLimitBytes = 192 << 20
    /// A plain image with more pixels than this (or larger than a texture) is cut into a pyramid.
    package var pixelLimit = 100_000_000
    /// Bytes copied into textures per frame at most (one tile always goes through): 12 tiles of 256 px,
    /// a few milliseconds of copying even with the software renderer.
    package var uploadBudgetBytes = 3 << 20
    /// Of which tiles loaded ahead, not on screen yet, may use this much: a burst of preloaded tiles is
    /// spread over frames instead of making one frame slow.
    package var preloadUploadBudgetBytes = 1 << 20
    package var policy = TilePyramidPolicy()
    /// From the images' colour spaces to the display's (the host reads the display's profile); nil
    /// shows pixels as decoded.
    package var colour: ColourConversion? = .sRGB
    /// Where pyramids cut from large plain images are kept.
    package var pyramidCache = TilePyramidCache(root: TilePyramidCache.defaultRoot())
    /// Keeps Tessera's disk caches within their limit. When set, pyramids go in its tiles folder, and the
    /// one this view cuts or shows is leased from it, so no sweep removes it while the view is open.
    package var diskCache: DiskCacheJanitor? {
        didSet { if let diskCache { pyramidCache = TilePyramidCache(root: diskCache.tilesFolder) } }
    }
    /// Zoom limit in device pixels per pixel of the picture at its own size (levelsOfDetailBias 2); an SVG
    /// is drawn up to this far past its own size, so it is sharp up to the limit.
    package var maxDeviceScale = 4.0
    /// Around the viewport, this fraction of a screen (at least one tile) is loaded after the visible
    /// tiles, so a drag or fling starting from rest finds its first screens held.
    package var preloadMarginScreens = 0.5
    /// While the view moves, tiles are also loaded where it will be this much later (at most 1.5 screens
    /// ahead), so they are held, and appear at once, by the time they come into view.
    package var preloadLookahead: Duration = .milliseconds(500)
    /// Turns a plain image further than its own orientation: the turns the strip keeps for the session of
    /// images whose format stores none. Pyramids (Deep Zoom, tile folders, images cut into tiles) are shown
    /// as they are.
    package var turn = ImageOrientation.up
    /// Which image of a file of several is shown (counted from 0: a multi-page TIFF's page, a HEIF
    /// collection's image); a later one is decoded whole.
    package var page = 0
    /// Where the view opens instead of fitted: a zoom (1 is 100 %) about a point given as fractions of the
    /// image's width and height, so a measured run opens where it measures.
    package var openAt: (pictureScale: Double, x: Double, y: Double)?
    /// Runs on the cutting thread before each few rows the tile cutter reads: tests hold the cutter there
    /// to look at the view in the middle of a cut.
    var cutStep: (@Sendable () -> Void)?
    /// Where images and tiles are decoded.
    package var decoding: any DecodingService = .inProcess
    /// When tiles of a remote pyramid that failed are tried again by themselves.
    package var tileRetry = TileRetryPolicy()
    /// What fetches a remote pyramid's description and tiles; nil is the process's shared fetcher.
    var fetcher: (any TileFetching)?
    /// The threads a remote pyramid's tiles are fetched on; nil is the process's shared ones.
    var fetchExecutor: WorkExecutor?

    /// The threads every view fetches remote tiles on: as many as a host takes connections, since a fetch
    /// only waits (its tile is decoded by the view's executor). Started when a remote pyramid first opens.
    static let sharedFetchExecutor = WorkExecutor(.threads(HTTPFetcher.Limits().perHostConnections), name: "tessera.fetch")

    package init() {}
}

/// What the tiled view asks its host to do.
package enum TiledViewAction: Equatable, Sendable {
    /// Leave the view (back to the strip; quits the standalone view).
    case close
    /// q: quit the application.
    case quit
    /// The host may show the neighbouring image.
    case showPrevious, showNext
}
