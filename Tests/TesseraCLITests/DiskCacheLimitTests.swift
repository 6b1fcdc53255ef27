#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraFiles
import TesseraImaging
import TesseraTestSupport
import XCTest

/// `--disk-cache-mb` and its configuration key, as a user meets them: the binary keeps Tessera's own
/// caches under the limit at start, oldest use first, and leaves everything else in the cache folder alone.
final class DiskCacheLimitTests: XCTestCase {
    private var folder: URL!
    private var cacheRoot: String { folder.appendingPathComponent("cache/tessera").path }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-disk-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private func run(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess.tessera(arguments, environment: [
            "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path])
    }

    /// Three pyramids of 600 KB from earlier runs, used a day, two days and three days ago (newest first),
    /// and a file of the user's own in the tiles folder.
    private func fillCache() throws -> (pyramids: [String], foreign: String) {
        var pyramids: [String] = []
        for age in 1...3 {
            let entry = cacheRoot + "/tiles/" + CacheFileName.md5Hex("image \(age)")
            try FileManager.default.createDirectory(atPath: entry + "/pyramid_files/0", withIntermediateDirectories: true)
            try Data(repeating: UInt8(age), count: 600_000)
                .write(to: URL(fileURLWithPath: entry + "/pyramid_files/0/0_0.jpeg"))
            try Data("<Image/>".utf8).write(to: URL(fileURLWithPath: entry + "/pyramid.dzi"))
            let used = Int(Date().timeIntervalSince1970) - age * 86_400
            let times = [timespec(tv_sec: used, tv_nsec: 0), timespec(tv_sec: used, tv_nsec: 0)]
            XCTAssertEqual(utimensat(AT_FDCWD, entry, times, 0), 0)
            pyramids.append(entry)
        }
        let foreign = cacheRoot + "/tiles/keep-me.txt"
        try Data(repeating: 9, count: 2_000_000).write(to: URL(fileURLWithPath: foreign))
        return (pyramids, foreign)
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    func testTheLimitOnTheCommandLineEvictsTheOldestPyramidsAtStart() throws {
        let (pyramids, foreign) = try fillCache()
        let run = try run(["view", SampleImages.url("img25-small.jpg").path, "--headless", "--frames", "2",
                           "--disk-cache-mb", "1"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(exists(pyramids[0] + "/pyramid.dzi"), "used last, and fits in 1 MB")
        XCTAssertFalse(exists(pyramids[1]))
        XCTAssertFalse(exists(pyramids[2]))
        XCTAssertTrue(exists(foreign), "not Tessera's: neither counted nor removed")
    }

    func testTheConfigurationKeySetsTheLimit() throws {
        let (pyramids, _) = try fillCache()
        let config = folder.appendingPathComponent("config/tessera/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "disk-cache-mb = 1\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try run([SampleImages.url("img25-small.jpg").path, "--headless", "--frames", "2", "--no-watch"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(exists(pyramids[0] + "/pyramid.dzi"))
        XCTAssertFalse(exists(pyramids[2]))
    }

    func testWithoutALimitGivenTheDefaultKeepsAFewPyramids() throws {
        let (pyramids, _) = try fillCache()
        let run = try run(["view", SampleImages.url("img25-small.jpg").path, "--headless", "--frames", "2"])
        XCTAssertEqual(run.status, 0, run.stderr)
        // The default is at least 64 MB: 1.8 MB of pyramids stay.
        for pyramid in pyramids { XCTAssertTrue(exists(pyramid + "/pyramid.dzi")) }
    }

    func testALimitOutOfRangeOrNotANumberIsRefusedClearly() throws {
        for value in ["0", "1048577"] {
            let run = try run(["view", SampleImages.url("img25-small.jpg").path, "--headless", "--frames", "1",
                               "--disk-cache-mb", value])
            XCTAssertNotEqual(run.status, 0)
            XCTAssertTrue(run.stderr.contains("--disk-cache-mb must be between 1 and 1048576"), run.stderr)
        }
        let words = try run(["--disk-cache-mb", "lots", "--headless", "--frames", "1"])
        XCTAssertNotEqual(words.status, 0)
        XCTAssertTrue(words.stderr.contains("disk-cache-mb"), words.stderr)
        XCTAssertTrue(words.stderr.contains("lots"), words.stderr)
    }
}
