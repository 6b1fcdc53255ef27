import TesseraDesktop
import XCTest

/// A configuration file sets defaults, and refuses, with each problem's line, anything it cannot use.
final class ConfigurationFileTests: XCTestCase {
    private let path = "/home/u/.config/tessera/config.toml"

    /// Key bindings as the viewer checks them: a few actions, two views, keys of one character or named.
    private var schema: ConfigurationSchema {
        ConfigurationSchema(settings: TesseraSettings.all, keys: KeyBindingRules(
            actions: ["trash", "quit", "next", "mark"], views: ["strip", "single"],
            checkKey: { key in key.count == 1 || ["ctrl+d", "Delete", "ctrl+x"].contains(key) ? nil : "\"\(key)\" is not a key" }))
    }

    private func file(_ text: String) throws(ConfigurationError) -> ConfigurationFile {
        try ConfigurationFile(text: text, path: path, schema: schema)
    }

    /// The one-line messages a file gives, or [] when it is accepted.
    private func problems(_ text: String) -> [String] {
        do throws(ConfigurationError) {
            _ = try file(text)
            return []
        } catch {
            return error.lines
        }
    }

    func testSettingsBecomeTheirCommandLineArguments() throws {
        let settings = try file("""
        # comment
        rows = 2
        cell = "320X240"
        fade = 0
        watch = false
        fullscreen = true
        strategy = "lazy"
        download-timeout = 2.5
        """)
        XCTAssertEqual(settings.arguments(for: .browse),
                       ["--rows", "2", "--cell", "320x240", "--fade", "0", "--no-watch", "--fullscreen",
                        "--strategy", "lazy", "--download-timeout", "2.5"])
        XCTAssertEqual(settings.arguments(for: .view), ["--fade", "0", "--fullscreen"], "only the options view has")
    }

    func testACommandsSectionComesAfterTheTopLevelSoItWins() throws {
        let sections = try file("""
        [view]
        cache-mb = 64
        [browse]
        fade = 1
        """)
        XCTAssertEqual(sections.arguments(for: .view), ["--cache-mb", "64"])
        XCTAssertEqual(sections.arguments(for: .browse), ["--fade", "1"])
        let withTop = try file("fade = 0.5\ncache-mb = 512\n[browse]\nfade = 1\n")
        XCTAssertEqual(withTop.arguments(for: .browse), ["--fade", "0.5", "--cache-mb", "512", "--fade", "1"])
        XCTAssertEqual(withTop.arguments(for: .view), ["--fade", "0.5", "--cache-mb", "512"])
    }

    func testAnEmptyFileSetsNothing() throws {
        XCTAssertEqual(try file("").arguments(for: .browse), [])
        XCTAssertEqual(try file("# only a comment\n\n").arguments(for: .view), [])
    }

    func testAWrongTypeNamesTheLineTheKeyAndWhatIsExpected() {
        XCTAssertEqual(problems("fade = 0\n\nrows = \"two\"\n"),
                       ["\(path):3: rows must be a whole number from 1 to 32, not \"two\""])
        XCTAssertEqual(problems("rows = 2.0"), ["\(path):1: rows must be a whole number from 1 to 32, not 2.0"])
        XCTAssertEqual(problems("watch = \"no\""), ["\(path):1: watch must be true or false, not \"no\""])
        XCTAssertEqual(problems("cell = [400, 300]"),
                       ["\(path):1: cell must be a size such as \"400x300\" (width x height, each from 1 to 16384), not an array"])
        XCTAssertEqual(problems("[browse]\nfade = \"slow\""),
                       ["\(path):2: fade must be a number of seconds from 0 to 10, not \"slow\""])
    }

