import TesseraCore
import XCTest

final class KeyBindingsTests: XCTestCase {
    private func combo(_ text: String) -> KeyCombo { try! KeyCombo(parsing: text) }

    func testTheDefaultsFollowNsxiv() {
        let keys = KeyBindings.defaults
        for view in KeyBindings.View.allCases {
            XCTAssertEqual(keys.action(for: combo("n"), in: view), .next)
            XCTAssertEqual(keys.action(for: combo("Space"), in: view), view == .strip ? .next : .pauseOrNext,
                           "the single view's space pauses an animation, steps on anything else")
            XCTAssertEqual(keys.action(for: combo("p"), in: view), .previous)
            XCTAssertEqual(keys.action(for: combo("Backspace"), in: view), .previous)
            XCTAssertEqual(keys.action(for: combo("g"), in: view), .first)
            XCTAssertEqual(keys.action(for: combo("G"), in: view), .last)
            XCTAssertEqual(keys.action(for: combo("m"), in: view), .mark)
            XCTAssertEqual(keys.action(for: combo("M"), in: view), .invertMarks)
            XCTAssertEqual(keys.action(for: combo("u"), in: view), .clearMarks)
            XCTAssertEqual(keys.action(for: combo("N"), in: view), .nextMark)
            XCTAssertEqual(keys.action(for: combo("P"), in: view), .previousMark)
            XCTAssertEqual(keys.action(for: combo("ctrl+x"), in: view), .keyHandler)
            XCTAssertEqual(keys.action(for: combo("Delete"), in: view), .trash)
            XCTAssertEqual(keys.action(for: combo("ctrl+z"), in: view), .undo)
            XCTAssertEqual(keys.action(for: combo("<"), in: view), .rotateLeft)
            XCTAssertEqual(keys.action(for: combo(">"), in: view), .rotateRight)
            XCTAssertEqual(keys.action(for: combo("|"), in: view), .flipHorizontal)
            XCTAssertEqual(keys.action(for: combo("_"), in: view), .flipVertical)
            XCTAssertEqual(keys.action(for: combo("q"), in: view), .quit)
            XCTAssertNil(keys.action(for: combo("ctrl+q"), in: view), "modifiers count")
        }
        XCTAssertEqual(keys.action(for: combo("Enter"), in: .strip), .open)
        XCTAssertEqual(keys.action(for: combo("Enter"), in: .single), .close)
        XCTAssertEqual(keys.action(for: combo("Esc"), in: .strip), .quit)
        XCTAssertEqual(keys.action(for: combo("Esc"), in: .single), .close)
        XCTAssertEqual(keys.action(for: combo("PageDown"), in: .single), .next)
        XCTAssertEqual(keys.action(for: combo("ctrl+Space"), in: .single), .pause, "nsxiv's pause key")
        XCTAssertEqual(keys.action(for: combo("+"), in: .single), .zoomIn)
        XCTAssertNil(keys.action(for: combo("+"), in: .strip))
    }

    func testEveryActionHasAKeyByDefault() {
        for action in ViewerAction.allCases {
            let bound = KeyBindings.View.allCases.flatMap { KeyBindings.defaults.keys(for: action, in: $0) }
            XCTAssertFalse(bound.isEmpty, "\(action) has no key")
        }
    }

    func testNoDefaultKeyIsBoundTwiceInOneView() {
        for view in KeyBindings.View.allCases {
            let keys = ViewerAction.allCases.flatMap { KeyBindings.defaults.keys(for: $0, in: view) }
            XCTAssertEqual(Set(keys).count, keys.count, "\(view)")
        }
    }

