import TesseraCore
import TesseraImaging

/// `tessera bench thumbs`: thumbnail throughput with every core busy. Each file is loaded the way a cell
/// of `size` x `size` pixels loads it: read, decode (JPEG and WebP shrink while decoding), area-average
/// to fit, turn upright; the thumbnail cache does what `cache` says meanwhile, in temporary folders.
package struct ThumbsBench: Sendable {
    package var files: [String]
    package var size: Int
    package var workers: Int
    /// Timed passes over the files; the one with the median wall time is reported.
    package var runs: Int
    package var cache: ThumbnailCacheMode
    /// Also compare each thumbnail with a full decode scaled by the same scaler (PSNR).
    package var measuresQuality: Bool

    package init(files: [String], size: Int, workers: Int, runs: Int = 1, cache: ThumbnailCacheMode = .none,
                measuresQuality: Bool = false) {
        self.files = files
        self.size = size
        self.workers = workers
        self.runs = runs
        self.cache = cache
        self.measuresQuality = measuresQuality
    }

    /// Runs the passes through `loader` (the viewer's decoders; any SDL they need is the caller's to
    /// start). A warm cache is filled by an untimed pass first.
    package func run(loader: ImageLoader) throws -> ThumbsReport {
        precondition(runs >= 1 && workers >= 1)
        let box = PixelSize(width: size, height: size)
        let warmCache = cache == .warm ? try TemporaryCache() : nil
        if let warmCache {
            _ = ThumbsRun.measure(files: files, workers: workers,
                                  load: ThumbnailingLoader(loader: loader, store: warmCache.store), box: box)
        }
        var results: [ThumbsRun] = []
        for _ in 0..<runs {
            let fresh = cache == .save ? try TemporaryCache() : nil
            let store = fresh?.store ?? warmCache?.store
            results.append(ThumbsRun.measure(files: files, workers: workers,
                                             load: ThumbnailingLoader(loader: loader, store: store), box: box))
        }
        let median = results.sorted { $0.wallSeconds < $1.wallSeconds }[results.count / 2]
        var report = ThumbsReport(size: size, workers: workers, cache: cache, runs: results.map(\.wallSeconds),
                                  result: median)
        if measuresQuality {
            report.quality = ScaledDecodeQuality.measure(files: files, box: box, workers: workers, loader: loader)
        }
        return report
    }
}
