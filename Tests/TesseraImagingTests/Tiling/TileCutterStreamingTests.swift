import Foundation
import TesseraCore
@testable import TesseraImaging
import XCTest

/// Memory follows the image's width, not its area.
final class TileCutterStreamingTests: XCTestCase {
    func testPixelMemoryIsAFewTileRowsOfTheWidth() throws {
        let dir = try TemporaryDirectory()
        let width = 8000, height = 6000
        let image = PixelBuffer(width: width, height: height, filledWith: RGBA(r: 10, g: 200, b: 30))
        let source = try dir.write(TestJPEG.encode(.bgra(image), quality: 80), to: "big.jpg")
        var statistics = TileCutStatistics()
        var options = TileCutterOptions()
        options.overlap = 2
        let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("out"), name: nil,
                                                          progress: nil, isCancelled: nil, statistics: &statistics)
        XCTAssertEqual(result.tilesWritten, result.geometry.totalTileCount)
        let bandRows = options.tileSize + 2 * options.overlap
        // Two bands per level; the levels below add up to less than the top one.
        XCTAssertLessThanOrEqual(statistics.bandBufferBytes, 4 * width * 4 * bandRows)
        XCTAssertLessThan(statistics.bandBufferBytes, width * height * 4 / 5, "under a fifth of the decoded size")
    }

    func testProgressIsReportedUpToTheTotal() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 1000, height: 900))), to: "p.jpg")
        let seen = ProgressLog()
        let result = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("out"),
                                                                      progress: { seen.append($0) })
        let updates = seen.values
        XCTAssertEqual(updates.first, TileProgress(tilesWritten: 0, totalTiles: result.geometry.totalTileCount))
        XCTAssertEqual(updates.last, TileProgress(tilesWritten: result.tilesWritten, totalTiles: result.tilesWritten))
        XCTAssertEqual(updates.map(\.tilesWritten), updates.map(\.tilesWritten).sorted(), "monotonic")
    }

    func testOneWorkerAndManyWorkersWriteTheSameTiles() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestJPEG.encode(.bgra(TilingFixtures.pattern(width: 900, height: 700))), to: "p.jpg")
        var contents: [[String: Data]] = []
        for workers in [1, 5] {
            var options = TileCutterOptions()
            options.workerCount = workers
            options.overlap = 1
            let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("w\(workers)"))
            var files: [String: Data] = [:]
            for name in TilingFixtures.files(in: result.tilesFolder) {
                files[name] = try Data(contentsOf: URL(fileURLWithPath: result.tilesFolder + "/" + name))
            }
            contents.append(files)
        }
        XCTAssertEqual(contents[0], contents[1])
    }
}

final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log: [TileProgress] = []

    func append(_ progress: TileProgress) {
        lock.lock()
        log.append(progress)
        lock.unlock()
    }

    var values: [TileProgress] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }
}
