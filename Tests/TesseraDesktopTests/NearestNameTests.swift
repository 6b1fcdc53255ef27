import XCTest
@testable import TesseraDesktop

final class NearestNameTests: XCTestCase {
    func testASlipFindsTheNameAndAStrangerFindsNone() {
        let names = ["rows", "cell", "cache-mb", "fullscreen", "thumbnail-cache"]
        XCTAssertEqual(NearestName.suggestion(for: "row", among: names), "rows")
        XCTAssertEqual(NearestName.suggestion(for: "cache_mb", among: names), "cache-mb")
        XCTAssertEqual(NearestName.suggestion(for: "FullScren", among: names), "fullscreen")
        XCTAssertEqual(NearestName.suggestion(for: "thumbnailcache", among: names), "thumbnail-cache")
        XCTAssertNil(NearestName.suggestion(for: "colours", among: names))
        XCTAssertEqual(NearestName.editDistance("", "abc"), 3)
        XCTAssertEqual(NearestName.editDistance("kitten", "sitting"), 3)
    }
}
