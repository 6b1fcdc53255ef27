import XCTest
@testable import TesseraCore

final class IndexMarksTests: XCTestCase {
    func testEachIndexGoesInOncePerRoundAndEveryRoundStartsEmpty() {
        var marks = IndexMarks()
        marks.removeAll(count: 10)
        XCTAssertTrue(marks.insert(3))
        XCTAssertTrue(marks.insert(9))
        XCTAssertFalse(marks.insert(3))
        marks.removeAll(count: 10)
        XCTAssertTrue(marks.insert(3), "a new round starts empty")
        XCTAssertFalse(marks.insert(3))
        marks.removeAll(count: 20)
        XCTAssertTrue(marks.insert(19), "room for more items")
        XCTAssertTrue(marks.insert(3))
    }
}
