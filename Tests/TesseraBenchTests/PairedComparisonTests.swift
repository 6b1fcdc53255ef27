import TesseraBench
import TesseraCore
import XCTest

/// The benchmark's verdict on two strategies' p99 must follow what their runs show: a gap larger than the
/// runs' own spread is called, one within it is not, and the same runs give the same interval every time.
final class PairedComparisonTests: XCTestCase {
    /// `count` runs of 800 frames around `base` ms, each run offset by a pass effect shared by the pair
    /// (`passes[i]`), with a tail: one frame in fifty `tail` ms slower.
    private func runs(base: Double, tail: Double, passes: [Double], seed: UInt64) -> [[Double]] {
        var generator = SplitMix64(seed: seed)
        return passes.map { pass in
            (0..<800).map { i in
                base + pass + Double.random(in: 0..<0.1, using: &generator) + (i % 50 == 0 ? tail : 0)
            }
        }
    }

    private let passes = [0, 0.3, -0.1, 0.2, 0.05, -0.2, 0.1]

    func testAGapLargerThanTheRunsSpreadIsCalledEitherWay() {
        let quick = runs(base: 0.5, tail: 0.4, passes: passes, seed: 1)
        let slow = runs(base: 0.5, tail: 0.7, passes: passes, seed: 2)
        let comparison = PairedComparison(a: quick, b: slow)
        XCTAssertEqual(comparison.verdict, .lower)
        XCTAssertEqual(comparison.difference, -0.3, accuracy: 0.1)
        XCTAssertEqual(comparison.difference,
                       SampleSummary(samples: quick.flatMap { $0 }).p99 - SampleSummary(samples: slow.flatMap { $0 }).p99,
                       "the p99 of all frames together, as the bench's p99_all_runs")
        XCTAssertLessThanOrEqual(comparison.low, comparison.difference)
        XCTAssertGreaterThanOrEqual(comparison.high, comparison.difference)
        XCTAssertEqual(PairedComparison(a: slow, b: quick).verdict, .higher)
    }

    func testTheSameBuildTwiceIsNotDistinguishable() {
        // Two strategies that differ only by chance: each pass moves both alike, as a busy machine does,
        // and one run of each is much slower than its pair (a frame preempted for milliseconds).
        var a = runs(base: 0.5, tail: 0.4, passes: passes, seed: 3)
        var b = runs(base: 0.5, tail: 0.4, passes: passes, seed: 4)
        for i in 0..<12 { a[2][i * 60] += 2; b[5][i * 60 + 1] += 2 }
        let comparison = PairedComparison(a: a, b: b)
        XCTAssertEqual(comparison.verdict, .indistinguishable)
        XCTAssertLessThan(comparison.low, 0)
        XCTAssertGreaterThan(comparison.high, 0)
    }

    func testTheSameRunsAndSeedGiveTheSameInterval() {
        let a = runs(base: 0.5, tail: 0.4, passes: passes, seed: 5)
        let b = runs(base: 0.52, tail: 0.4, passes: passes, seed: 6)
        XCTAssertEqual(PairedComparison(a: a, b: b, seed: 9), PairedComparison(a: a, b: b, seed: 9))
    }
}
