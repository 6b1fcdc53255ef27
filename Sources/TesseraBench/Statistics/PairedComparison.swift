import TesseraCore

/// How a percentile of one strategy's frame times compares with another's over runs made in pairs: run i
/// of each was made in the same pass over the machine, so a slow minute lands on both.
///
/// The difference is that of the percentile over all runs' frames together (A's minus B's). Its interval
/// is a paired bootstrap over the runs: passes drawn with replacement, the same passes for both, because
/// frames within a run are not independent (a busy second of the machine slows many neighbouring frames)
/// while passes are. With five runs the interval is rough, but it says whether a gap of a few hundredths
/// of a millisecond is larger than what runs of the same build differ by.
package struct PairedComparison: Sendable, Equatable, Encodable {
    /// A's percentile minus B's, over all runs' frames together.
    package var difference: Double
    /// The central `confidence` share of the bootstrap's differences.
    package var low: Double
    package var high: Double

    package enum Verdict: String, Sendable, Encodable {
        /// The whole interval is below zero: A is lower.
        case lower
        /// The interval straddles zero: these runs cannot tell A and B apart.
        case indistinguishable = "not distinguishable"
        /// The whole interval is above zero: A is higher.
        case higher
    }

    package var verdict: Verdict { high < 0 ? .lower : (low > 0 ? .higher : .indistinguishable) }

    enum CodingKeys: String, CodingKey { case difference, low, high, verdict }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(difference, forKey: .difference)
        try container.encode(low, forKey: .low)
        try container.encode(high, forKey: .high)
        try container.encode(verdict, forKey: .verdict)
    }

    /// `a[i]` and `b[i]` are the frame times of run i of each (the same number of runs, at least one).
    package init(a: [[Double]], b: [[Double]], percentile: Double = 99, resamples: Int = 1000,
                confidence: Double = 0.95, seed: UInt64 = 1) {
        precondition(a.count == b.count && !a.isEmpty, "runs come in pairs")
        // The percentile of the picked runs' frames together, as `SampleSummary.percentile` takes it
        // (nearest rank), without sorting them all: the value at that rank is the j-th largest of the
        // pool, which is among each run's own j largest (p99 of 6000 frames: j = 60).
        func pooled(_ runs: [[Double]], _ picks: [Int]) -> Double {
            let count = picks.reduce(0) { $0 + runs[$1].count }
            guard count > 0 else { return 0 }
            let rank = Swift.min(Swift.max(Int((percentile * Double(count) / 100).rounded(.up)), 1), count)
            let j = count - rank + 1
            var largest: [Double] = []
            largest.reserveCapacity(j * picks.count)
            for run in picks { largest += runs[run].prefix(j) }
            largest.sort(by: >)
            return largest[j - 1]
        }
        let a = a.map { $0.sorted(by: >) }, b = b.map { $0.sorted(by: >) }
        let all = Array(a.indices)
        difference = pooled(a, all) - pooled(b, all)
        var generator = SplitMix64(seed: seed)
        var differences: [Double] = []
        differences.reserveCapacity(resamples)
        for _ in 0..<Swift.max(1, resamples) {
            let picks = all.map { _ in Int.random(in: 0..<all.count, using: &generator) }
            differences.append(pooled(a, picks) - pooled(b, picks))
        }
        differences.sort()
        let tail = (1 - confidence) / 2 * 100
        low = SampleSummary.percentile(Swift.max(tail, 0), ofSorted: differences)
        high = SampleSummary.percentile(Swift.min(100 - tail, 100), ofSorted: differences)
    }
}
