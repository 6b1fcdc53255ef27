import TesseraCore
import XCTest

/// A path's bytes survive the trip through the viewer's strings, and two paths are never one.
final class PathTextTests: XCTestCase {
    private func roundTrip(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) {
        let text = PathText.text(of: bytes)
        XCTAssertEqual(PathText.bytes(of: text), bytes, "bytes \(bytes)", file: file, line: line)
        let cBytes = PathText.withCString(text) { pointer in
            (0..<strlen(pointer)).map { UInt8(bitPattern: pointer[$0]) }
        }
        XCTAssertEqual(cBytes, bytes, "what a system call receives", file: file, line: line)
        XCTAssertEqual(PathText.withBytes(text) { Array($0) }, bytes, "what a lookup hashes", file: file, line: line)
    }

    func testAnInvalidByteAndTheReplacementCharacterItStandsForAreTwoPaths() {
        let invalid: [UInt8] = Array("x".utf8) + [0xFF] + Array(".jpg".utf8)
        let replacement = Array("x\u{FFFD}.jpg".utf8)
        XCTAssertNotEqual(PathText.text(of: invalid), PathText.text(of: replacement))
        XCTAssertFalse(PathText.same(PathText.text(of: invalid), PathText.text(of: replacement)))
        roundTrip(invalid)
        roundTrip(replacement)
        XCTAssertEqual(PathText.displayName(PathText.text(of: invalid)), "x\u{FFFD}.jpg", "drawn leniently")
    }

    func testValidUTF8IsItsOwnText() {
        XCTAssertEqual(PathText.text(of: Array("/home/me/Café 日本.jpg".utf8)), "/home/me/Café 日本.jpg")
        XCTAssertFalse(PathText.hasEscapes("/home/me/Café 日本.jpg"))
    }

    func testARealCharacterOfTheEscapeRangeIsNotTakenForAnEscapedByte() {
        // U+EFFF in a real name, and the lone byte 0xFF that an escape of it would decode to.
        let real = Array("a\u{EFFF}.jpg".utf8)
        let lone: [UInt8] = [UInt8(ascii: "a"), 0xFF, UInt8(ascii: "."), UInt8(ascii: "j"), UInt8(ascii: "p"), UInt8(ascii: "g")]
        XCTAssertNotEqual(PathText.text(of: real), PathText.text(of: lone))
        roundTrip(real)
        roundTrip(lone)
    }

    func testEveryKindOfBadSequenceRoundTrips() {
        let cases: [[UInt8]] = [
            [0xC0, 0xAF],                   // overlong slash
            [0xE0, 0x80, 0xAF],             // overlong, three bytes
            [0xED, 0xA0, 0x80],             // a surrogate
            [0xF4, 0x90, 0x80, 0x80],       // past U+10FFFF
            [0xE2, 0x82],                   // truncated at the end
            [0xE2, 0x82, 0x41],             // truncated before ASCII
            [0x80, 0x80, 0xBF],             // lone continuation bytes
            [0xEE, 0xBE, 0x80, 0xFF, 0x2F], // an escape-range character, a bad byte, a slash
            Array("new\nline".utf8),
        ]
        for bytes in cases { roundTrip(bytes) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 1...12, using: &generator)).map { _ in UInt8.random(in: 1...255, using: &generator) }
            roundTrip(bytes)
        }
    }

    func testPathsThatDifferOnlyInNormalisationAreTwoKeys() {
        let composed = "/photos/caf\u{E9}.jpg", decomposed = "/photos/cafe\u{301}.jpg"
        XCTAssertEqual(composed, decomposed, "Swift's strings call them equal")
        XCTAssertFalse(PathText.same(composed, decomposed))
        XCTAssertEqual(Set([PathText.Key(composed), PathText.Key(decomposed)]).count, 2)

        var marks = ItemMarks()
        marks.toggle(composed)
        XCTAssertTrue(marks.contains(composed))
        XCTAssertFalse(marks.contains(decomposed), "marking one name does not mark its twin")
        XCTAssertNotEqual(ImageKey(path: composed, size: PixelSize(width: 10, height: 10)),
                          ImageKey(path: decomposed, size: PixelSize(width: 10, height: 10)),
                          "two files, two cache entries")
    }

    func testAnItemTableFindsEachOfTwoNamesThatShareADisplayName() {
        var table = ItemTable()
        let first: [UInt8] = Array("x".utf8) + [0xFF] + Array(".jpg".utf8)
        let second = Array("x\u{FFFD}.jpg".utf8)
        let prefix = table.prefix(forFolder: "/photos")
        let a = first.withUnsafeBufferPointer { table.append($0, prefix: prefix) }
        let b = second.withUnsafeBufferPointer { table.append($0, prefix: prefix) }
        let index = PathIndex(table)
        XCTAssertEqual(index.id(of: table.path(of: a), in: table), a)
        XCTAssertEqual(index.id(of: table.path(of: b), in: table), b)
        XCTAssertEqual(PathText.bytes(of: table.path(of: a)), Array("/photos/".utf8) + first)
        XCTAssertEqual(table.name(of: a), table.name(of: b), "both are drawn as x\u{FFFD}.jpg")
    }
}
