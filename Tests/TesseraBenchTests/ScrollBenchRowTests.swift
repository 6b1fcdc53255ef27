import Foundation
import XCTest
@testable import TesseraBench

/// A scroll bench row read from a viewer's run report, the median row of several runs, and the tables.
final class ScrollBenchRowTests: XCTestCase {
    /// A report as `browse --report --frame-times` writes it, with `frames` frames of `frameMs` each
    /// (the last one `slowest`).
    private func report(frames: Int, frameMs: Double, slowest: Double, decodes: Int) -> Data {
        let times = (0..<frames).map { [Double($0) / 60, $0 == frames - 1 ? slowest : frameMs, 0, 0, 0, 0] }
        let json: [String: Any] = [
            "frames": frames, "frame_ms": ["p50": frameMs, "p90": frameMs, "p99": slowest, "max": slowest],
            "frames_over_16ms": 1, "visible_cell_frames": 400, "placeholder_cell_frames": 40, "fading_frames": 7,
            "decodes": decodes, "main_thread_decodes": 0, "decoded_bytes": 3 << 20,
            "cache": ["hits": 30, "misses": 10, "evictions": 0], "peak_rss_bytes": 100 << 20, "frame_times": times,
        ]
        return try! JSONSerialization.data(withJSONObject: json)
    }

    func testARowReadsItsFiguresFromTheReport() throws {
        let row = try ScrollBenchRow(strategy: "cache", input: "jump", report: report(frames: 100, frameMs: 2, slowest: 20, decodes: 12))
        XCTAssertEqual(row.frames, 100)
        XCTAssertEqual(row.p50, 2)
        XCTAssertEqual(row.p99, 20)
        XCTAssertEqual(row.placeholderPercent, 10)
        XCTAssertEqual(row.hitRatePercent, 75)
        XCTAssertEqual(row.decodedMB, 3)
        XCTAssertEqual(row.peakMB, 100)
        XCTAssertEqual(row.frameMs.count, 100)
        XCTAssertEqual(row.p99Runs, [20])
        XCTAssertThrowsError(try ScrollBenchRow(strategy: "cache", input: "jump", report: Data("{}".utf8))) { error in
            XCTAssertEqual("\(error)", "unreadable report for cache / jump")
        }
    }

    func testTheMedianRowTakesEachFigureFromSomeRun() throws {
        let runs = try [(10, 30.0), (14, 10.0), (12, 20.0)].map { decodes, slowest in
            try ScrollBenchRow(strategy: "cache", input: "jump", report: report(frames: 50, frameMs: 2, slowest: slowest, decodes: decodes))
        }
        let median = ScrollBenchRow(medianOf: runs)
        XCTAssertEqual(median.decodes, 12)
        XCTAssertEqual(median.p99, 20)
        XCTAssertEqual(median.p99Runs, [30, 10, 20])
        XCTAssertEqual(median.frameTimes, runs[2].frameTimes, "the frame times of the run with the median p99")
        // 150 frames together: their p99 (nearest rank 149) is the second slowest.
        XCTAssertEqual(median.p99AllRuns, 20)
    }

    func testAdaptiveIsComparedWithTheOthersRunByRun() throws {
        func pass(_ adaptiveSlowest: Double) throws -> [ScrollBenchRow] {
            [try ScrollBenchRow(strategy: "cache", input: "jump", report: report(frames: 50, frameMs: 2, slowest: 30, decodes: 1)),
             try ScrollBenchRow(strategy: "adaptive", input: "jump", report: report(frames: 50, frameMs: 2, slowest: adaptiveSlowest, decodes: 1))]
        }
        XCTAssertTrue(ScrollBenchRow.compareWithAdaptive([try pass(5)]).isEmpty, "one run compares nothing")
        let comparisons = ScrollBenchRow.compareWithAdaptive([try pass(5), try pass(6)])
        XCTAssertEqual(comparisons.map(\.0), [0], "only the other strategy's row")
        XCTAssertEqual(comparisons[0].1.verdict, .lower)

        var rows = [ScrollBenchRow(medianOf: [try pass(5)[0], try pass(6)[0]]), ScrollBenchRow(medianOf: [try pass(5)[1], try pass(6)[1]])]
        rows[0].p99AgainstAdaptive = comparisons[0].1
        let text = ScrollBenchResult(rows: rows).text
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[0].hasPrefix("| input | strategy | frames | p50 ms | p99 ms |"), text)
        XCTAssertTrue(lines[2].hasPrefix("| jump | cache | 50 | 2.00 | 30.00 |"), text)
        // Adaptive's 100 frames together: p99 is the second slowest, 5 ms; cache's is 30 ms.
        XCTAssertTrue(text.contains("| jump | adaptive | 5.00 | | | |"), text)
        XCTAssertTrue(text.contains("| jump | cache | 30.00 | -25.00 | "), text)
        XCTAssertFalse(ScrollBenchResult(rows: [rows[1]]).text.contains("adaptive minus it"), "no comparison, no second table")
    }
}
