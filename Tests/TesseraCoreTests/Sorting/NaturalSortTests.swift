import Foundation
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

/// Sorting by keys made once per name gives the order of a full natural sort, comparison by comparison.
final class NaturalSorterTests: XCTestCase {
    /// Names a folder holds that natural order finds hard: leading zeros, case, digit runs longer than any
    /// integer, accents composed and not, letters whose lower case is longer (ß, İ), other scripts, emoji,
    /// "\r\n", and prefixes of each other.
    static let trickyNames = [
        "img1.jpg", "img01.jpg", "img001.jpg", "IMG1.jpg", "Img1.JPG", "img10.jpg", "img2.jpg", "img02.jpg",
        "img", "img_", "img-1", "img 1", "img.1", "1", "01", "0", "00", "000", "0a", "a0", "a00", "a000b",
        "12345678901234567890123456789012345678901234567890", "12345678901234567890123456789012345678901234567891",
        "9" + String(repeating: "0", count: 300), String(repeating: "0", count: 260) + "9", "x" + String(repeating: "7", count: 241),
        "é", "e\u{301}x", "É", "ecole", "école", "Ecole", "École", "straße", "STRASSE", "strasse", "İstanbul", "istanbul",
        "日本2", "日本10", "日本", "😀1", "😀01", "a\u{20DD}", "a\u{20DD}b", "ab", "a\r\nb", "a\rb", "a\nb",
        "résumé 3.png", "Résumé 03.png", "resume 3.png", "Ω1", "ω1", "Ω", "z", "Z", "_", "-", "~", "",
    ]

    func testSortingByKeysEqualsAFullNaturalSortOfTrickyNames() {
        XCTAssertEqual(Self.trickyNames.naturallySorted(), Self.trickyNames.sorted(by: ReferenceNaturalOrder.areInIncreasingOrder))
        XCTAssertEqual(Self.trickyNames.shuffled().naturallySorted(), Self.trickyNames.naturallySorted(),
                       "the input order does not matter")
    }

    func testEveryComparisonAgreesWithTheFullNaturalOrder() {
        for a in Self.trickyNames {
            for b in Self.trickyNames {
                XCTAssertEqual(NaturalOrder.compare(a, b).signum(), ReferenceNaturalOrder.compare(a, b).signum(), "\(a) vs \(b)")
            }
        }
    }

    func testThousandsOfGeneratedNamesSortAsAFullNaturalSort() {
        // Pieces that make names collide in every tie-break; the seeded generator makes the same names each run.
        let pieces = ["img", "IMG", "Img", "_", "-", " ", ".", "0", "00", "1", "01", "7", "10", "99", "0099", "123456789012345678901",
                      "a", "A", "b", "z", "Z", "é", "E\u{301}", "ß", "ü", "Ü", "日", "😀", "jpg", "JPG", "x2", "x02"]
        var random = SeededRandom(seed: 20)
        var names = Set<String>()
        while names.count < 4000 {
            let count = Int(random.next() % 5) + 1
            names.insert((0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined())
        }
        let list = Array(names)
        XCTAssertEqual(list.naturallySorted(), list.sorted(by: ReferenceNaturalOrder.areInIncreasingOrder))
    }

    func testAFolderOfTwentyThousandNamesAndItsTies() {
        // A camera's numbering (IMG_0001 ...), a second camera's (img_1 ...) and the same numbers in upper
        // case: every number appears in three spellings, which only the full keys order.
        var names: [String] = []
        for number in 0..<7000 {
            names.append(String(format: "IMG_%04d.JPG", number))
            names.append("img_\(number).jpg")
            names.append("IMG_\(number).jpg")
        }
        var random = SeededRandom(seed: 7)
        for index in names.indices.reversed() { names.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        XCTAssertEqual(names.naturallySorted(), names.sorted(by: ReferenceNaturalOrder.areInIncreasingOrder))
    }

    func testKeysOfASCIINamesMatchTheGeneralPath() {
        // An ASCII name is keyed byte by byte, any other through its characters: the two must agree.
        for name in ["img10.JPG", "a\r\nb", "007 Bond", "x", "0000", "A_b-C.d~", String(repeating: "9", count: 300)] {
            var byBytes: [UInt8] = [], byCharacters: [UInt8] = []
            var ascii = name
            ascii.withUTF8 { NaturalSortKey.appendPrimary(of: $0, to: &byBytes) }
            NaturalSortKey.appendPrimary(ofCharacters: name, to: &byCharacters)
            XCTAssertEqual(byBytes, byCharacters, name)
            XCTAssertEqual(Array(NaturalSortKey.full(name).prefix(byBytes.count)), byBytes, name)
        }
    }
}

/// SplitMix64: the same numbers on every run.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
