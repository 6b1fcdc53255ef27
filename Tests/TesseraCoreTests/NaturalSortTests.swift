import XCTest
@testable import TesseraCore

final class NaturalSortTests: XCTestCase {
    func testDigitRunsCompareNumerically() {
        XCTAssertEqual(["img10.jpg", "img2.jpg", "img1.jpg", "img100.jpg"].naturallySorted(),
                       ["img1.jpg", "img2.jpg", "img10.jpg", "img100.jpg"])
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("img2", "img10"))
        XCTAssertFalse(NaturalOrder.areInIncreasingOrder("img10", "img2"))
        XCTAssertEqual(["file 10 b", "file 10 a", "file 9 z"].naturallySorted(),
                       ["file 9 z", "file 10 a", "file 10 b"])
        XCTAssertEqual(["v1.10", "v1.9", "v1.2.3", "v1.2"].naturallySorted(),
                       ["v1.2", "v1.2.3", "v1.9", "v1.10"])
    }

    func testHugeNumbersDoNotOverflow() {
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("x99999999999999999999999", "x100000000000000000000000"))
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("x18446744073709551616", "x18446744073709551617"))
    }

    func testLeadingZerosTieBreak() {
        XCTAssertEqual(["img002", "img3", "img02", "img2", "img1"].naturallySorted(),
                       ["img1", "img2", "img02", "img002", "img3"])
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("a01b", "a1c"), "value decides before zeros")
    }

    func testCaseInsensitiveThenUpperFirst() {
        XCTAssertEqual(["b", "B", "a", "A"].naturallySorted(), ["A", "a", "B", "b"])
        XCTAssertEqual(["Zebra", "apple", "Mango"].naturallySorted(), ["apple", "Mango", "Zebra"])
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("IMG_1", "img_1"))
        XCTAssertTrue(NaturalOrder.areInIncreasingOrder("img_1", "IMG_2"), "number decides before case")
    }

    func testPrefixesSortFirst() {
        XCTAssertEqual(["a1", "a", "a0", "ab"].naturallySorted(), ["a", "a0", "a1", "ab"])
        XCTAssertEqual(["", "x"].naturallySorted(), ["", "x"])
    }

    func testIsAStrictTotalOrder() {
        let names = ["img1", "img01", "IMG1", "img10", "img2", "Img2", "a", "A", "a1", "a01", "b",
                     "photo 3.JPG", "photo 3.jpg", "photo 03.jpg", "x-1", "x_1", "x1", "", "0", "00", "1",
                     "é1", "e\u{301}2", "Z", "z9", "z10"]
        for a in names {
            XCTAssertFalse(NaturalOrder.areInIncreasingOrder(a, a), "irreflexive: \(a)")
            for b in names where a != b {
                let ab = NaturalOrder.areInIncreasingOrder(a, b)
                let ba = NaturalOrder.areInIncreasingOrder(b, a)
                XCTAssertTrue(ab != ba, "exactly one of \(a) < \(b), \(b) < \(a)")
                XCTAssertEqual(NaturalOrder.compare(a, b), -NaturalOrder.compare(b, a))
                for c in names where ab && NaturalOrder.areInIncreasingOrder(b, c) {
                    XCTAssertTrue(NaturalOrder.areInIncreasingOrder(a, c), "transitive: \(a) < \(b) < \(c)")
                }
            }
        }
        XCTAssertEqual(NaturalOrder.compare("e\u{301}", "\u{e9}"), 0, "canonically equal")
        var shuffled = names.shuffled()
        shuffled.sortNaturally()
        XCTAssertEqual(shuffled, names.naturallySorted(), "stable regardless of input order")
    }
}
