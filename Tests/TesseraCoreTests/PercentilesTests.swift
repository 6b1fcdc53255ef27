import Foundation
import XCTest
@testable import TesseraCore

final class PercentilesTests: XCTestCase {
    func testNearestRankOnOneToHundred() {
        let summary = SampleSummary(samples: (1...100).map(Double.init).shuffled())
        XCTAssertEqual(summary, SampleSummary(p50: 50, p90: 90, p99: 99, max: 100))
    }

    func testSmallRunsReportActualSamples() {
        let summary = SampleSummary(samples: [5, 1, 4, 2, 3, 10, 9, 8, 7, 6])
        XCTAssertEqual(summary.p50, 5)
        XCTAssertEqual(summary.p90, 9)
        XCTAssertEqual(summary.p99, 10, "rank ceil(9.9) = 10")
        XCTAssertEqual(summary.max, 10)
        XCTAssertEqual(SampleSummary(samples: [7]), SampleSummary(p50: 7, p90: 7, p99: 7, max: 7))
        XCTAssertEqual(SampleSummary(samples: [2, 1]).p50, 1)
        XCTAssertEqual(SampleSummary.percentile(0, ofSorted: [1, 2, 3]), 1)
        XCTAssertEqual(SampleSummary.percentile(100, ofSorted: [1, 2, 3]), 3)
    }

    func testEmptyIsZerosAndNaNsAreIgnored() {
        XCTAssertEqual(SampleSummary(samples: []), SampleSummary(p50: 0, p90: 0, p99: 0, max: 0))
        XCTAssertEqual(SampleSummary(samples: [.nan]), SampleSummary(p50: 0, p90: 0, p99: 0, max: 0))
        XCTAssertEqual(SampleSummary(samples: [3, .nan, 1]).max, 3)
    }

    func testCodableRoundTrip() throws {
        let summary = SampleSummary(samples: [16.6, 16.7, 33.4, 16.5])
        let data = try JSONEncoder().encode(summary)
        XCTAssertEqual(try JSONDecoder().decode(SampleSummary.self, from: data), summary)
        let keys = try JSONSerialization.jsonObject(with: data) as? [String: Double]
        XCTAssertEqual(Set(keys?.keys ?? [:].keys), ["p50", "p90", "p99", "max"])
    }
}
