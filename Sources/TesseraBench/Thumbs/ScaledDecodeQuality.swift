import Foundation
import Synchronization
import TesseraCore
import TesseraImaging

/// How close shrink-on-load decoding (JPEG's DCT scaling, libwebp's scaler) comes to decoding at full
/// size and area-averaging to the same size. Formats without shrink-on-load come out identical (infinite
/// PSNR) and are left out.
package struct ScaledDecodeQuality: Codable, Sendable {
    package var format: String
    package var files: Int
    package var minimumDB: Double
    package var medianDB: Double

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

    /// Peak signal-to-noise ratio over the colour channels of two images of one size, in dB; infinite
    /// for identical ones.
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
