#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraUI

/// The single view's cut of a giant image under the disk cache limit: the pyramid it shows is leased, so no
/// sweep takes it away, and the cut of an edited image replaces the old image's pyramid.
final class TiledCutCacheTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cut-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private var root: String { folder.appendingPathComponent("cache/tessera").path }

    /// Opens `path` in a view whose pixel limit makes it giant, and runs until its cut has ended.
    private func openAndCut(_ path: String, janitor: DiskCacheJanitor) throws -> TiledViewHarness {
        var options = TiledViewHarness.options()
        options.pixelLimit = 100_000
        options.diskCache = janitor
        let harness = try TiledViewHarness(path: path, width: 512, height: 256, options: options)
        let view = harness.view
        try harness.run(until: { view.geometry != nil && !view.isCutting })
        return harness
    }

    private func pyramidFolders() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root + "/tiles")) ?? []).sorted()
    }

    func testThePyramidShownIsKeptAndAnEditedImagesCutReplacesTheOldOne() throws {
        let janitor = DiskCacheJanitor(root: root, limitBytes: .max)
        let path = folder.appendingPathComponent("large.png").path
        try PNGWriter.write(TiledFixtures.gradient(width: 1024, height: 768), to: path)
        var first: TiledViewHarness? = try openAndCut(path, janitor: janitor)
        let firstPyramid = pyramidFolders()
        XCTAssertEqual(firstPyramid.count, 1)

        // A sweep with no room at all leaves the pyramid on screen alone.
        let nothingFits = DiskCacheJanitor(root: root, limitBytes: 0)
        XCTAssertEqual(nothingFits.sweep().removed, [])
        XCTAssertEqual(pyramidFolders(), firstPyramid)
        first = nil
        XCTAssertNil(first)

        // The user edits the image and opens it again: cut again, and the old pyramid goes.
        try PNGWriter.write(TiledFixtures.gradient(width: 1000, height: 760), to: path)
        let later = Int(Date().timeIntervalSince1970) + 10
        XCTAssertEqual(utimensat(AT_FDCWD, path, [timespec(tv_sec: later, tv_nsec: 0), timespec(tv_sec: later, tv_nsec: 0)], 0), 0)
        let second = try openAndCut(path, janitor: janitor)
        XCTAssertTrue(janitor.waitForSweeps(timeout: .seconds(30)))
        let secondPyramid = pyramidFolders()
        XCTAssertEqual(secondPyramid.count, 1, "the old pyramid is replaced, not kept beside")
        XCTAssertNotEqual(secondPyramid, firstPyramid)
        XCTAssertEqual(nothingFits.sweep().removed, [])
        withExtendedLifetime(second) {}
    }
}
