import Foundation

/// The strip's pipeline: decoded images by key.
package typealias ImagePipeline = LoadPipeline<ImageKey, PixelBuffer>

extension LoadPipeline where Key == ImageKey, Value == PixelBuffer {
    /// The strip's pipeline for `strategy`: a cost cache bounded by the limits (0 = unbounded), unless the
    /// strategy keeps nothing (`CachePolicy.keepsImages` false): then no storage at all, and every image
    /// reaches its cell only as a delivery.
    ///
    /// - Parameters:
    ///   - decode: decodes one key on a worker (`stripLoader` wraps it).
    ///   - waker: wakes the main loop when a result lands.
    ///   - observer: a measured run's observer, which counts these loads as the strip's.
    package static func strip(strategy: LoadingStrategy, scheduler: WorkScheduler<ImageKey, PixelBuffer>,
                             cacheCountLimit: Int = 0, cacheCostLimit: Int, decodeTimes: DecodeTimeEstimator? = nil,
                             decode: @escaping Loader, waker: @escaping @Sendable () -> Void = {},
                             observer: (any RunObserver)? = nil) -> ImagePipeline {
        let storage = strategy.cachePolicy.keepsImages
            ? CostCache<ImageKey, PixelBuffer>(countLimit: cacheCountLimit, totalCostLimit: cacheCostLimit) : nil
        return ImagePipeline(scheduler: scheduler, storage: storage, cost: \.cost,
                             loader: stripLoader(decode, decodeTimes: decodeTimes), waker: waker,
                             observation: observer.map { LoadObservation($0, view: .strip) })
    }

    /// `decode`, as the strip needs it on the worker: the pixels' opacity found there, whatever made them
    /// (a decoder, the thumbnail cache, a test), so the main thread picks a cell's texture without
    /// scanning them; and each finished decode's time taught to `decodeTimes`.
    package static func stripLoader(_ decode: @escaping Loader, decodeTimes: DecodeTimeEstimator? = nil) -> Loader {
        { key, cancellation in
            let start = ContinuousClock.now
            var pixels = try decode(key, cancellation)
            decodeTimes?.record(key, seconds: (ContinuousClock.now - start) / .seconds(1))
            if pixels.knownOpaque == nil { pixels.knownOpaque = pixels.scanIsOpaque() }
            return pixels
        }
    }
}
