import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

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

    /// A tall, narrow image: the band is what is held, whatever the height.
    func testPixelMemoryOfATallImageIsItsBandNotTheImage() throws {
        let dir = try TemporaryDirectory()
        let width = 600, height = 24_000
        let image = PixelBuffer(width: width, height: height, filledWith: RGBA(r: 90, g: 20, b: 200))
        let source = try dir.write(TestJPEG.encode(.bgra(image), quality: 80), to: "tall.jpg")
        var statistics = TileCutStatistics()
        let options = TileCutterOptions()
        let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("out"), name: nil,
                                                          progress: nil, isCancelled: nil, statistics: &statistics)
        XCTAssertEqual(result.tilesWritten, result.geometry.totalTileCount)
        // Two bands per level, the levels below adding up to less than the top one's.
        XCTAssertLessThanOrEqual(statistics.bandBufferBytes, 4 * width * 4 * options.tileSize)
        XCTAssertLessThan(statistics.bandBufferBytes, width * height * 4 / 20, "a band, not the image")
    }

    /// A TIFF is read a strip or a row of tiles at a time, whatever its size: cut with a whole-decode limit
    /// far below its pixels, into PNG tiles equal to the image's own pixels.
    func testTIFFsInStripsAndInTilesAreCutRowByRow() throws {
        let dir = try TemporaryDirectory()
        let image = TilingFixtures.pattern(width: 300, height: 200)
        for layout in [TIFFFixtures.Layout(tileSize: nil, compression: .deflate),
                       TIFFFixtures.Layout(tileSize: 48, compression: .lzw)] {
            let path = dir.path("image-\(layout.tileSize ?? 0).tif")
            try TIFFFixtures.write([image], to: path, layout: layout)
            var options = TileCutterOptions()
            options.format = .png
            options.tileSize = 128
            options.pixelLimitForWholeDecode = 1000
            options.colourManager = nil
            let result = try TileCutter(options: options).cut(imageAt: path, into: dir.path("out-\(layout.tileSize ?? 0)"))
            let top = result.geometry.maxLevel
            for tile in [TileID(level: top, column: 0, row: 0), TileID(level: top, column: 2, row: 1)] {
                let written = try TilingFixtures.decode(result.tilesFolder + "/\(top)/\(tile.column)_\(tile.row).png")
                let expected = TilingFixtures.crop(image, result.geometry.region(of: tile))
                XCTAssertEqual(written.size, expected.size)
                XCTAssertTrue(written.bytes == expected.bytes, "tile \(tile) of \(path)")
            }
        }
    }

    /// A watcher hears where the cut writes, then every tile once, each when its file is complete.
    func testAWatcherHearsEachTileWhenItsFileIsComplete() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 700, height: 500))), to: "w.jpg")
        let watcher = RecordingWatcher()
        let result = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("out"),
                                                                      name: "pyr", watcher: watcher)
        let seen = watcher.seen
        XCTAssertEqual(seen.began?.final, result.tilesFolder)
        XCTAssertEqual(seen.began?.extension, "jpeg")
        XCTAssertNotEqual(seen.began?.temporary, result.tilesFolder)
        XCTAssertEqual(seen.tiles.count, result.geometry.totalTileCount, "each tile once")
        XCTAssertEqual(Set(seen.tiles).count, seen.tiles.count)
        XCTAssertEqual(seen.unreadable, [], "every tile readable at its temporary path when told")
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

/// Records what a cut tells its watcher, and checks each tile's file is whole at that moment.
final class RecordingWatcher: TileCutWatcher, @unchecked Sendable {
    struct Seen {
        var began: (temporary: String, final: String, extension: String)?
        var tiles: [TileID] = []
        var unreadable: [TileID] = []
    }

    private let lock = NSLock()
    private var log = Seen()

    var seen: Seen { lock.withLock { log } }

    func cutBegan(temporaryTilesFolder: String, tilesFolder: String, tileExtension: String) {
        lock.withLock { log.began = (temporaryTilesFolder, tilesFolder, tileExtension) }
    }

    func tileWritten(_ tile: TileID) {
        let folder = lock.withLock { log.began }
        let path = DeepZoomTileSource.path(of: tile, in: folder?.temporary ?? "", extension: folder?.extension ?? "")
        let whole = (try? ImageLoader(decoders: [TurboJPEGDecoder()]).load(path: path, fitting: nil)) != nil
        lock.withLock {
            log.tiles.append(tile)
            if !whole { log.unreadable.append(tile) }
        }
    }
}
