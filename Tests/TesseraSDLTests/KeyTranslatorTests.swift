import XCTest
@testable import TesseraCore
@testable import TesseraSDL

/// SDL reports a key press and then the text it typed; the viewer gets one key combo per key, spelt as X
/// spells it, with Shift and the layout applied to printable keys.
final class KeyTranslatorTests: XCTestCase {
    /// SDL key codes: printable keys are their unshifted ASCII; others are scancodes with bit 30 set.
    private let left: Int32 = (1 << 30) | 80, leftControl: Int32 = (1 << 30) | 224, delete: Int32 = 127
    private let space: Int32 = 32, returnKey: Int32 = 13
    private func ascii(_ c: Character) -> Int32 { Int32(c.asciiValue!) }
    private func combo(_ text: String) -> KeyCombo { try! KeyCombo(parsing: text) }

    func testAPrintableKeyIsWhatItTyped() {
        var keys = KeyTranslator()
        XCTAssertNil(keys.keyDown(code: ascii("m"), modifiers: .init(shift: true), isRepeat: false), "the text says what it typed")
        XCTAssertEqual(keys.typed("M"), [.keyDown(combo("M"), isRepeat: false)])
        // A German layout: the key left of Z types < and, with Shift, >.
        XCTAssertNil(keys.keyDown(code: ascii("<"), modifiers: .init(shift: true), isRepeat: true))
        XCTAssertEqual(keys.typed(">"), [.keyDown(combo(">"), isRepeat: true)])
    }

    func testNamedKeysAndModifiedKeysComeFromThePressAndTheirTextIsDropped() {
        var keys = KeyTranslator()
        XCTAssertNil(keys.keyDown(code: leftControl, modifiers: .init(control: true), isRepeat: false), "a modifier alone")
        XCTAssertEqual(keys.keyDown(code: ascii("x"), modifiers: .init(control: true), isRepeat: false),
                       .keyDown(combo("ctrl+x"), isRepeat: false))
        XCTAssertEqual(keys.keyDown(code: ascii("r"), modifiers: .init(control: true, shift: true), isRepeat: false),
                       .keyDown(combo("ctrl+R"), isRepeat: false))
        XCTAssertEqual(keys.keyDown(code: ascii("d"), modifiers: .init(alt: true), isRepeat: false),
                       .keyDown(combo("alt+d"), isRepeat: false))
        XCTAssertEqual(keys.typed("d"), [], "Alt's text would count the key twice")
        XCTAssertEqual(keys.keyDown(code: space, modifiers: .init(), isRepeat: false), .keyDown(combo("space"), isRepeat: false))
        XCTAssertEqual(keys.typed(" "), [])
        XCTAssertEqual(keys.keyDown(code: delete, modifiers: .init(shift: true), isRepeat: false),
                       .keyDown(combo("shift+Delete"), isRepeat: false))
        XCTAssertEqual(keys.keyDown(code: left, modifiers: .init(), isRepeat: true), .keyDown(combo("Left"), isRepeat: true))
        XCTAssertEqual(keys.keyDown(code: returnKey, modifiers: .init(), isRepeat: false), .keyDown(combo("Enter"), isRepeat: false))
        // After a named key, a plain one types again.
        XCTAssertNil(keys.keyDown(code: ascii("u"), modifiers: .init(), isRepeat: false))
        XCTAssertEqual(keys.typed("u"), [.keyDown(combo("u"), isRepeat: false)])
    }

    func testTextWithoutAKeyNameTypesNothing() {
        var keys = KeyTranslator()
        XCTAssertEqual(keys.typed("é"), [])
        XCTAssertEqual(keys.typed("ab"), [.keyDown(combo("a"), isRepeat: false), .keyDown(combo("b"), isRepeat: false)],
                       "an input method's several characters")
    }
}
