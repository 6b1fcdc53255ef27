import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraTiling

/// An image's opening started before its view exists: at start, while the renderer is made, so the photo
/// a user opened is read, and its first screen of tiles decoded, by the time the first frame can be drawn.
/// The view made next takes it over (`TiledImageView.init(opening:...)`).
struct TiledOpening {
    let path: String
    let opener: TiledImageOpener
    /// The lane the opening runs on; the view sets its rank from then on.
    let lane: SerialWorkLane
    /// The texture limit the opening decided with: the view keeps the opening if the renderer's own is no
    /// smaller (what fits the assumed limit fits it too).
    let assumedMaxTextureSize: PixelSize

    /// The largest texture every accelerated renderer on a desktop Linux takes (Mesa's and the vendors'
    /// drivers give 16384 for years), and no limit for SDL's software renderer.
    static func assumedMaxTextureSize(softwareRenderer: Bool) -> PixelSize {
        softwareRenderer ? PixelSize(width: 0, height: 0) : PixelSize(width: 16384, height: 16384)
    }

    /// Starts opening `path` for a view of `viewport` points at `pixelScale`, on a lane of `executor`;
    /// `wake` wakes the frame loop as each step ends.
    static func start(path: String, options: TiledViewOptions, executor: WorkExecutor, maxTextureSize: PixelSize,
                      viewport: Size?, pixelScale: Double, wake: @escaping @Sendable () -> Void,
                      rank: WorkRank = .visible) -> TiledOpening {
        let lane = SerialWorkLane(rank: rank, on: executor)
        var configuration = TiledImageOpener.Configuration(options: options, path: path, maxTextureSize: maxTextureSize)
        if let viewport {
            // The tiles the view's opening camera will ask for first, read with the base level.
            configuration.firstViewTiles = { geometry, magnification in
                var camera = options.openingCamera(imageSize: PixelSize(width: geometry.width, height: geometry.height),
                                                   magnification: magnification, viewport: viewport,
                                                   pixelScale: pixelScale, time: .zero)
                if camera.needsStep { camera.step(to: .zero) }
                let level = camera.level(in: geometry)
                return geometry.tiles(in: level, intersecting: geometry.levelRegion(covering: camera.visibleImageRegion, in: level))
            }
        }
        let opener = TiledImageOpener(configuration, lane: lane, memoryBudget: executor.memoryBudget,
                                      onEvent: wake)
        return TiledOpening(path: path, opener: opener, lane: lane, assumedMaxTextureSize: maxTextureSize)
    }

    /// The opening of the image named at start, begun before SDL (`WindowHost`'s `beforeSDL`): for the
    /// viewport the window will have, deciding within the limit the renderer about to be made is assumed to
    /// have.
    static func atStart(path: String, early: WindowHost.EarlyStart, options: ViewerOptions,
                        decoding: any DecodingService, executor: WorkExecutor) -> TiledOpening {
        start(path: path, options: options.singleViewOptions(colour: early.colour, decoding: decoding), executor: executor,
              maxTextureSize: assumedMaxTextureSize(softwareRenderer: options.headless),
              viewport: early.viewport, pixelScale: early.pixelScale, wake: early.wake)
    }

    /// Whether a renderer whose limit is `limit` (0: none) can show what this opening decided.
    func suits(maxTextureSize limit: PixelSize) -> Bool {
        func fits(_ assumed: Int, _ actual: Int) -> Bool { actual == 0 || (assumed != 0 && assumed <= actual) }
        return fits(assumedMaxTextureSize.width, limit.width) && fits(assumedMaxTextureSize.height, limit.height)
    }
}

extension TiledViewOptions {
    /// The camera an image opens with: fitted, or where `openAt` says.
    func openingCamera(imageSize: PixelSize, magnification: Double, viewport: Size, pixelScale: Double,
                       time: Duration) -> ZoomPanModel {
        var camera = ZoomPanModel(imageSize: imageSize, viewportSize: viewport, pixelScale: pixelScale,
                                  maxDeviceScale: maxDeviceScale, magnification: magnification)
        if let start = openAt {
            camera.show(imagePoint: Point(x: start.x * Double(imageSize.width), y: start.y * Double(imageSize.height)),
                        atZoom: camera.nativeZoom * start.pictureScale, time: time)
        }
        return camera
    }
}
