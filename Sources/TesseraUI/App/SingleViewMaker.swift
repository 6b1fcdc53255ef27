import TesseraCore
import TesseraImaging
import TesseraRemote
import TesseraSDL

/// Opens an item of the strip in the single view (Enter, the slideshow's next image): one options value
/// for every view the run opens, the viewer's (`ViewerOptions.singleViewOptions`), with the item's own
/// turn. Main thread only.
final class SingleViewMaker {
    let host: WindowHost
    /// The process's executor, where each view's opening and tiles run on lanes of their own.
    let executor: WorkExecutor
    let options: TiledViewOptions
    /// Downloads, whose items open from their cached copies; nil when every item is a file.
    let remote: RemoteImageStore?
    /// Items that open as a remote pyramid: its description's URL by the item's (a manifest's canvases).
    let remotePyramids: [String: String]
    /// The opening of the image named at start, begun before the renderer existed; the first view of that
    /// path takes it.
    private var earlyOpening: TiledOpening?

    init(host: WindowHost, executor: WorkExecutor, options: TiledViewOptions, remote: RemoteImageStore?,
         remotePyramids: [String: String] = [:], earlyOpening: TiledOpening?) {
        self.host = host
        self.executor = executor
        self.options = options
        self.remote = remote
        self.remotePyramids = remotePyramids
        self.earlyOpening = earlyOpening
    }

    /// A zoomable view of `item`, its work at `rank`, fading in as the strip's cells do, starting from
    /// `preview` (the strip's cell image) while its tiles load, heard by `observer` when measured; nil for a
    /// download not here yet. `viewport` (points; the window's by default, a compare pane's) is what it
    /// first shows: the tiles of its opening view are read with the base level, a JPEG's level in one decode.
    func makeView(of item: CarouselItem, page: Int = 0, rank: WorkRank, fade: FadeTiming, preview: PixelBuffer?,
                  pixelScale: Double, viewport: Size? = nil, now: Duration, observer: (any RunObserver)?) -> TiledImageView? {
        var path = item.path
        if let pyramid = remotePyramids[item.path] {
            path = pyramid
        } else if item.isRemote {
            guard case .ready(let localPath, _)? = remote?.state(of: item.path) else { return nil }
            path = localPath
        }
        var tiled = options
        tiled.fade = fade
        tiled.turn = ImageOrientation(rawValue: item.sessionOrientation) ?? .up
        tiled.page = page
        // The opening begun at start is of the file's first image.
        var opening = page == 0 ? earlyOpening : nil
        if page == 0 { earlyOpening = nil }
        if opening?.path != path {
            let window = host.viewportPoints
            let waker = host.system.waker
            opening = TiledOpening.start(path: path, options: tiled, executor: executor, maxTextureSize: host.renderer.maxTextureSize,
                                         viewport: viewport ?? Size(width: window.width, height: window.height),
                                         pixelScale: pixelScale, wake: { waker.wake() }, rank: rank)
        }
        return TiledImageView(path: path, displayName: item.displayName, renderer: host.renderer, text: host.text,
                              assets: host.assets, options: tiled, executor: executor, rank: rank,
                              pixelScale: pixelScale, now: now,
                              preview: preview, waker: host.system.waker, observer: observer, opening: opening)
    }
}