    func testABindingReplacesUnbindsAndKeepsToItsScope() {
        var keys = KeyBindings.defaults
        keys.bind(combo("ctrl+d"), to: .trash)
        keys.bind(combo("Delete"), to: nil)
        keys.bind(combo("x"), to: .mark, in: .single)
        keys.bind(combo("n"), to: .last, in: .strip)
        XCTAssertEqual(keys.action(for: combo("ctrl+d"), in: .strip), .trash)
        XCTAssertEqual(keys.action(for: combo("ctrl+d"), in: .single), .trash)
        XCTAssertNil(keys.action(for: combo("Delete"), in: .single))
        XCTAssertEqual(keys.action(for: combo("x"), in: .single), .mark)
        XCTAssertNil(keys.action(for: combo("x"), in: .strip))
        XCTAssertEqual(keys.action(for: combo("n"), in: .strip), .last)
        XCTAssertEqual(keys.action(for: combo("n"), in: .single), .next)
        XCTAssertEqual(keys.keys(for: .trash, in: .strip), [combo("ctrl+d")])
    }

    func testActionNamesAreWhatAConfigFileWrites() {
        XCTAssertEqual(ViewerAction(rawValue: "trash"), .trash)
        XCTAssertEqual(ViewerAction(rawValue: "invert-marks"), .invertMarks)
        XCTAssertEqual(ViewerAction(rawValue: "key-handler"), .keyHandler)
        XCTAssertTrue(ViewerAction.allCases.allSatisfy { $0.rawValue.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    func testTheHelpListsEveryBoundKeyOnceGroupedByView() {
        let sections = KeyBindings.defaults.helpSections
        XCTAssertEqual(sections.map(\.title), ["Both views", "Strip", "Single view"])
        func line(_ section: String, _ keys: String) -> String? {
            sections.first { $0.title == section }?.lines.first { $0.keys == keys }?.summary
        }
        XCTAssertEqual(line("Both views", "n"), "next image")
        XCTAssertEqual(line("Strip", "Space"), "next image")
        XCTAssertEqual(line("Single view", "Space"), ViewerAction.pauseOrNext.summary(in: .single))
        XCTAssertEqual(line("Single view", "ctrl+Space"), ViewerAction.pause.summary(in: .single))
        XCTAssertEqual(line("Single view", "PageDown"), "next image")
        XCTAssertEqual(line("Both views", "ctrl+x"), ViewerAction.keyHandler.summary(in: .strip))
        XCTAssertEqual(line("Strip", "Enter"), ViewerAction.open.summary(in: .strip))
        XCTAssertEqual(line("Single view", "Esc, Enter"), ViewerAction.close.summary(in: .single))
        XCTAssertNotNil(line("Strip", "Left, h"))
        XCTAssertNotNil(line("Single view", "Left, h"))
        // Every binding appears: count the keys listed against the table.
        let listed = sections.map { section in section.lines.map { $0.keys.components(separatedBy: ", ").count }.reduce(0, +) }
        let bound = KeyBindings.View.allCases.map { view in ViewerAction.allCases.map { KeyBindings.defaults.keys(for: $0, in: view).count }.reduce(0, +) }
        XCTAssertEqual(listed[1] + listed[0], bound[0])
        XCTAssertEqual(listed[2] + listed[0], bound[1])
        XCTAssertTrue(KeyBindings.defaults.helpText.hasPrefix("Both views:\n  n "), KeyBindings.defaults.helpText)
    }
}

/// The README lists the keys as `--help` does: every line of the table, under its view.
final class ReadmeKeyTableTests: XCTestCase {
    func testTheReadmeListsEveryKeyOfTheTable() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        var rest = Substring(try String(contentsOf: readme, encoding: .utf8))
        for section in KeyBindings.defaults.helpSections {
            for row in ["**\(section.title)**"] + section.lines.map({ line in
                "| " + line.keys.components(separatedBy: ", ").map { "`\($0.replacingOccurrences(of: "|", with: "\\|"))`" }
                    .joined(separator: ", ") + " | \(line.summary) |"
            }) {
                guard let found = rest.range(of: row) else { return XCTFail("README lacks \(row)") }
                rest = rest[found.upperBound...]
            }
        }
    }
}
