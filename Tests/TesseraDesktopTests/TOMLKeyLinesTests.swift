import XCTest
@testable import TesseraDesktop

/// The line of each key, through what TOML lets span lines.
final class TOMLKeyLinesTests: XCTestCase {
    func testKeysTablesAndDottedAndQuotedKeys() {
        let lines = TOMLKeyLines("""
        # settings
        rows = 2

        [browse]
        fade = 0.5   # a comment
        browse.nested = 1
        [ "keys" ]
        "ctrl+d" = "trash"
        'literal key' = "quit"
        "esc\\u0061ped" = "x"
        [keys.strip]
        x = "mark"
        """)
        XCTAssertEqual(lines.line(of: ["rows"]), 2)
        XCTAssertEqual(lines.line(of: ["browse"]), 4)
        XCTAssertEqual(lines.line(of: ["browse", "fade"]), 5)
        XCTAssertEqual(lines.line(of: ["browse", "browse", "nested"]), 6)
        XCTAssertEqual(lines.line(of: ["keys", "ctrl+d"]), 8)
        XCTAssertEqual(lines.line(of: ["keys", "literal key"]), 9)
        XCTAssertEqual(lines.line(of: ["keys", "escaped"]), 10)
        XCTAssertEqual(lines.line(of: ["keys", "strip", "x"]), 12)
    }

    func testValuesSpanningLinesAreSkipped() {
        let lines = TOMLKeyLines("""
        text = \"\"\"
        rows = 1 inside a string
        \"\"\"
        list = [
          "a", # rows = 2 in a comment
          "]",
        ]
        literal = '''
        fade = 3
        '''
        table = { rows = 4, note = "}" }
        rows = 5
        """)
        XCTAssertEqual(lines.line(of: ["list"]), 4)
        XCTAssertEqual(lines.line(of: ["literal"]), 8)
        XCTAssertEqual(lines.line(of: ["rows"]), 12)
        XCTAssertNil(lines.line(of: ["fade"]))
        XCTAssertEqual(lines.line(of: ["table", "rows"]), 11, "an inline table's keys take the line of the key holding it")
    }
}
