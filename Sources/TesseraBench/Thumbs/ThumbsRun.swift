import Dispatch
import Synchronization
import TesseraCore
import TesseraImaging

/// One timed pass of `ThumbsBench` over the files.
package struct ThumbsRun: Codable, Sendable {
    package var files: Int
    package var wallSeconds: Double
    package var thumbnailsPerSecond: Double
    /// Per-image load time (each on its worker), milliseconds.
    package var imageMs: SampleSummary
    package var failures: [String]

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
