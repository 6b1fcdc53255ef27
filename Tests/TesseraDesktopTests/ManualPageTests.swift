import Foundation
import TesseraDesktop
import XCTest

/// The manual page says what the command tree says, in roff that formats without surprises.
final class ManualPageTests: XCTestCase {
    /// A tool shaped as `--experimental-dump-help` prints one: a default command with a discussion holding
    /// a keys table, a hidden command, and options with and without defaults.
    private let json = """
    {"serializationVersion": 0, "command": {
      "commandName": "tessera", "abstract": "An image viewer for Linux.",
      "arguments": [{"kind": "flag", "names": [{"kind": "long", "name": "version"}], "abstract": "Show the version.",
                     "shouldDisplay": true, "isOptional": true, "isRepeating": false}],
      "subcommands": [
        {"commandName": "browse", "abstract": "Browse images.", "shouldDisplay": true,
         "discussion": "Folders are listed in natural order\\nand watched.\\n\\nKeys:\\n  Left/Right     previous / next\\n  q              quit\\nMouse: drag to scroll.\\n\\nStrip:\\n  ctrl+x  then a key",
         "arguments": [
           {"kind": "positional", "valueName": "paths", "abstract": "Image files.", "isOptional": true, "isRepeating": true, "shouldDisplay": true},
           {"kind": "option", "names": [{"kind": "long", "name": "rows"}], "valueName": "rows", "defaultValue": "1",
            "abstract": "Rows of cells.", "isOptional": true, "isRepeating": false, "shouldDisplay": true},
           {"kind": "flag", "names": [{"kind": "long", "name": "recursive"}, {"kind": "short", "name": "r"}],
            "abstract": "Include subfolders.", "isOptional": true, "isRepeating": false, "shouldDisplay": true},
           {"kind": "flag", "names": [{"kind": "long", "name": "frame-times"}], "abstract": "Hidden.",
            "isOptional": true, "isRepeating": false, "shouldDisplay": false},
           {"kind": "flag", "names": [{"kind": "short", "name": "h"}, {"kind": "long", "name": "help"}],
            "abstract": "Show help information.", "isOptional": true, "isRepeating": false, "shouldDisplay": true}
         ]},
        {"commandName": "view", "abstract": "Show one image.", "shouldDisplay": true,
         "arguments": [{"kind": "positional", "valueName": "path", "abstract": "An image.", "isOptional": false, "isRepeating": false, "shouldDisplay": true}]},
        {"commandName": "generate", "abstract": "Hidden.", "shouldDisplay": false,
         "subcommands": [{"commandName": "man-page", "shouldDisplay": true}]},
        {"commandName": "help", "abstract": "Show subcommand help information.", "shouldDisplay": true}
      ]}}
    """

    private func page(keys: [ManualPage.Section] = []) throws -> String {
        let tool = try JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8))
        var page = ManualPage(tool: tool, version: "1.2.3")
        page.date = "2026-01-02"
        page.defaultCommand = "browse"
        page.keys = keys
        page.keysHelpText = "Strip:\n  ctrl+x  then a key"
        page.trailing = [ManualPage.Section(title: "Files", entries: [.init(term: "~/.config/x", text: "A file.")],
                                            example: ["rows = 2", "[keys]"])]
        return page.render()
    }

    func testTheHeaderNameAndSynopsisComeFromTheTree() throws {
        let lines = try page().split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, ".TH TESSERA 1 2026\\-01\\-02 \"Tessera 1.2.3\" \"User Commands\"")
        XCTAssertTrue(lines.contains("tessera \\- an image viewer for Linux"), "\(lines)")
        XCTAssertTrue(lines.contains("\\fBtessera\\fR [\\fBbrowse\\fR] [\\fIoptions\\fR] [\\fIpaths\\fR...]"), "\(lines)")
        XCTAssertTrue(lines.contains("\\fBtessera\\fR \\fBview\\fR \\fIpath\\fR"), "\(lines)")
    }

    func testOptionsCarryTheirDefaultsAndHiddenThingsStayHidden() throws {
        let text = try page()
        XCTAssertTrue(text.contains(".TP\n\\fB\\-\\-rows\\fR \\fIrows\\fR\nRows of cells. (default: 1)\n"), text)
        XCTAssertTrue(text.contains("\\fB\\-r\\fR, \\fB\\-\\-recursive\\fR\n"), "short names first: \(text)")
        XCTAssertFalse(text.contains("frame\\-times"), "a hidden option")
        XCTAssertFalse(text.contains("generate"), "a hidden command")
        XCTAssertFalse(text.contains("Show subcommand help"), "ArgumentParser's help command")
        XCTAssertEqual(text.components(separatedBy: "Show help information").count, 1, "--help is not listed per command")
    }

    func testATableTypedWithSpacesIsKeptAsItIsAndTextIsFilled() throws {
        let text = try page()
        XCTAssertTrue(text.contains("Folders are listed in natural order\nand watched.\n"), text)
        XCTAssertTrue(text.contains("Keys:\n.nf\n  Left/Right     previous / next\n  q              quit\n.fi\nMouse: drag to scroll.\n"), text)
        XCTAssertFalse(text.contains("\n\n"), "no blank line")
        XCTAssertTrue(text.contains(".RS 4\n.nf\nrows = 2\n[keys]\n.fi\n.RE\n"), text)
    }

    func testTheKeySectionReplacesTheDiscussionsKeyParagraph() throws {
        XCTAssertTrue(try page().contains("Strip:\n.nf\n  ctrl+x  then a key\n.fi\n"), "without a KEYS section the help's keys stay")
        let text = try page(keys: [ManualPage.Section(title: "Strip", entries: [.init(term: "ctrl+x", text: "then a key")])])
        XCTAssertFalse(text.contains("then a key\n.fi"), text)
        XCTAssertTrue(text.contains("Mouse: drag to scroll."), "the other paragraphs stay")
        XCTAssertTrue(text.contains(".SH KEYS\n.SS Strip\n.TP\n\\fBctrl+x\\fR\nthen a key\n"), text)
    }

    func testTextIsEscapedForRoff() throws {
        var info = try JSONDecoder().decode(ToolInfo.self, from: Data(json.utf8))
        info.command.subcommands?[1].abstract = ".starts with a dot, has a \\ backslash and 90°"
        let text = ManualPage(tool: info, version: "1").render()
        XCTAssertTrue(text.contains("\n\\&.starts with a dot, has a \\e backslash and 90\\[u00B0]\n"), text)
    }
}
