#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest

/// The strip's order and listing as a user meets them: `--sort`, `--reverse` and their `config.toml` keys,
/// the first screen of a large folder, lists on standard input, and `listing_ms` in the report.
final class SortAndListingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-sort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("config/tessera"), withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Runs the binary headless; `input` goes to its standard input, which then closes.
    private func run(_ arguments: [String], script: String? = nil, input: Data = Data()) throws
        -> (status: Int32, stdout: String, stderr: String) {
        var arguments = arguments + ["--headless", "--no-watch"]
        if let script {
            let file = folder.appendingPathComponent("script.txt")
            try script.write(to: file, atomically: true, encoding: .utf8)
            arguments += ["--script", file.path]
        }
        let run = try ChildProcess.tessera(arguments, environment: [
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path], input: input)
        return (run.status, run.stdout, run.stderr)
    }

    /// Four files in a folder, listed a, b, c, d: sizes c < a < d < b, modified d, b, a, c (oldest first).
    private func fourFiles() throws -> URL {
        let images = folder.appendingPathComponent("four")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        for (name, size, modified) in [("a.jpg", 200, 3_000), ("b.jpg", 400, 2_000), ("c.jpg", 100, 4_000), ("d.jpg", 300, 1_000)] {
            let path = images.appendingPathComponent(name).path
            try Data(count: size).write(to: URL(fileURLWithPath: path))
            var times = [timespec(tv_sec: modified, tv_nsec: 0), timespec(tv_sec: modified, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        }
        return images
    }

    /// The strip's order once what it needs is read: every image marked (`M`), printed by `-o` in strip order.
    /// The strip opened untouched, so the image selected is the first of that order.
    private func order(_ arguments: [String]) throws -> [String] {
        let report = folder.appendingPathComponent("order.json")
        let result = try run(arguments + ["-o", "--report", report.path], script: "wait-idle\nkey M\nkey q\n")
        XCTAssertEqual(result.status, 0, result.stderr)
        let names = result.stdout.split(separator: "\n").map { String($0.split(separator: "/").last!) }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        XCTAssertEqual((json["selected_item"] as? String)?.split(separator: "/").last.map(String.init), names.first,
                       "\(arguments): the strip shows the start of its order")
        return names
    }

    func testEachSortOrderAndItsReverse() throws {
        let images = try fourFiles().path
        XCTAssertEqual(try order([images]), ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        XCTAssertEqual(try order([images, "--reverse"]), ["d.jpg", "c.jpg", "b.jpg", "a.jpg"])
        XCTAssertEqual(try order([images, "--sort", "size"]), ["c.jpg", "a.jpg", "d.jpg", "b.jpg"])
        XCTAssertEqual(try order([images, "--sort", "size", "--reverse"]), ["b.jpg", "d.jpg", "a.jpg", "c.jpg"])
        XCTAssertEqual(try order([images, "--sort", "mtime"]), ["d.jpg", "b.jpg", "a.jpg", "c.jpg"])
        XCTAssertEqual(try order([images, "--sort", "taken"]), ["d.jpg", "b.jpg", "a.jpg", "c.jpg"],
                       "no EXIF dates: by modification time")
        let shuffled = try order([images, "--sort", "random"])
        XCTAssertEqual(shuffled.sorted(), ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
    }

    func testTheConfigurationFileSetsTheOrderAndTheCommandLineBeatsIt() throws {
        let images = try fourFiles().path
        try "sort = \"mtime\"\nreverse = true\n".write(to: folder.appendingPathComponent("config/tessera/config.toml"),
                                                       atomically: true, encoding: .utf8)
        XCTAssertEqual(try order([images]), ["c.jpg", "a.jpg", "b.jpg", "d.jpg"])
        XCTAssertEqual(try order([images, "--sort", "name", "--no-reverse"]), ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        let wrong = try run([images, "--sort", "colour", "--frames", "1"])
        XCTAssertNotEqual(wrong.status, 0)
        XCTAssertTrue(wrong.stderr.contains("colour"), wrong.stderr)
    }

    /// A folder of 20,000 hard links made in a shuffled order, named as cameras and people name them: the
    /// first screen is the start of the natural order, the listing is timed in the report.
    func testTheFirstScreenOfALargeFolderIsTheStartOfItsOrder() throws {
        let images = folder.appendingPathComponent("large")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("source.jpg")
        try FileManager.default.copyItem(at: SampleImages.url("img25-small.jpg"), to: source)
        var names = (0..<20_000).map { "IMG_\($0 + 1).jpg" }
        names.shuffle()
        for name in names { XCTAssertEqual(link(source.path, images.appendingPathComponent(name).path), 0) }
        let report = folder.appendingPathComponent("run.json")
        for (extra, first) in [([String](), "IMG_1.jpg"), (["--reverse"], "IMG_20000.jpg")] {
            let result = try run([images.path, "--frames", "1", "--report", report.path] + extra)
            XCTAssertEqual(result.status, 0, result.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
            XCTAssertEqual(json["items"] as? Int, 20_000)
            XCTAssertEqual(json["selected_item"] as? String, images.appendingPathComponent(first).path)
            let listing = try XCTUnwrap(json["listing_ms"] as? Double, "the report times the listing")
            XCTAssertGreaterThan(listing, 0)
        }
    }

    func testAListOnStandardInputIsTakenInItsOrder() throws {
        let images = try fourFiles()
        let listed = ["d.jpg", "a.jpg", "c.jpg"].map { images.appendingPathComponent($0).path }
        // Long enough to arrive in several reads.
        let filler = String(repeating: "# a comment line to fill the pipe\n", count: 20_000)
        let input = Data(("# chosen\n" + filler + listed.joined(separator: "\n") + "\n").utf8)
        let result = try run(["-i", "-", "-o"], script: "wait-idle\nkey M\nkey q\n", input: input)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").map(String.init), listed)

        let nul = try run(["-i", "-", "-0", "-o"], script: "wait-idle\nkey M\nkey q\n",
                          input: Data((listed.reversed().joined(separator: "\0") + "\0").utf8))
        XCTAssertEqual(nul.status, 0, nul.stderr)
        XCTAssertEqual(nul.stdout.split(separator: "\0").map(String.init), listed.reversed(), "-0 both ways")

        let empty = try run(["-i", "-", "--frames", "1"], input: Data("# nothing\n".utf8))
        XCTAssertNotEqual(empty.status, 0)
        XCTAssertEqual(empty.stderr.split(separator: "\n"), ["tessera: -: the list names no images"])
    }
}
