import ArgumentParser
import Foundation
import Synchronization
import TesseraCore
import TesseraImaging
import TesseraSDL
import TesseraUI

/// `tessera bench ...`: measurements of the pipeline outside the window. A group, so that further
/// benchmarks (scrolling, tiles) join as subcommands.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure parts of the image pipeline.",
        subcommands: [Thumbs.self, BenchScroll.self])
}

extension Bench {
    /// Thumbnail throughput with every core busy. By default cold: no thumbnail cache, every file is read
    /// and decoded (shrinking on load where the format allows) and area-averaged to the size.
    struct Thumbs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Thumbnails per second over image files, using all cores.",
            discussion: """
            Each file is loaded the way a cell of SIZE x SIZE pixels loads it: read, decode (JPEG and WebP \
            shrink while decoding), area-average to fit, turn upright. --cache says what the freedesktop \
            thumbnail cache does meanwhile; its caches are new folders in the temporary folder, never ~/.cache.

            none: no cache (the default), pure decoding throughput.
            save: a new, empty cache each run; each thumbnail is also PNG-encoded and written (a first visit).
            warm: a cache filled by an untimed pass first; every file is a hit (a second visit).
            """)

        enum CacheMode: String, ExpressibleByArgument, CaseIterable, Codable {
            case none, save, warm
        }

        @Argument(help: "Image files and folders (folders: their images, not subfolders).")
        var paths: [String]
        @Option(help: "Longest side of the thumbnails, in pixels.")
        var size = 256
        @Option(help: "Worker threads (default: the number of cores).")
        var workers: Int?
        @Option(help: "Passes over the files; the pass with the median wall time is reported.")
        var runs = 1
        @Option(help: "The thumbnail cache: none, save or warm (see above).")
        var cache = CacheMode.none
        @Flag(help: "Also compare each thumbnail with a full decode scaled by the same scaler (PSNR, dB).")
        var quality = false
        @Flag(help: "Print the result as JSON.")
        var json = false

        func validate() throws {
            if !(1...4096).contains(size) { throw ValidationError("--size must be between 1 and 4096") }
            if cache != .none && size > ThumbnailSize.xxLarge.pixels {
                throw ValidationError("--cache \(cache.rawValue) needs --size 1024 or less (the largest cached size)")
            }
            if let workers, !(1...256).contains(workers) { throw ValidationError("--workers must be between 1 and 256") }
            if !(1...100).contains(runs) { throw ValidationError("--runs must be between 1 and 100") }
        }

        func run() throws {
            let files: [String]
            do {
                files = try ImagePathCollector().collect(paths).map(\.path)
            } catch {
                throw fail("\(error)")
            }
            // SDL_image decodes PNG, GIF, BMP and TIFF; it wants IMG_Init on this thread first.
            let sdl: SDLSystem
            do { sdl = try SDLSystem(headless: true) } catch { throw fail("\(error)") }
            defer { withExtendedLifetime(sdl) {} }

            // The viewer's decoders, in the viewer's order.
            let loader = ImageLoader(decoders: ImageDecoders.viewer)
            let box = PixelSize(width: size, height: size)
            let workerCount = workers ?? ProcessInfo.processInfo.activeProcessorCount
            var results: [ThumbsRun] = []
            let warmCache = cache == .warm ? try TemporaryCache() : nil
            if let warmCache {
                _ = ThumbsRun.measure(files: files, workers: workerCount,
                                      load: ThumbnailingLoader(loader: loader, store: warmCache.store), box: box)
            }
            for _ in 0..<runs {
                let fresh = cache == .save ? try TemporaryCache() : nil
                let store = fresh?.store ?? warmCache?.store
                results.append(ThumbsRun.measure(files: files, workers: workerCount,
                                                 load: ThumbnailingLoader(loader: loader, store: store), box: box))
            }
            let median = results.sorted { $0.wallSeconds < $1.wallSeconds }[results.count / 2]
            var report = ThumbsReport(size: size, workers: workerCount, cache: cache, runs: results.map(\.wallSeconds),
                                      result: median)
            if quality {
                report.quality = ScaledDecodeQuality.measure(files: files, box: box, workers: workerCount, loader: loader)
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
            }
            if median.failures.count == files.count { throw fail("no file could be thumbnailed") }
        }
    }
}

