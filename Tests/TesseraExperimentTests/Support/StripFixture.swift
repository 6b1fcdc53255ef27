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

    /// A fake decoder: a small solid image in a colour unique to the item.
    static func loader() -> Loader {
        { key in
            let index = index(of: key.path)
            return PixelBuffer(width: 8, height: 6, filledWith: RGBA(r: UInt8(index & 0xFF), g: UInt8((index >> 8) & 0xFF), b: 77))
        }
    }
}

extension LoadPipeline where Key == ImageKey, Value == PixelBuffer {
    /// The strip's pipeline as the viewer makes it for `strategy`, over a fake decoder; `loads` counts
    /// its loads.
    static func fixture(_ scheduler: WorkScheduler<ImageKey, PixelBuffer>, strategy: LoadingStrategy,
                        cacheBytes: Int = 64 << 20, loads: CountingObserver? = nil,
                        loader: @escaping Fixture.Loader) -> ImagePipeline {
        .strip(strategy: strategy, scheduler: scheduler, cacheCostLimit: cacheBytes,
               decode: { key, _ in try loader(key) }, observer: loads)
    }
}

final class CallLog: Sendable {
    private let keys = Mutex<[ImageKey]>([])
    func record(_ key: ImageKey) { keys.withLock { $0.append(key) } }
    var all: [ImageKey] { keys.withLock { $0 } }
}

/// A run observer that only adds up the strip pipeline's events.
final class CountingObserver: RunObserver {
    private let counted = Mutex(LoadCounters())

    func load(_ event: LoadEvent, in view: MeasuredView) {
        guard view == .strip else { return }
        counted.withLock { $0.count(event) }
    }

    /// The strip's loads so far.
    var strip: LoadCounters { counted.withLock { $0 } }
}
