import TesseraCore
import TesseraImaging
import TesseraSDL

/// The strip's selected cell playing its animation: the other cells keep the first frame their image has.
/// Frames are decoded at the cell picture's size by a feed of their own, started once the cell's image
/// is shown, and stopped when the selection moves on (or the item changes). Main thread only.
final class SelectedCellAnimation {
    private let renderer: Renderer
    private let colour: ColourConversion?
    private let pixelLimit: Int
    /// Where the frames are decoded.
    private let decoding: any DecodingService
    /// Whose workers decode them.
    private let executor: WorkExecutor
    private let waker: EventLoopWaker?
    private let observer: (any RunObserver)?
    /// What plays: the item and the picture size it was started for.
    private var current: (item: CarouselItem, size: PixelSize, playback: AnimationPlayback)?

    init(renderer: Renderer, colour: ColourConversion?, pixelLimit: Int, decoding: any DecodingService,
         executor: WorkExecutor, waker: EventLoopWaker?, observer: (any RunObserver)?) {
        self.renderer = renderer
        self.colour = colour
        self.pixelLimit = pixelLimit
        self.decoding = decoding
        self.executor = executor
        self.waker = waker
        self.observer = observer
    }

    /// When the loop must wake for the next frame; nil when it need not.
    var nextWake: Duration? { current?.playback.nextWake }
    /// Frames put up so far by what plays now (for tests).
    var framesShown: Int { current?.playback.framesShown ?? 0 }

    /// Stops what plays (the strip is not shown).
    func stop() { current = nil }

    /// Follows the selection and puts up the frame due; returns the cell and the frame to draw in place of
    /// its image, nil when the selected cell shows no animation (yet).
    func update(model: CarouselModel, now: Duration) -> (cellID: Int, picture: ImageTexture)? {
        guard let item = model.selectedItem, !item.isRemote, AnimatedImage.mayAnimate(path: item.path),
              let cell = model.visibleCells.first(where: { $0.index == model.selectedIndex }),
              case .image(let pixels) = cell.content, !cell.needsUpload, cell.imageAlpha(now: now, fade: model.fade) >= 1
        else {
            current = nil
            return nil
        }
        if current?.item != item || current?.size != pixels.size {
            var options = AnimationFeed.Options()
            options.fitting = pixels.size
            options.turn = ImageOrientation(rawValue: item.sessionOrientation) ?? .up
            options.colour = colour
            options.pixelLimit = pixelLimit
            options.onlyAnimations = true
            options.decoding = decoding
            options.executor = executor
            let waker = self.waker
            let feed = AnimationFeed(path: item.path, options: options, onFrame: { waker?.wake() })
            current = (item, pixels.size, AnimationPlayback(feed: feed, renderer: renderer, observer: observer, view: .strip))
        }
        guard let playback = current?.playback, !playback.hasFailed else { return nil }
        playback.update(now: now)
        return playback.picture.map { (cell.id, $0) }
    }
}
