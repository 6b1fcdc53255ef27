import CTurboJPEG
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging

/// A crashed turn's temporary copy is removed by the next run over its folder; a file that only looks
/// like one, and one a running viewer is writing, are not.
final class ReplacementLeftoversTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws { folder = try TemporaryDirectory() }
    override func tearDown() { folder = nil }

    /// The ID of a process that has ended.
    private func endedProcessID() throws -> pid_t {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @discardableResult
    private func leave(_ name: String, modifiedSecondsAgo age: Int = 0) throws -> String {
        let path = try folder.write(Data(repeating: 7, count: 1000), to: name)
        let then = time(nil) - age
        var times = [timespec(tv_sec: then, tv_nsec: 0), timespec(tv_sec: then, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, &times, 0), 0)
        return path
    }

    private func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.path(name)) }

    func testOnlyTheExactPatternIsATemporaryFile() {
        XCTAssertEqual(ReplacementLeftovers.writer(ofName: ".tessera-turn-4321-aZ09xQ"), 4321)
        for name in [".tessera-turn-4321-aZ09x", ".tessera-turn-4321-aZ09xQ7", ".tessera-turn-04321-aZ09xQ",
                     ".tessera-turn--aZ09xQ", ".tessera-turn-43x1-aZ09xQ", ".tessera-turn-4321-aZ_9xQ",
                     ".tessera-turn-4321-aZ09xQ.jpg", "tessera-turn-4321-aZ09xQ", ".photo.jpg.tessera-aZ09xQ",
                     ".tessera-turn-99999999999-aZ09xQ"] {
            XCTAssertNil(ReplacementLeftovers.writer(ofName: name), name)
        }
    }

    func testTheNextListingOfTheFolderRemovesACrashedRunsTemporaryFilesOnly() throws {
        try folder.write(TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 9, g: 9, b: 9)), to: "photo.jpg")
        let crashed = ".tessera-turn-\(try endedProcessID())-Ab12Cd"
        let stale = ".tessera-turn-\(getpid())-Ef34Gh"
        let live = ".tessera-turn-\(getpid())-Ij56Kl"
        let lookalikes = [".tessera-turn-\(try endedProcessID())-Ab12C", ".photo.jpg.tessera-Ab12C", "tessera-turn-1-Ab12Cd",
                          ".other.jpg.tessera-Ab12Cd"]
        // The copy older builds wrote, `.NAME.tessera-XXXXXX`: removed once a minute old, its photo beside it.
        let olderCrashed = ".photo.jpg.tessera-Ab12Cd"
        let olderRecent = ".photo.jpg.tessera-Qr90St"
        try leave(olderCrashed, modifiedSecondsAgo: 3600)
        try leave(olderRecent, modifiedSecondsAgo: 5)
        try leave(crashed)
        try leave(stale, modifiedSecondsAgo: 120)
        try leave(live, modifiedSecondsAgo: 5)
        for name in lookalikes { try leave(name, modifiedSecondsAgo: 3600) }

        let listed = try ItemListing(paths: [folder.url.path], recursive: false).wait()
        XCTAssertEqual(listed.collected.items.map(\.path), [folder.path("photo.jpg")])
        XCTAssertFalse(exists(crashed), "its writer has ended")
        XCTAssertFalse(exists(stale), "not written for two minutes, whoever has its writer's ID now")
        XCTAssertTrue(exists(live), "a running viewer may be writing it")
        for name in lookalikes { XCTAssertTrue(exists(name), "\(name) is not of the pattern") }
        XCTAssertFalse(exists(olderCrashed), "an older build's copy of photo.jpg, an hour old")
        XCTAssertTrue(exists(olderRecent), "an older build's copy written seconds ago may still be in use")
        XCTAssertTrue(exists("photo.jpg"))
    }

    func testOpeningAFileCleansItsFolderToo() throws {
        let photo = try folder.write(TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 9, g: 9, b: 9)), to: "photo.jpg")
        let crashed = ".tessera-turn-\(try endedProcessID())-Mn78Op"
        try leave(crashed)
        let listed = try ItemListing(paths: [photo], recursive: false).wait()
        // The listing thread cleans after handing the items over; the test runs the same step itself.
        ItemListing.removeLeftovers(besideFilesIn: listed.collected)
        XCTAssertFalse(exists(crashed))
        XCTAssertTrue(exists("photo.jpg"))
    }

    func testATurnOfAFileWithALongestNameWorksAndLeavesNothingBeside() throws {
        let name = String(repeating: "n", count: 251) + ".jpg"
        let plain = TestJPEG.encode(.bgra(TestPixels.gradient(width: 48, height: 32)), quality: 90, subsampling: TJSAMP_420)
        let path = try folder.write(plain, to: name)
        let outcome = try LosslessRotator(thumbnails: nil).turn(path, by: .rotateRight)
        XCTAssertEqual(outcome, .written(previous: .up, current: .rotated90))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), [name])
    }
}
