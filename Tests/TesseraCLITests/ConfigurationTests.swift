import Foundation
import TesseraDesktop
import TesseraTestSupport
import XCTest

/// `config.toml` as a user meets it: it sets defaults, the command line beats it, and a file with a problem
/// stops the viewer before it starts, naming the file, the line and the key.
final class ConfigurationTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config/tessera"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private var binary: String { BuiltBinary.url(named: "tessera").path }
    private var configFile: URL { folder.appendingPathComponent("config/tessera/config.toml") }
    private var report: URL { folder.appendingPathComponent("run.json") }

    private func writeConfig(_ text: String, to url: URL? = nil) throws {
        try text.write(to: url ?? configFile, atomically: true, encoding: .utf8)
    }

    private func run(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.run(binary, arguments, environment: [
            "SDL_VIDEODRIVER": "dummy", "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
        ])
    }

    /// A short headless run over one sample; the strategy it reports.
    private func reportedStrategy(_ extra: [String] = []) throws -> String? {
        let images = folder.appendingPathComponent("images")
        if !FileManager.default.fileExists(atPath: images.path) {
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: SampleImages.url("img25-small.jpg"), to: images.appendingPathComponent("a.jpg"))
        }
        try? FileManager.default.removeItem(at: report)
        let result = try run([images.path, "--headless", "--frames", "2", "--report", report.path] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        return json?["strategy"] as? String
    }

    func testTheFileSetsDefaultsAndTheCommandLineBeatsIt() throws {
        XCTAssertEqual(try reportedStrategy(), "adaptive", "no file: the built-in default")
        try writeConfig("# mine\nstrategy = \"lazy\"\nfade = 0\n")
        XCTAssertEqual(try reportedStrategy(), "lazy")
        XCTAssertEqual(try reportedStrategy(["--strategy", "sync"]), "sync")
        try writeConfig("strategy = \"lazy\"\n[browse]\nstrategy = \"cache\"\n")
        XCTAssertEqual(try reportedStrategy(), "cache", "a command's section beats the top level")
        XCTAssertEqual(try reportedStrategy(["--no-config"]), "adaptive")
    }

    func testAFileNamedWithConfigIsReadAndAMissingOneIsAnError() throws {
        let other = folder.appendingPathComponent("other.toml")
        try writeConfig("strategy = \"swap\"\n", to: other)
        XCTAssertEqual(try reportedStrategy(["--config", other.path]), "swap")
        let missing = folder.appendingPathComponent("missing.toml").path
        let result = try run(["--config", missing, "--headless", "--frames", "1"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tessera: \(missing): no such file\n")
    }

    func testABadFileStopsTheViewerAndNamesEachLine() throws {
        try writeConfig("""
        fade = 0.5
        rows = "two"
        strategy = "fast"

        [browse]
        cache_mb = 512
        fullscreen = "yes"
        """)
        let result = try run(["--headless", "--frames", "1", "--report", report.path])
        XCTAssertEqual(result.status, 1)
        let path = configFile.path
        XCTAssertEqual(result.stderr.split(separator: "\n").map(String.init), [
            "tessera: \(path):2: rows must be a whole number from 1 to 32, not \"two\"",
            "tessera: \(path):3: strategy must be one of \"sync\", \"async\", \"predraw\", \"tiled\", \"cache\", \"lazy\", \"swap\", \"adaptive\", not \"fast\"",
            "tessera: \(path):6: unknown setting \"cache_mb\" in [browse]; did you mean \"cache-mb\"?",
            "tessera: \(path):7: fullscreen must be true or false, not \"yes\"",
        ])
        XCTAssertFalse(FileManager.default.fileExists(atPath: report.path), "the viewer did not start")
        XCTAssertEqual(try run(["view", "x.dzi", "--headless", "--frames", "1"]).status, 1, "view reads the same file")

        try writeConfig("rows = 2\nfade = \n")
        let syntax = try run(["--headless", "--frames", "1"])
        XCTAssertEqual(syntax.status, 1)
        XCTAssertTrue(syntax.stderr.hasPrefix("tessera: \(path):2: not valid TOML (column "), syntax.stderr)

        let help = try run(["--help"])
        XCTAssertEqual(help.status, 0, "help shows whatever the file holds")
        XCTAssertEqual(try run(["tile", "--help"]).status, 0)
    }

    func testKeyBindingsAreCheckedBeforeTheViewerStarts() throws {
        try writeConfig("[keys]\n\"ctrl+d\" = \"trash\"\n\"Delete\" = \"none\"\n")
        XCTAssertEqual(try reportedStrategy(), "adaptive", "a good [keys] table runs")
        try writeConfig("[keys]\n\"ctrl+d\" = \"trash\"\n\n[keys.single]\n\"x\" = \"trsh\"\n")
        try FileManager.default.removeItem(at: report)
        let result = try run(["--headless", "--frames", "1", "--report", report.path])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "tessera: \(configFile.path):5: \"x\" = \"trsh\": no such action; did you mean \"trash\"?\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: report.path))
    }

    /// Keys a file binds are the viewer's keys: `x` marks, `m` does nothing, `z` quits the strip; `-o`
    /// shows what was marked and the report how soon it quit.
    func testTheFilesKeysAreTheViewersKeys() throws {
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let names = ["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg"]
        for name in names { try FileManager.default.copyItem(at: SampleImages.url(name), to: photos.appendingPathComponent(name)) }
        try writeConfig("[keys]\n\"x\" = \"mark\"\n\"m\" = \"none\"\n[keys.strip]\n\"z\" = \"quit\"\n")
        let script = folder.appendingPathComponent("keys.txt")
        // A script that ends quits the viewer; the wait after z would add 300 frames (60 a second) if z did not.
        try "wait-idle\nkey x\nkey l\nkey m\nkey z\nwait 5\n".write(to: script, atomically: true, encoding: .utf8)
        let result = try run([photos.path, "--headless", "--no-watch", "--script", script.path, "--frames", "600",
                              "--report", report.path, "-o"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, photos.appendingPathComponent(names[0]).path + "\n", "x marked the first; m marked nothing")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any]
        XCTAssertLessThan(try XCTUnwrap(json?["frames"] as? Int), 300, "z quit before the five seconds after it")
    }

    /// The file must never accept a value the command line refuses, or that value's error would come
    /// without its line. Each setting is given to the binary at both ends of its range (each choice, both
    /// spellings of a flag) for every command that has it; a path that does not exist ends the run just
    /// after the options are checked.
    func testEveryValueTheFileAcceptsTheCommandLineAcceptsToo() throws {
        let missing = folder.appendingPathComponent("nothing-here").path
        for setting in TesseraSettings.all {
            var values: [[String]] = []
            switch setting.kind {
            case .wholeNumber(let range):
                values = [range.lowerBound, range.upperBound == .max ? range.lowerBound + 1000 : range.upperBound]
                    .map { ["--\(setting.name)", String($0)] }
            case .number(let range, _):
                values = [range.lowerBound, range.upperBound].map { ["--\(setting.name)", String($0)] }
            case .size(let range):
                values = [range.lowerBound, range.upperBound].map { ["--\(setting.name)", "\($0)x\($0)"] }
            case .flag:
                values = [["--\(setting.name)"], ["--no-\(setting.name)"]]
            case .choice(let names):
                values = names.map { ["--\(setting.name)", $0] }
            }
            for command in setting.commands.sorted() {
                for arguments in values {
                    let result = try run([command.rawValue, missing, "--headless", "--frames", "1"] + arguments)
                    XCTAssertNotEqual(result.status, 64, "\(command) refuses \(arguments): \(result.stderr)")
                    XCTAssertFalse(result.stderr.contains("Error:"), "\(command) refuses \(arguments): \(result.stderr)")
                }
            }
        }
    }
}
