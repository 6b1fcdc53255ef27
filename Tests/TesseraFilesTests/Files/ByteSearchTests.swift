import Foundation
import TesseraFiles
import XCTest

final class ByteSearchTests: XCTestCase {
    private let needle = Array("<x:xmpmeta".utf8)

    func testFindsTheFirstOccurrenceAnywhereInTheBuffer() {
        let bytes = Array("ab<x:xmpmeta>cd<x:xmpmeta>".utf8)
        bytes.withUnsafeBytes { XCTAssertEqual(ByteSearch.firstRange(of: needle, in: $0), 2..<12) }
        let atEnd = Array("xxxx<x:xmpmeta".utf8)
        atEnd.withUnsafeBytes { XCTAssertEqual(ByteSearch.firstRange(of: needle, in: $0), 4..<14) }
    }

    func testAnAbsentPartialOrEmptyNeedleIsNotFound() {
        Array("ab<x:xmpmet".utf8).withUnsafeBytes { XCTAssertNil(ByteSearch.firstRange(of: needle, in: $0)) }
        Array("abc".utf8).withUnsafeBytes { XCTAssertNil(ByteSearch.firstRange(of: [], in: $0)) }
        [UInt8]().withUnsafeBytes { XCTAssertNil(ByteSearch.firstRange(of: needle, in: $0)) }
    }

    func testOffsetsInDataCountFromItsFirstByteAndStartWhereAsked() {
        let whole = Data("..<x:xmpmeta>..<x:xmpmeta>".utf8)
        let slice = whole[2...]  // indices start at 2
        XCTAssertEqual(ByteSearch.firstRange(of: needle, in: slice), 0..<10)
        XCTAssertEqual(ByteSearch.firstRange(of: needle, in: slice, from: 1), 13..<23)
        XCTAssertNil(ByteSearch.firstRange(of: needle, in: slice, from: 14))
        XCTAssertNil(ByteSearch.firstRange(of: needle, in: slice, from: 100))
    }
}
