import Foundation
import XCTest
@testable import TesseraDesktop

/// The file's settings go in front of the command line's own, for the command the arguments name.
final class CommandLineDefaultsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tessera"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private var defaultFile: URL { folder.appendingPathComponent("tessera/config.toml") }

    private func defaults(home: String? = nil) -> CommandLineDefaults {
        var environment = ["XDG_CONFIG_HOME": folder.path]
        if let home { environment = ["HOME": home] }
        return CommandLineDefaults(schema: TesseraSettings.schema, defaultCommand: .browse,
                                   otherCommands: ["tile", "bench", "help"], environment: environment)
    }

    func testTheDefaultCommandIsNamedAndTheFileGoesFirst() throws {
        try "rows = 2\nfade = 0\n".write(to: defaultFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try defaults().arguments(["photos", "--rows", "3"]),
                       ["browse", "--rows", "2", "--fade", "0", "photos", "--rows", "3"])
        XCTAssertEqual(try defaults().arguments([]), ["browse", "--rows", "2", "--fade", "0"])
        XCTAssertEqual(try defaults().arguments(["view", "big.dzi"]), ["view", "--fade", "0", "big.dzi"])
        XCTAssertEqual(try defaults().arguments(["browse", "-r"]), ["browse", "--rows", "2", "--fade", "0", "-r"])
    }

    func testCommandsWithoutSettingsAndHelpPassUntouched() throws {
        try "rows = 99\n".write(to: defaultFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try defaults().arguments(["tile", "a.jpg"]), ["tile", "a.jpg"])
        XCTAssertEqual(try defaults().arguments(["--help"]), ["--help"], "help shows even with a bad file")
        XCTAssertEqual(try defaults().arguments(["view", "-h"]), ["view", "-h"])
        XCTAssertEqual(try defaults().arguments(["--version"]), ["--version"])
        XCTAssertThrowsError(try defaults().arguments(["--", "--help"]), "a path named --help is a path")
    }

    func testAMissingDefaultFileIsNoErrorAndNoConfigReadsNone() throws {
        XCTAssertEqual(try defaults().arguments(["photos"]), ["photos"])
        try "rows = 99\n".write(to: defaultFile, atomically: true, encoding: .utf8)
        XCTAssertEqual(try defaults().arguments(["photos", "--no-config"]), ["photos", "--no-config"])
    }

    func testAFileNamedOnTheCommandLineIsReadAndMustExist() throws {
        let other = folder.appendingPathComponent("other.toml")
        try "rows = 4\n".write(to: other, atomically: true, encoding: .utf8)
        XCTAssertEqual(try defaults().arguments(["--config", other.path, "x"]), ["browse", "--rows", "4", "--config", other.path, "x"])
        XCTAssertEqual(try defaults().arguments(["--config=\(other.path)"]), ["browse", "--rows", "4", "--config=\(other.path)"])
        let missing = folder.appendingPathComponent("missing.toml").path
        XCTAssertThrowsError(try defaults().arguments(["--config", missing])) { error in
            XCTAssertEqual((error as? ConfigurationError)?.lines, ["\(missing): no such file"])
        }
    }

    func testTheFileIsFoundUnderHomeWithoutXDGConfigHome() throws {
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config/tessera"), withIntermediateDirectories: true)
        try "rows = 3\n".write(to: home.appendingPathComponent(".config/tessera/config.toml"), atomically: true, encoding: .utf8)
        XCTAssertEqual(try defaults(home: home.path).arguments([]), ["browse", "--rows", "3"])
        XCTAssertEqual(ConfigurationFile.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]),
                       "/h/.config/tessera/config.toml", "a relative XDG_CONFIG_HOME is ignored, as the spec says")
    }

    func testAnUnreadableFileOrAFolderIsRefused() throws {
        try FileManager.default.createDirectory(at: defaultFile, withIntermediateDirectories: true)
        XCTAssertThrowsError(try defaults().arguments([])) { error in
            XCTAssertEqual((error as? ConfigurationError)?.lines, ["\(self.defaultFile.path): a folder, not a configuration file"])
        }
        try FileManager.default.removeItem(at: defaultFile)
        try Data([0x72, 0x6F, 0x77, 0xFF]).write(to: defaultFile)
        XCTAssertThrowsError(try defaults().arguments([])) { error in
            XCTAssertEqual((error as? ConfigurationError)?.lines, ["\(self.defaultFile.path): not UTF-8 text"])
        }
    }
}