/// One pass over the files.
struct ThumbsRun: Codable {
    var files: Int
    var wallSeconds: Double
    var thumbnailsPerSecond: Double
    /// Per-image load time (each on its worker), milliseconds.
    var imageMs: SampleSummary
    var failures: [String]

    /// Loads every file through `load` on `workers` threads, each pulling the next file as it finishes (so
    /// a slow file does not hold up a pre-assigned share of the others). Files are taken in the given order.
    static func measure(files: [String], workers: Int, load: ThumbnailingLoader, box: PixelSize) -> ThumbsRun {
        let next = Atomic<Int>(0)
        let samples = Mutex<[Double]>([])
        let failures = Mutex<[String]>([])
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                let began = DispatchTime.now().uptimeNanoseconds
                do throws(ImageLoadError) {
                    _ = try load.load(path: files[index], fitting: box)
                } catch {
                    failures.withLock { $0.append(error.description) }
                }
                let ms = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6
                samples.withLock { $0.append(ms) }
            }
        }
        let wall = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return ThumbsRun(files: files.count, wallSeconds: wall, thumbnailsPerSecond: Double(files.count) / wall,
                         imageMs: SampleSummary(samples: samples.withLock { $0 }), failures: failures.withLock { $0 })
    }
}

struct ThumbsReport: Codable {
    var size: Int
    var workers: Int
    var cache: Bench.Thumbs.CacheMode
    /// Wall time of every run, seconds, in the order they ran.
    var runs: [Double]
    /// The run with the median wall time.
    var result: ThumbsRun
    /// With --quality: PSNR of each format's thumbnails against full decode + the same scaler.
    var quality: [ScaledDecodeQuality]?

    var text: String {
        var lines = [
            "\(result.files) files to \(size) px, \(workers) workers, thumbnail cache: \(cache.rawValue)",
            String(format: "wall %.2f s (median of %d: %@)", result.wallSeconds, runs.count,
                   runs.map { String(format: "%.2f", $0) }.joined(separator: ", ")),
            String(format: "%.1f thumbnails/s; per image p50 %.1f ms, p90 %.1f ms, max %.1f ms",
                   result.thumbnailsPerSecond, result.imageMs.p50, result.imageMs.p90, result.imageMs.max),
        ]
        for q in quality ?? [] {
            lines.append(String(format: "%@: PSNR vs full decode + same scaler over %d files: min %.1f dB, median %.1f dB",
                                q.format, q.files, q.minimumDB, q.medianDB))
        }
        if !result.failures.isEmpty {
            lines.append("\(result.failures.count) failed:")
            lines += result.failures.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

/// An empty freedesktop cache in a temporary folder, removed afterwards.
final class TemporaryCache {
    let folder: URL
    let store: ThumbnailStore

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        store = ThumbnailStore(root: folder.appendingPathComponent("thumbnails").path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }
}

/// How close shrink-on-load decoding (JPEG's DCT scaling, libwebp's scaler) comes to decoding at full
/// size and area-averaging to the same size. Formats without shrink-on-load come out identical (infinite
/// PSNR) and are left out.
struct ScaledDecodeQuality: Codable {
    var format: String
    var files: Int
    var minimumDB: Double
    var medianDB: Double

    static func measure(files: [String], box: PixelSize, workers: Int, loader: ImageLoader) -> [ScaledDecodeQuality] {
        let next = Atomic<Int>(0)
        let results = Mutex<[(String, Double)]>([])
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < files.count else { return }
                guard let data = FileManager.default.contents(atPath: files[index]),
                      let thumbnail = try? loader.load(path: files[index], fitting: box),
                      let full = try? loader.load(path: files[index], fitting: nil) else { continue }
                let reference = PixelScaler.scaled(full, to: thumbnail.size)
                let db = psnr(thumbnail, reference)
                if db.isFinite { results.withLock { $0.append((ImageFormat.sniff(data).displayName, db)) } }
            }
        }
        let byFormat = Dictionary(grouping: results.withLock { $0 }, by: \.0)
        return byFormat.keys.sorted().map { format in
            let values = byFormat[format]!.map(\.1).sorted()
            return ScaledDecodeQuality(format: format, files: values.count, minimumDB: values[0],
                                       medianDB: SampleSummary.percentile(50, ofSorted: values))
        }
    }

    /// Peak signal-to-noise ratio over the colour channels, in dB.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        var sum = 0.0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.bytes[i + c]) - Double(b.bytes[i + c])
                sum += d * d
            }
        }
        let mse = sum / Double(a.width * a.height * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
