import Foundation
import Synchronization
@testable import TesseraCore

/// Items whose decoded pixels encode their own index, so a test can tell which item a cell shows.
enum Fixture {
    /// A fake decode of one key.
    typealias Loader = @Sendable (ImageKey) throws -> PixelBuffer

    static func items(_ count: Int) -> [CarouselItem] {
        (0..<count).map { CarouselItem(path: "/fake/img\($0).jpg") }
    }

    static func index(of path: String) -> Int {
        Int(path.dropFirst("/fake/img".count).dropLast(".jpg".count))!
    }

    /// A colour unique to the index (up to 65536 items).
    static func colour(for index: Int) -> RGBA {
        RGBA(r: UInt8(index & 0xFF), g: UInt8((index >> 8) & 0xFF), b: 77)
    }

    static func decodedIndex(_ pixels: PixelBuffer) -> Int {
        let p = pixels.pixel(x: 0, y: 0)
        return Int(p.r) | Int(p.g) << 8
    }

    /// A fake decoder: a small solid image in the item's colour, after an optional delay.
    static func loader(delay: @escaping @Sendable () -> TimeInterval = { 0 },
                       failing: Set<Int> = []) -> Loader {
        { key in
            let wait = delay()
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            let index = index(of: key.path)
            if failing.contains(index) { throw LoadFailure(shortText: "Not an image", detail: "\(key.path): not an image") }
            return PixelBuffer(width: 8, height: 6, filledWith: colour(for: index))
        }
    }
}

extension LoadPipeline where Key == ImageKey, Value == PixelBuffer {
    /// The strip's pipeline as the viewer makes it for `strategy`, over a fake decoder; `loads` counts
    /// its loads.
    static func fixture(_ scheduler: WorkScheduler<ImageKey, PixelBuffer>, strategy: LoadingStrategy = AdaptiveStrategy(decodeWorkers: 2),
                        cacheBytes: Int = 64 << 20, decodeTimes: DecodeTimeEstimator? = nil, loads: CountingObserver? = nil,
                        loader: @escaping Fixture.Loader) -> ImagePipeline {
        .strip(strategy: strategy, scheduler: scheduler, cacheCostLimit: cacheBytes, decodeTimes: decodeTimes,
               decode: { key, _ in try loader(key) }, observer: loads)
    }
}

final class CallLog: Sendable {
    private let keys = Mutex<[ImageKey]>([])
    func record(_ key: ImageKey) { keys.withLock { $0.append(key) } }
    var all: [ImageKey] { keys.withLock { $0 } }
}

/// For tests of the carousel itself rather than of a strategy: the preload window around what is
/// visible, the cache in least-recently-used order (as the experiment's listing 14.5 loads).
final class PreloadWindowStrategy: LoadingStrategy {
    let name = "window"
    let cachePolicy = CachePolicy(keepsImages: true, evictsFarthestFromCentre: false)
    let uploadPacing: any UploadPacing = FillFramePacing(milliseconds: 8)
    let preload: PreloadPolicy

    init(preload: PreloadPolicy) { self.preload = preload }

    func requests(for frame: StrategyFrame) -> [LoadRequest] {
        let window = PreloadWindow(visible: frame.visible, itemCount: frame.itemCount, rows: frame.layout.rows,
                                   direction: frame.direction, policy: preload)
        return window.items.map { LoadRequest(index: $0.index, variant: .cell, priority: $0.priority) }
    }
}
