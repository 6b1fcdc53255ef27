import TesseraCore
import XCTest

final class KeyHandlerComboTests: XCTestCase {
    func testNsxivSpelling() {
        XCTAssertEqual(KeyHandlerCombo(typed: "a")?.argument, "a")
        XCTAssertEqual(KeyHandlerCombo(typed: "A", shift: true)?.argument, "A", "Shift is in the letter")
        XCTAssertEqual(KeyHandlerCombo(typed: "<", shift: true)?.argument, "less")
        XCTAssertEqual(KeyHandlerCombo(typed: "r", control: true)?.argument, "C-r")
        XCTAssertEqual(KeyHandlerCombo(typed: "R", control: true, alt: true, shift: true)?.argument, "C-M-R")
        XCTAssertEqual(KeyHandlerCombo(typed: " ", shift: true)?.argument, "S-space", "Shift does not change the space bar")
        XCTAssertEqual(KeyHandlerCombo(key: "Return", shift: true).argument, "S-Return")
        XCTAssertEqual(KeyHandlerCombo(key: "Delete", control: true, alt: true, shift: true).argument, "C-M-S-Delete")
        XCTAssertEqual(KeyHandlerCombo(typed: "7")?.argument, "7")
        XCTAssertNil(KeyHandlerCombo(typed: "é"))
    }

    func testEveryPrintableCharacterHasAnXName() {
        let names = (0x20...0x7E).map { KeyHandlerCombo.keysymName(of: Character(Unicode.Scalar(UInt8($0)))) }
        XCTAssertFalse(names.contains(nil))
        XCTAssertEqual(Set(names).count, names.count, "no two characters share a name")
        XCTAssertEqual(KeyHandlerCombo.keysymName(of: "|"), "bar")
        XCTAssertEqual(KeyHandlerCombo.keysymName(of: "_"), "underscore")
        XCTAssertEqual(KeyHandlerCombo.keysymName(of: "\\"), "backslash")
    }
}
