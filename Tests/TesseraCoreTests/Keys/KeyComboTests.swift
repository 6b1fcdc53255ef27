import TesseraCore
import XCTest

final class KeyComboTests: XCTestCase {
    func testNsxivSpelling() {
        XCTAssertEqual(KeyCombo(typed: "a")?.argument, "a")
        XCTAssertEqual(KeyCombo(typed: "A", shift: true)?.argument, "A", "Shift is in the letter")
        XCTAssertEqual(KeyCombo(typed: "<", shift: true)?.argument, "less")
        XCTAssertEqual(KeyCombo(typed: "r", control: true)?.argument, "C-r")
        XCTAssertEqual(KeyCombo(typed: "R", control: true, alt: true, shift: true)?.argument, "C-M-R")
        XCTAssertEqual(KeyCombo(typed: " ", shift: true)?.argument, "S-space", "Shift does not change the space bar")
        XCTAssertEqual(KeyCombo(key: "Return", shift: true).argument, "S-Return")
        XCTAssertEqual(KeyCombo(key: "Delete", control: true, alt: true, shift: true).argument, "C-M-S-Delete")
        XCTAssertEqual(KeyCombo(typed: "7")?.argument, "7")
        XCTAssertNil(KeyCombo(typed: "é"))
    }

    func testEveryPrintableCharacterHasAnXName() {
        let names = (0x20...0x7E).map { KeyCombo.keysymName(of: Character(Unicode.Scalar(UInt8($0)))) }
        XCTAssertFalse(names.contains(nil))
        XCTAssertEqual(Set(names).count, names.count, "no two characters share a name")
        XCTAssertEqual(KeyCombo.keysymName(of: "|"), "bar")
        XCTAssertEqual(KeyCombo.keysymName(of: "_"), "underscore")
        XCTAssertEqual(KeyCombo.keysymName(of: "\\"), "backslash")
    }
}

final class KeyComboParsingTests: XCTestCase {
    private func parse(_ text: String) throws -> KeyCombo { try KeyCombo(parsing: text) }

    func testModifiersAsPeopleWriteThemAndAsNsxivDoes() throws {
        XCTAssertEqual(try parse("ctrl+x"), KeyCombo(typed: "x", control: true))
        XCTAssertEqual(try parse("Ctrl+X").argument, "C-X")
        XCTAssertEqual(try parse("C-x"), try parse("control+x"))
        XCTAssertEqual(try parse("alt+shift+Return"), KeyCombo(key: "Return", alt: true, shift: true))
        XCTAssertEqual(try parse("M-S-Return").argument, "M-S-Return")
        XCTAssertEqual(try parse("ctrl+-"), KeyCombo(typed: "-", control: true), "a modifier before the minus key")
        XCTAssertEqual(try parse("ctrl++").argument, "C-plus")
    }

    func testOneCharacterIsTheKeyThatTypesIt() throws {
        XCTAssertEqual(try parse("M").argument, "M")
        XCTAssertEqual(try parse("m").argument, "m")
        XCTAssertEqual(try parse("shift+m"), try parse("M"), "Shift with a letter is the capital")
        XCTAssertEqual(try parse("<").argument, "less")
        XCTAssertEqual(try parse("|").argument, "bar")
        XCTAssertEqual(try parse("_").argument, "underscore")
        XCTAssertEqual(try parse("less"), try parse("<"), "a character's X name")
        XCTAssertEqual(try parse("-").argument, "minus")
    }

    func testKeyNamesInAnyCaseAndTheirCommonAliases() throws {
        XCTAssertEqual(try parse("delete").argument, "Delete")
        XCTAssertEqual(try parse("Enter").argument, "Return")
        XCTAssertEqual(try parse("esc").argument, "Escape")
        XCTAssertEqual(try parse("backspace").argument, "BackSpace")
        XCTAssertEqual(try parse("PageUp").argument, "Prior", "X's name, as nsxiv passes it to a key-handler")
        XCTAssertEqual(try parse("page_down").argument, "Next")
        XCTAssertEqual(try parse("f5").argument, "F5")
        XCTAssertEqual(try parse("space").argument, "space")
        XCTAssertEqual(try parse("shift+space").argument, "S-space")
    }

    func testWhatNamesNoKeyIsAClearError() {
        for text in ["", "ctrl+", "é", "Pgup", "ctrl+Pgup", "C-"] {
            XCTAssertThrowsError(try parse(text), text) { error in
                let description = String(describing: error)
                XCTAssertTrue(description.hasPrefix("\"\(text)\""), description)
            }
        }
    }

    func testSpellingReadsBack() throws {
        for text in ["ctrl+x", "<", "M", "Delete", "PageUp", "shift+Enter", "Space", "ctrl+alt+F5", "_", "|", "Esc"] {
            let combo = try parse(text)
            XCTAssertEqual(combo.spelling, text)
            XCTAssertEqual(try parse(combo.spelling), combo)
        }
    }
}
