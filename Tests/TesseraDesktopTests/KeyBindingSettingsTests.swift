import Foundation
import TesseraCore
import TesseraDesktop
import XCTest

/// `[keys]` through the viewer's own key table: what a file binds is what the viewer's keys do.
final class KeyBindingSettingsTests: XCTestCase {
    private let path = "/home/u/.config/tessera/config.toml"

    private func combo(_ text: String) throws -> KeyCombo { try KeyCombo(parsing: text) }

    func testAFilesBindingsChangeTheDefaultsInBothViewsOrInOne() throws {
        let file = try ConfigurationFile(text: """
        [keys]
        "ctrl+d" = "trash"
        "Delete" = "none"
        [keys.strip]
        "x" = "quit"
        [keys.single]
        "ctrl+d" = "mark"
        """, path: path, schema: TesseraSettings.schema)
        let defaults = KeyBindings.defaults
        XCTAssertEqual(defaults.action(for: try combo("Delete"), in: .strip), .trash, "the default the file removes")
        let bindings = file.applyingKeyBindings(to: defaults)
        XCTAssertEqual(bindings.action(for: try combo("ctrl+d"), in: .strip), .trash)
        XCTAssertEqual(bindings.action(for: try combo("ctrl+d"), in: .single), .mark, "a view's own table comes after")
        XCTAssertNil(bindings.action(for: try combo("Delete"), in: .strip))
        XCTAssertNil(bindings.action(for: try combo("Delete"), in: .single))
        XCTAssertEqual(bindings.action(for: try combo("x"), in: .strip), .quit)
        XCTAssertNil(bindings.action(for: try combo("x"), in: .single))
        XCTAssertEqual(bindings.action(for: try combo("m"), in: .strip), .mark, "what the file does not name stays")
    }

    func testKeysAndActionsAreCheckedAgainstTheKeyTable() {
        func problems(_ text: String) -> [String] {
            do throws(ConfigurationError) {
                _ = try ConfigurationFile(text: text, path: path, schema: TesseraSettings.schema)
                return []
            } catch {
                return error.lines
            }
        }
        XCTAssertEqual(problems("[keys]\n\"C-d\" = \"next-mark\"\n\"<\" = \"rotate-left\"\n"), [])
        XCTAssertEqual(problems("[keys]\n\n\"ctrl+d\" = \"trsh\"\n"),
                       ["\(path):3: \"ctrl+d\" = \"trsh\": no such action; did you mean \"trash\"?"])
        XCTAssertEqual(problems("[keys.strip]\n\"x\" = \"invert-mark\"\n"),
                       ["\(path):2: \"x\" = \"invert-mark\": no such action; did you mean \"invert-marks\"?"])
        let badKey = problems("[keys]\n\"ctrl+\" = \"trash\"\n")
        XCTAssertEqual(badKey.count, 1)
        XCTAssertTrue(badKey[0].hasPrefix("\(path):2: \"ctrl+\""), badKey[0])
        XCTAssertEqual(problems("[keys.both]\nx = \"quit\"\n").count, 1, "views are strip and single")
    }

    func testTheManualListsTheKeyTable() throws {
        let browse: [String: Any] = ["commandName": "browse", "abstract": "Browse.",
                                     "discussion": "Intro.\n\n\(KeyBindings.defaults.helpText)\n\nMouse."]
        let json = try JSONSerialization.data(withJSONObject: [
            "command": ["commandName": "tessera", "abstract": "A viewer.", "subcommands": [browse]] as [String: Any],
        ])
        let tool = try JSONDecoder().decode(ToolInfo.self, from: json)
        let page = TesseraManual.page(tool: tool, version: "1").render()
        XCTAssertTrue(page.contains(".SH KEYS\n"), page)
        for section in KeyBindings.defaults.helpSections {
            XCTAssertTrue(page.contains(".SS \"\(section.title)\"\n") || page.contains(".SS \(section.title)\n"), section.title)
        }
        XCTAssertTrue(page.contains("\\fBctrl+x\\fR\n"), "the key-handler's prefix key")
        XCTAssertFalse(page.contains("Both views:"), "the help's key paragraph is not repeated: \(page)")
        XCTAssertTrue(page.contains("Mouse."))
    }
}