    func testAValueOutOfRangeNamesTheLineAndTheRange() {
        XCTAssertEqual(problems("rows = 33"), ["\(path):1: rows must be a whole number from 1 to 32, not 33"])
        XCTAssertEqual(problems("rows = 0"), ["\(path):1: rows must be a whole number from 1 to 32, not 0"])
        XCTAssertEqual(problems("fade = 10.5"), ["\(path):1: fade must be a number of seconds from 0 to 10, not 10.5"])
        XCTAssertEqual(problems("cache-mb = 0"), ["\(path):1: cache-mb must be a whole number from 1 to 1048576, not 0"])
        XCTAssertEqual(problems("cell = \"400x0\""),
                       ["\(path):1: cell must be a size such as \"400x300\" (width x height, each from 1 to 16384), not \"400x0\""])
        XCTAssertEqual(problems("strategy = \"fast\""),
                       ["\(path):1: strategy must be one of \"sync\", \"async\", \"predraw\", \"tiled\", \"cache\", \"lazy\", \"swap\", \"adaptive\", not \"fast\""])
    }

    func testAnUnknownKeyIsAnErrorWithTheNearestKnownOne() {
        XCTAssertEqual(problems("row = 2"), ["\(path):1: unknown setting \"row\"; did you mean \"rows\"?"])
        XCTAssertEqual(problems("\n[view]\ncache_mb = 2"),
                       ["\(path):3: unknown setting \"cache_mb\" in [view]; did you mean \"cache-mb\"?"])
        XCTAssertEqual(problems("colours = true"), ["\(path):1: unknown setting \"colours\""], "nothing near enough")
        XCTAssertEqual(problems("[brwose]\nrows = 2"), ["\(path):1: unknown section [brwose]; did you mean [browse]?"])
        XCTAssertEqual(problems("[view]\nrows = 2"),
                       ["\(path):2: rows is not a setting of view; it belongs in [browse] or at the top"])
    }

    func testBadTOMLSyntaxGivesItsLine() {
        let messages = problems("rows = 2\nfade = \n")
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages[0].hasPrefix("\(path):2: not valid TOML (column "), messages[0])
        XCTAssertTrue(problems("rows = 2\nrows = 3\n").first?.hasPrefix("\(path):2: not valid TOML") == true,
                      "a key given twice")
        XCTAssertTrue(problems("[keys\n").first?.hasPrefix("\(path):1: not valid TOML") == true)
    }

    func testEveryProblemIsListedInLineOrder() {
        XCTAssertEqual(problems("watch = 1\nrows = 99\n[browse]\nstrategy = \"x\"\n").map { $0.split(separator: ":")[1] },
                       ["1", "2", "4"])
    }

    func testKeyBindingsForEveryViewAndForOneView() throws {
        let settings = try file("""
        [keys.strip]
        "x" = "mark"
        [keys]
        "ctrl+d" = "trash"
        "Delete" = "none"
        """)
        XCTAssertEqual(settings.keyBindings, [
            KeyBindingSetting(key: "ctrl+d", action: "trash", view: nil, line: 4),
            KeyBindingSetting(key: "Delete", action: nil, view: nil, line: 5),
            KeyBindingSetting(key: "x", action: "mark", view: "strip", line: 2),
        ])
    }

    func testABadBindingNamesItsLine() {
        XCTAssertEqual(problems("[keys]\n\"ctrl+d\" = \"trsh\"\n"),
                       ["\(path):2: \"ctrl+d\" = \"trsh\": no such action; did you mean \"trash\"?"])
        XCTAssertEqual(problems("[keys]\n\"ctrl+q+x\" = \"quit\"\n"), ["\(path):2: \"ctrl+q+x\" is not a key"])
        XCTAssertEqual(problems("[keys]\nx = 3\n"), ["\(path):2: \"x\" must name an action (or \"none\"), not 3"])
        XCTAssertEqual(problems("keys = 3\n"), ["\(path):1: [keys] must be a table of \"KEY\" = \"ACTION\", not 3"])
    }

    func testWithoutKeyRulesAKeysTableIsUnknown() {
        XCTAssertThrowsError(try ConfigurationFile(text: "[keys]\nx = \"quit\"\n", path: path,
                                                   schema: ConfigurationSchema(settings: TesseraSettings.all)))
    }
}
