#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraTiling

/// The disk cache limit over real pyramids cut by the tile cutter and download entries named as the
/// download cache names them, with the clock in the test's hands.
final class DiskCacheJanitorTests: XCTestCase {
    private var folder: String!
    private var root: String { folder + "/cache/tessera" }
    private let clock = TestDate()

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "tessera-janitor-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/images", withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: folder) }

    private func janitor(limit: Int64) -> DiskCacheJanitor {
        let clock = clock
        return DiskCacheJanitor(root: root, limitBytes: limit, now: { clock.now })
    }

    private var pyramids: TilePyramidCache { TilePyramidCache(root: root + "/tiles") }

    /// Writes a noisy PNG (its tiles do not compress to nothing) and returns its path.
    @discardableResult
    private func writeImage(_ name: String, seed: UInt8, side: Int = 700) throws -> String {
        var bytes = [UInt8](repeating: 255, count: side * side * 4)
        var state = UInt32(seed) &* 2_654_435_761 | 1
        for index in bytes.indices where index % 4 != 3 {
            state ^= state << 13; state ^= state >> 17; state ^= state << 5
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        let buffer = PixelBuffer(width: side, height: side, bytes: bytes)
        let path = folder + "/images/" + name
        try TilingFixtures.png(buffer).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Cuts `image` into the cache as the viewer does: leased while cut, then recorded as finished. The
    /// lease is released at the end unless the caller keeps the one returned.
    @discardableResult
    private func cut(_ image: String, with janitor: DiskCacheJanitor) throws -> (folder: String, lease: DiskCacheLease?) {
        var info = stat()
        XCTAssertEqual(stat(image, &info), 0)
        let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        let folder = pyramids.folder(forImageAt: image, byteSize: Int(info.st_size), modified: modified)
        let lease = janitor.lease(pyramidFolder: folder)
        XCTAssertNotNil(lease)
        _ = try TileCutter(options: TileCutterOptions()).cut(imageAt: image, into: folder, name: TilePyramidCache.pyramidName)
        janitor.pyramidFinished(inFolder: folder, sourceKey: pyramids.sourceKey(forImageAt: image))
        return (folder, lease)
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// A download entry as the download cache writes it: `MD5(url)` and `MD5(url).json`.
    private func writeDownload(_ url: String, bytes: Int, lastUse: Date) throws -> String {
        try FileManager.default.createDirectory(atPath: root + "/remote", withIntermediateDirectories: true)
        let path = root + "/remote/" + CacheFileName.md5Hex(url)
        try Data(repeating: 7, count: bytes).write(to: URL(fileURLWithPath: path))
        try Data("{\"url\":\"\(url)\"}".utf8).write(to: URL(fileURLWithPath: path + ".json"))
        setTimes(path, to: lastUse)
        return path
    }

    private func setTimes(_ path: String, to date: Date) {
        let seconds = Int(date.timeIntervalSince1970)
        let times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        XCTAssertEqual(utimensat(AT_FDCWD, path, times, 0), 0)
    }

    // MARK: - Least recently used first

    func testOverTheLimitTheLeastRecentlyUsedPyramidsGoAndTheRecentlyUsedStay() throws {
        let unbounded = janitor(limit: .max)
        var folders: [String] = []
        for index in 0..<4 {
            folders.append(try cut(try writeImage("photo\(index).png", seed: UInt8(index + 1)), with: unbounded).folder)
            clock.advance(by: 3600)
        }
        // The first one is looked at again, last of all.
        _ = unbounded.lease(pyramidFolder: folders[0])
        let sizes = unbounded.entries().reduce(into: [String: Int64]()) { $0[$1.path] = $1.bytes }
        XCTAssertEqual(sizes.count, 4)
        XCTAssertGreaterThan(sizes[folders[1]] ?? 0, 50_000, "a pyramid of a noisy 700 px image")

        // Room for two of them.
        let limit = sizes[folders[0]]! + sizes[folders[3]]! + 4096
        let result = janitor(limit: limit).sweep()

        XCTAssertTrue(exists(folders[0] + "/pyramid.dzi"), "used last")
        XCTAssertTrue(exists(folders[3] + "/pyramid.dzi"), "cut last")
        XCTAssertFalse(exists(folders[1]), "least recently used")
        XCTAssertFalse(exists(folders[2]))
        XCTAssertEqual(Set(result.removed), [folders[1], folders[2]])
        XCTAssertLessThanOrEqual(result.bytesAfter, limit)
        XCTAssertLessThanOrEqual(janitor(limit: limit).entries().reduce(0) { $0 + $1.bytes }, limit)
    }

    func testAPyramidInUseIsNeverEvictedAndGoesOnceReleased() throws {
        let unbounded = janitor(limit: .max)
        let old = try cut(try writeImage("old.png", seed: 1), with: unbounded).folder
        clock.advance(by: 60)
        var open = try cut(try writeImage("open.png", seed: 2), with: unbounded)
        clock.advance(by: 60)
        let other = try cut(try writeImage("other.png", seed: 3), with: unbounded).folder
        // The open pyramid is now the least recently used of all.
        setTimes(open.folder, to: clock.now.addingTimeInterval(-86_400))

        _ = janitor(limit: 0).sweep()
        XCTAssertTrue(exists(open.folder + "/pyramid.dzi"), "open in a view")
        XCTAssertFalse(exists(old))
        XCTAssertFalse(exists(other))

        open.lease = nil
        _ = janitor(limit: 0).sweep()
        XCTAssertFalse(exists(open.folder))
    }

    func testAPyramidBeingCutIsNotTakenForACrashedCut() throws {
        let janitor = janitor(limit: 0)
        let folder = pyramids.folder(forImageAt: folder + "/images/big.png", byteSize: 1, modified: Date())
        let lease = janitor.lease(pyramidFolder: folder)
        let temporary = folder + "/.pyramid.dzi.tmp-\(getpid())-1"
        try FileManager.default.createDirectory(atPath: temporary + "/pyramid_files/0", withIntermediateDirectories: true)

        janitor.sweep()
        XCTAssertTrue(exists(temporary), "a cut of this process, holding its lease")
        withExtendedLifetime(lease) {}
    }

    func testAPyramidsSizeIsCountedAgainWhenSomethingIsWrittenInsideIt() throws {
        let janitor = janitor(limit: .max)
        let pyramid = try cut(try writeImage("photo.png", seed: 8), with: janitor).folder
        let before = try XCTUnwrap(janitor.entries().first).bytes
        XCTAssertEqual(janitor.entries().first?.bytes, before, "unchanged, counted the same")
        // A second cut of the same image under way beside the finished pyramid.
        let temporary = pyramid + "/.pyramid.dzi.tmp-\(getpid())-9"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        try Data(repeating: 5, count: 100_000).write(to: URL(fileURLWithPath: temporary + "/tile.jpeg"))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(janitor.entries().first).bytes, before + 100_000)
    }

    // MARK: - A changed source

    func testACutOfAChangedImageReplacesItsOldPyramid() throws {
        let janitor = janitor(limit: .max)
        let image = try writeImage("edited.png", seed: 4)
        let unrelated = try cut(try writeImage("unrelated.png", seed: 5), with: janitor).folder
        let first = try cut(image, with: janitor).folder
        // The user edits the image: new bytes, a later time.
        try writeImage("edited.png", seed: 6)
        setTimes(image, to: Date().addingTimeInterval(10))
        let second = try cut(image, with: janitor).folder

        XCTAssertNotEqual(first, second)
        XCTAssertFalse(exists(first), "the old pyramid of the same image is removed")
        XCTAssertTrue(exists(second + "/pyramid.dzi"))
        XCTAssertTrue(exists(unrelated + "/pyramid.dzi"))
    }

    func testAnOldPyramidOpenElsewhereIsNotRemovedUnderItsViewer() throws {
        let janitor = janitor(limit: .max)
        let image = try writeImage("edited.png", seed: 4)
        let first = try cut(image, with: janitor)
        try writeImage("edited.png", seed: 6)
        setTimes(image, to: Date().addingTimeInterval(10))
        _ = try cut(image, with: janitor)
        XCTAssertTrue(exists(first.folder + "/pyramid.dzi"))
        withExtendedLifetime(first.lease) {}
    }

    // MARK: - One budget

    func testDownloadsAndPyramidsShareOneBudget() throws {
        let unbounded = janitor(limit: .max)
        let oldDownload = try writeDownload("https://example.org/old.jpg", bytes: 200_000,
                                            lastUse: clock.now.addingTimeInterval(-7200))
        let pyramid = try cut(try writeImage("photo.png", seed: 7), with: unbounded).folder
        let newDownload = try writeDownload("https://example.org/new.jpg", bytes: 200_000,
                                            lastUse: clock.now.addingTimeInterval(60))
        let entries = unbounded.entries()
        XCTAssertEqual(entries.count, 3)
        let pyramidBytes = try XCTUnwrap(entries.first { $0.kind == .pyramid }).bytes
        let downloadBytes = try XCTUnwrap(entries.first { $0.path == newDownload }).bytes

        // Room for the pyramid and one download, not both downloads.
        let result = janitor(limit: pyramidBytes + downloadBytes + 4096).sweep()

        XCTAssertFalse(exists(oldDownload))
        XCTAssertFalse(exists(oldDownload + ".json"), "its sidecar goes with it")
        XCTAssertTrue(exists(newDownload))
        XCTAssertTrue(exists(pyramid + "/pyramid.dzi"))
        XCTAssertEqual(result.removed, [oldDownload])

        // With no room at all, the older of the two kinds goes first: here the pyramid.
        let tight = janitor(limit: downloadBytes + 4096).sweep()
        XCTAssertEqual(tight.removed, [pyramid])
        XCTAssertTrue(exists(newDownload))
    }

    func testADownloadPinnedByThisRunStays() throws {
        let janitor = janitor(limit: 0)
        let pinned = try writeDownload("https://example.org/shown.jpg", bytes: 10_000, lastUse: clock.now.addingTimeInterval(-86_400))
        let unpinned = try writeDownload("https://example.org/gone.jpg", bytes: 10_000, lastUse: clock.now)
        janitor.pin(pinned)
        janitor.sweep()
        XCTAssertTrue(exists(pinned))
        XCTAssertFalse(exists(unpinned))
        janitor.unpin(pinned)
        janitor.sweep()
        XCTAssertFalse(exists(pinned))
    }

    func testServingADownloadMakesItRecentlyUsed() throws {
        let janitor = janitor(limit: .max)
        let first = try writeDownload("https://example.org/a.jpg", bytes: 10_000, lastUse: clock.now.addingTimeInterval(-600))
        let second = try writeDownload("https://example.org/b.jpg", bytes: 10_000, lastUse: clock.now.addingTimeInterval(-300))
        janitor.stampUse(ofDownload: first)
        let bytes = janitor.entries().first { $0.path == second }!.bytes
        let result = self.janitor(limit: bytes + 100).sweep()
        XCTAssertEqual(result.removed, [second])
        XCTAssertTrue(exists(first))
    }

    // MARK: - Only Tessera's own entries

    func testForeignFilesAndTheThumbnailFoldersAreNeverTouched() throws {
        let manager = FileManager.default
        let foreign: [String] = [
            root + "/tiles/notes.txt",
            root + "/tiles/ABCDEF0123456789ABCDEF0123456789/pyramid.dzi",
            root + "/tiles/0123456789abcdef0123456789abcde/pyramid.dzi",
            root + "/remote/readme",
            root + "/remote/0123456789abcdef0123456789abcdef.download-abc",
            root + "/remote/0123456789abcdef0123456789abcdef.partial",
            root + "/other/0123456789abcdef0123456789abcdef",
            root + "/0123456789abcdef0123456789abcdef",
            folder + "/cache/thumbnails/normal/0123456789abcdef0123456789abcdef.png",
        ]
        for path in foreign {
            try manager.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(repeating: 1, count: 50_000).write(to: URL(fileURLWithPath: path))
            setTimes(path, to: clock.now.addingTimeInterval(-30 * 86_400))
        }
        // A link named like an entry, pointing at the user's own folder: not followed, not removed.
        let precious = folder + "/images/precious.jpg"
        try Data(repeating: 2, count: 1000).write(to: URL(fileURLWithPath: precious))
        let link = root + "/tiles/fedcba9876543210fedcba9876543210"
        try manager.createSymbolicLink(atPath: link, withDestinationPath: folder + "/images")
        let own = try writeDownload("https://example.org/x.jpg", bytes: 1000, lastUse: clock.now)

        let result = janitor(limit: 0).sweep()

        XCTAssertEqual(result.removed, [own])
        for path in foreign { XCTAssertTrue(manager.fileExists(atPath: path), path) }
        XCTAssertTrue(manager.fileExists(atPath: precious))
        XCTAssertNotNil(try? manager.destinationOfSymbolicLink(atPath: link))
    }

    // MARK: - Crashed runs

    func testACrashedCutAndStaleDownloadsAreCleanedUpButFreshOnesKept() throws {
        let manager = FileManager.default
        // A cut killed outright: its hidden folder in an entry with no pyramid, its process long gone.
        let entry = root + "/tiles/" + CacheFileName.md5Hex("crashed")
        let crashed = entry + "/.pyramid.dzi.tmp-\(Int32.max)-3"
        try manager.createDirectory(atPath: crashed + "/pyramid_files/0", withIntermediateDirectories: true)
        try Data(repeating: 3, count: 5000).write(to: URL(fileURLWithPath: crashed + "/pyramid_files/0/0_0.jpeg"))
        // A finished pyramid with the leftover of a crashed re-cut beside it: the pyramid stays.
        let finished = root + "/tiles/" + CacheFileName.md5Hex("finished")
        try manager.createDirectory(atPath: finished + "/.pyramid.dzi.tmp-\(Int32.max)-4", withIntermediateDirectories: true)
        try Data("<Image/>".utf8).write(to: URL(fileURLWithPath: finished + "/pyramid.dzi"))
        // Downloads cut short: one an hour and more old, one being written now.
        try manager.createDirectory(atPath: root + "/remote", withIntermediateDirectories: true)
        let hash = CacheFileName.md5Hex("https://example.org/big.jpg")
        let stale = root + "/remote/" + hash + ".download-Ab3dE9"
        let staleSidecar = root + "/remote/" + hash + ".json.tmp-zz00QQ"
        let fresh = root + "/remote/" + hash + ".download-Xy7wV2"
        for path in [stale, staleSidecar, fresh] { try Data(repeating: 4, count: 100).write(to: URL(fileURLWithPath: path)) }
        setTimes(stale, to: clock.now.addingTimeInterval(-7200))
        setTimes(staleSidecar, to: clock.now.addingTimeInterval(-7200))
        setTimes(fresh, to: clock.now.addingTimeInterval(-30))

        let result = janitor(limit: .max).sweep()

        XCTAssertFalse(manager.fileExists(atPath: entry))
        XCTAssertFalse(manager.fileExists(atPath: finished + "/.pyramid.dzi.tmp-\(Int32.max)-4"))
        XCTAssertTrue(manager.fileExists(atPath: finished + "/pyramid.dzi"))
        XCTAssertFalse(manager.fileExists(atPath: stale))
        XCTAssertFalse(manager.fileExists(atPath: staleSidecar))
        XCTAssertTrue(manager.fileExists(atPath: fresh))
        XCTAssertEqual(result.bytesBefore, result.bytesAfter, "leftovers are not entries")
    }

    // MARK: - The default limit

    func testTheDefaultLimitIsATenthOfTheFreeSpaceBetweenTheFloorAndTheCap() {
        XCTAssertEqual(DiskCacheJanitor.defaultLimitBytes(freeBytes: 10 << 30), 1 << 30)
        XCTAssertEqual(DiskCacheJanitor.defaultLimitBytes(freeBytes: 500 << 30), 2 << 30)
        XCTAssertEqual(DiskCacheJanitor.defaultLimitBytes(freeBytes: 100 << 20), 64 << 20)
        XCTAssertEqual(DiskCacheJanitor.defaultLimitBytes(freeBytes: nil), 64 << 20)
        // Asked of a folder not made yet: its nearest existing parent's file system.
        XCTAssertNotNil(DiskCacheJanitor.freeBytes(at: folder + "/not/made/yet"))
        XCTAssertEqual(DiskCacheJanitor.defaultRoot(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"]), "/c/tessera")
        XCTAssertEqual(DiskCacheJanitor.defaultRoot(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/h"]), "/h/.cache/tessera")
    }

    func testSweepsAskedForTogetherRunOnTheJanitorsQueue() throws {
        let queue = DispatchQueue(label: "test.janitor")
        let clock = clock
        let janitor = DiskCacheJanitor(root: root, limitBytes: 0, now: { clock.now }, queue: queue)
        let download = try writeDownload("https://example.org/q.jpg", bytes: 1000, lastUse: clock.now)
        queue.suspend()
        janitor.requestSweep()
        janitor.requestSweep()
        XCTAssertTrue(exists(download), "nothing is removed on the caller's thread")
        queue.resume()
        XCTAssertTrue(janitor.waitForSweeps(timeout: .seconds(30)))
        XCTAssertFalse(exists(download))
    }
}

/// A wall clock the test moves by hand.
final class TestDate: Sendable {
    private let value = Mutex(Date(timeIntervalSince1970: 1_700_000_000))
    var now: Date { value.withLock { $0 } }
    func advance(by seconds: TimeInterval) { value.withLock { $0 += seconds } }
}
