import Foundation
import TesseraCore

/// One strategy over one input of `ScrollBench`, read from the run report (`--report`) of the viewer run
/// that measured it; several runs' rows make one of medians.
package struct ScrollBenchRow: Encodable, Sendable {
    package var strategy: String
    package var input: String
    package var frames: Int
    package var p50: Double
    package var p99: Double
    package var max: Double
    package var framesOver16ms: Int
    package var placeholderPercent: Double
    package var fadingFrames: Int
    package var decodes: Int
    package var mainThreadDecodes: Int
    package var decodedMB: Double
    package var hitRatePercent: Double
    package var peakMB: Double
    /// The report's `frame_times`: per frame, seconds since the start and milliseconds first.
    package var frameTimes: [[Double]]
    /// Each run's p99, when the row is the median of several.
    package var p99Runs: [Double]
    /// p99 of every frame of every run together: with five runs the 1 % tail is five times as many
    /// frames as one run's, so it moves less with a single preempted frame.
    package var p99AllRuns: Double
    /// With several runs and adaptive among the strategies: adaptive's p99 over all runs minus this
    /// strategy's, with its paired-bootstrap interval (`PairedComparison`).
    package var p99AgainstAdaptive: PairedComparison?

    /// The row of one run, from its report's JSON (the field names are `RunReport`'s).
    package init(strategy: String, input: String, report data: Data) throws {
        guard let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let frameMs = report["frame_ms"] as? [String: Double], let cache = report["cache"] as? [String: Int] else {
            throw BenchError("unreadable report for \(strategy) / \(input)")
        }
        func int(_ key: String) -> Int { report[key] as? Int ?? 0 }
        self.strategy = strategy
        self.input = input
        frames = int("frames")
        p50 = frameMs["p50"] ?? 0
        p99 = frameMs["p99"] ?? 0
        max = frameMs["max"] ?? 0
        framesOver16ms = int("frames_over_16ms")
        let visible = Swift.max(1, int("visible_cell_frames"))
        placeholderPercent = 100 * Double(int("placeholder_cell_frames")) / Double(visible)
        fadingFrames = int("fading_frames")
        decodes = int("decodes")
        mainThreadDecodes = int("main_thread_decodes")
        decodedMB = Double(int("decoded_bytes")) / 1_048_576
        let lookups = (cache["hits"] ?? 0) + (cache["misses"] ?? 0)
        hitRatePercent = lookups == 0 ? 0 : 100 * Double(cache["hits"] ?? 0) / Double(lookups)
        peakMB = Double(int("peak_rss_bytes")) / 1_048_576
        frameTimes = (report["frame_times"] as? [[Double]]) ?? []
        p99Runs = [p99]
        p99AllRuns = p99
    }

    /// One row whose every figure is the median (nearest rank: a value some run had) of the runs' figures;
    /// the frame times for the plot are those of the run with the median p99.
    package init(medianOf runs: [ScrollBenchRow]) {
        precondition(!runs.isEmpty)
        func median(_ value: (ScrollBenchRow) -> Double) -> Double {
            SampleSummary.percentile(50, ofSorted: runs.map(value).sorted())
        }
        func median(_ value: (ScrollBenchRow) -> Int) -> Int { Int(median { Double(value($0)) }) }
        self = runs[0]
        frames = median { $0.frames }
        p50 = median { $0.p50 }
        p99 = median { $0.p99 }
        max = median { $0.max }
        framesOver16ms = median { $0.framesOver16ms }
        placeholderPercent = median { $0.placeholderPercent }
        fadingFrames = median { $0.fadingFrames }
        decodes = median { $0.decodes }
        mainThreadDecodes = median { $0.mainThreadDecodes }
        decodedMB = median { $0.decodedMB }
        hitRatePercent = median { $0.hitRatePercent }
        peakMB = median { $0.peakMB }
        p99Runs = runs.map(\.p99)
        p99AllRuns = runs.count == 1 ? runs[0].p99 : SampleSummary(samples: runs.flatMap(\.frameMs)).p99
        frameTimes = runs.first { $0.p99 == p99 }?.frameTimes ?? runs[0].frameTimes
    }

    enum CodingKeys: String, CodingKey {
        case strategy, input, frames, p50, p99, max, p99Runs = "p99_runs", p99AllRuns = "p99_all_runs"
        case framesOver16ms = "frames_over_16_7ms", placeholderPercent = "placeholder_percent"
        case fadingFrames = "fading_frames", decodes
        case mainThreadDecodes = "main_thread_decodes", decodedMB = "decoded_mb", hitRatePercent = "hit_rate_percent"
        case peakMB = "peak_mb", p99AgainstAdaptive = "adaptive_p99_minus_this"
        // frameTimes stays out of the JSON: it is for the plot.
    }

    /// The run's frame times in ms.
    var frameMs: [Double] { frameTimes.compactMap { $0.count > 1 ? $0[1] : nil } }

    /// For every row of another strategy (by index in a pass), adaptive's p99 against it on the same input,
    /// run i against run i. Empty with one run or without adaptive.
    package static func compareWithAdaptive(_ passes: [[ScrollBenchRow]]) -> [(Int, PairedComparison)] {
        guard passes.count > 1, let first = passes.first else { return [] }
        return first.indices.compactMap { i -> (Int, PairedComparison)? in
            guard first[i].strategy != "adaptive",
                  let reference = first.firstIndex(where: { $0.strategy == "adaptive" && $0.input == first[i].input })
            else { return nil }
            return (i, PairedComparison(a: passes.map { $0[reference].frameMs }, b: passes.map { $0[i].frameMs }))
        }
    }
}
