/// A compact summary of a latency distribution (frame times, decode times).
///
/// Percentiles rather than a mean because stutter lives in the tail: a mean of 8 ms hides the one 120 ms
/// frame a user notices. Nearest-rank (no interpolation) so every reported value is one that actually
/// occurred, and p99 of a small run is honestly its worst samples. Codable for benchmark reports.
package struct SampleSummary: Sendable, Codable, Equatable {
    package var p50: Double
    package var p90: Double
    package var p99: Double
    package var max: Double

    package init(p50: Double, p90: Double, p99: Double, max: Double) {
        self.p50 = p50
        self.p90 = p90
        self.p99 = p99
        self.max = max
    }

    /// Summarises `samples` (any order). NaNs are ignored; no samples gives all zeros, so an empty run
    /// still encodes as a valid report.
    package init(samples: [Double]) {
        let sorted = samples.filter { !$0.isNaN }.sorted()
        guard let last = sorted.last else {
            self.init(p50: 0, p90: 0, p99: 0, max: 0)
            return
        }
        self.init(p50: Self.percentile(50, ofSorted: sorted),
                  p90: Self.percentile(90, ofSorted: sorted),
                  p99: Self.percentile(99, ofSorted: sorted),
                  max: last)
    }

    /// Nearest-rank percentile of ascending `sorted` values: the smallest value with at least `p`% of the
    /// samples at or below it, i.e. element ceil(p/100 * n) counting from 1. 0 for no samples.
    package static func percentile(_ p: Double, ofSorted sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let clamped = Swift.min(Swift.max(p, 0), 100)
        // p * n first: exact for integer inputs, so e.g. p99 of 100 samples is rank 99, not 100.
        let rank = Int((clamped * Double(sorted.count) / 100).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }
}
