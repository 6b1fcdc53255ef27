import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraSandbox

/// Everything the viewer needs from the command line.
package struct ViewerOptions: Sendable {
    /// The items to browse, when they are given rather than listed (`listing` nil).
    package var items: [CarouselItem]
    /// The items listed from what the user named (`tessera browse`): the listing runs on its own thread
    /// while the window and the renderer are made, and the first frame waits for it.
    package var listing: ItemListing?
    /// With a listing: watch the folders and files it was made from (their subfolders if it walked them).
    package var watchesListing = false
    /// The order the strip starts in (`--sort`), reversed with `reverse`.
    package var sort = StripOrder.name
    /// Which images the strip starts showing by their rating (`--min-rating`).
    package var ratingFilter = RatingFilter.all
    package var reverse = false
    /// The random order's seed: a new shuffle each run unless a test fixes it.
    package var shuffleSeed = UInt64.random(in: 0...UInt64.max)
    package var carousel = CarouselConfiguration()
    package var windowWidth = 1280
    package var windowHeight = 720
    /// Render with SDL's dummy video driver: no display needed.
    package var headless = false
    /// Stop after this many frames.
    package var frameLimit: Int?
    package var script: InputScript?
    package var screenshotPath: String?
    /// What `--report` asks of the run; nil measures nothing.
    package var report: ReportOptions?
    /// Decoded images kept: the strip's cells, and the single view's tile textures (the coarse levels it
    /// pins come on top).
    package var cacheLimitBytes = 256 << 20
    package var cacheCountLimit = 0
    /// Decoding threads, for the strip and the single view alike.
    package var workerCount = WorkScheduler<ImageKey, PixelBuffer>.defaultWorkerCount
    /// Estimated working memory the decodes running at once may hold together, the strip's and the single
    /// view's alike (see `DecodeMemoryBudget`): large photos decode one after another, small ones side by
    /// side.
    package var decodeMemoryBytes = 256 << 20
    /// Device pixels per point; nil asks the window (HiDPI). Headless runs may set 2 to test HiDPI.
    package var pixelScale: Double?
    package var uploadBudgetBytes = 6 << 20
    /// Images with more pixels than this are refused before decoding in the strip, and cut into a pyramid
    /// in the single view.
    package var pixelLimit = 100_000_000
    /// What is the single view's alone (its fade, where it opens, its tile policy); the settings it shares
    /// with the strip come from the fields above (see `singleViewOptions`).
    package var singleView = TiledViewOptions()
    package var fullscreen = false
    /// Makes the strip's loading strategy from the preload window and the decode workers, once the
    /// scheduler has them: adaptive by default; `tessera` passes the one `--strategy` names.
    package var makeStrategy: @Sendable (_ preload: PreloadPolicy, _ decodeWorkers: Int) -> LoadingStrategy = {
        AdaptiveStrategy(base: $0, decodeWorkers: $1)
    }
    /// Read and write the freedesktop thumbnail cache (~/.cache/thumbnails) for cell-sized images. Off unless
    /// asked for (the command line asks), so tests and embedders never write to the user's cache by accident.
    package var useThumbnailCache = false
    /// Convert images from the colour space they declare to the display's (`--no-colour-management`
    /// turns it off: pixels are shown as decoded).
    package var colourManagement = true
    /// Folders and files to watch for changes (inotify); nil watches nothing.
    package var watch: WatchTargets?
    /// How remote (http/https) items are downloaded.
    package var downloads = RemoteImageStore.Configuration()
    /// An IIIF manifest or collection named alone, read while the window opens: its canvases are the
    /// strip's items, each opening its image service. When the reading finds no Presentation document,
    /// `listing` lists what was named.
    package var presentation: PresentationReading?
    /// Keeps Tessera's own disk caches (cut pyramids, downloads) within one limit; the command line sets
    /// the user's. Nil (tests that run no binary) sweeps nothing, so no test touches the user's cache.
    package var diskCache: DiskCacheJanitor?
    /// Which key does what (a configuration file may change the defaults).
    package var keyBindings = KeyBindings.defaults
    /// How long the slideshow shows each image.
    package var slideshowDelay: Duration = .seconds(5)
    /// Start with the slideshow, in the single view.
    package var startsSlideshow = false
    /// The one image file named on the command line (what a file manager passes when a photo is opened):
    /// the viewer starts with it in the single view, opening it while the window is made. Nil starts in
    /// the strip.
    package var singleViewAtStart: String?
    /// Paths go to the key-handler separated by NUL instead of newlines (nsxiv's `-0`).
    package var nulSeparated = false
    /// Where `Delete` moves files: the user's trash (from XDG_DATA_HOME) unless a test names another.
    package var trash = Trash()
    /// Who runs the key-handler: the user's (from XDG_CONFIG_HOME) unless a test names another.
    package var keyHandler = KeyHandlerRunner()

    /// The program whose hidden `decode-helper` subcommand decodes images in a sandbox (the viewer's own
    /// binary); nil decodes in this process (`--decode-in-process`, and tests that run no binary).
    package var decodeHelperExecutable: String?
    /// A decode in a helper running longer than this kills the helper; the image gets an error cell.
    package var decodeTimeLimit: Duration = .seconds(20)
    /// Helpers already started (forked by the command line before any other thread): used instead of
    /// starting new ones.
    package var decodeHelpers: DecodeHelperPool?

    package init(items: [CarouselItem]) { self.items = items }

    /// Options for a strip of what `listing` finds.
    package init(listing: ItemListing) {
        items = []
        self.listing = listing
    }

    /// The helpers decodes run in, `helperCount` of them, for images of up to `pixelLimit` pixels:
    /// `decodeHelpers` when already started, nil without `decodeHelperExecutable`. With `service` the first
    /// ones are forked from this process (see `DecodeHelperPool.init`). `opening`: the format of the one
    /// image the run opens, which the first helper warms up before the rest (see
    /// `WarmUpImages.firstHelperFormats`).
    package func decodeHelperPool(helperCount: Int, pixelLimit: Int, opening format: ImageFormat? = nil,
                                 forkingWith service: DecodeHelperPool.ForkedService? = nil) -> DecodeHelperPool? {
        if let decodeHelpers { return decodeHelpers }
        guard let decodeHelperExecutable else { return nil }
        var configuration = DecodeHelperPool.Configuration(
            executable: decodeHelperExecutable, helperCount: helperCount,
            memoryLimit: DecodeHelperPool.Configuration.memoryLimit(pixelLimit: pixelLimit, byteLimit: 512 << 20))
        configuration.timeLimit = decodeTimeLimit
        configuration.priority = StartPriority.atStart
        configuration.firstHelperWarmsUp = format.map(WarmUpImages.firstHelperFormats(opening:))
        return DecodeHelperPool(configuration: configuration, forkingFirstHelpersWith: service)
    }

    /// Where decodes run: in the helpers `decodeHelperPool` gives, or in this process without them.
    package func decodingService(helperCount: Int, pixelLimit: Int) -> any DecodingService {
        SandboxedDecoding.service(in: decodeHelperPool(helperCount: helperCount, pixelLimit: pixelLimit))
    }
}

extension ViewerOptions {
    /// The options a single view opens with: `singleView`, with what it shares with the rest of the run (the
    /// cache setting, the pixel limit, the disk cache) and what the host made (the display's colour
    /// conversion, where decodes run). Its workers and decode memory are the run's executor's.
    func singleViewOptions(colour: ColourConversion?, decoding: any DecodingService) -> TiledViewOptions {
        var view = singleView
        view.cacheLimitBytes = cacheLimitBytes
        view.pixelLimit = pixelLimit
        view.colour = colour
        view.decoding = decoding
        if let diskCache { view.diskCache = diskCache }
        return view
    }
}

/// What the viewer watches: the folders browsed (with their subfolders when `recursive`) and the files named
/// one by one.
package struct WatchTargets: Sendable {
    package var folders: [String]
    package var files: [String]
    package var recursive: Bool

    package init(folders: [String], files: [String], recursive: Bool) {
        self.folders = folders
        self.files = files
        self.recursive = recursive
    }
}
