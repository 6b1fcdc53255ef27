import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// The tiles of a cut in progress: those written, and no other, until the cut hands over to its pyramid.
final class CutInProgressTileSourceTests: XCTestCase {
    func testServesWrittenTilesOnlyThenTheFinishedPyramid() throws {
        let folder = try TemporaryDirectory()
        let image = TestPixels.gradient(width: 300, height: 200)
        // A finished pyramid stands in for the cut: its files are where the cut would put them.
        let descriptor = try TestPyramid.writeDeepZoom(image, tileSize: 256, overlap: 0, in: folder.url.path)
        let tilesFolder = DeepZoomDescriptor.tilesFolder(forDescriptorAt: descriptor)
        let geometry = DeepZoomGeometry(width: 300, height: 200)
        let source = CutInProgressTileSource(geometry: geometry, name: "test", decoders: [TurboJPEGDecoder()])
        source.cutBegan(temporaryTilesFolder: tilesFolder, tilesFolder: folder.url.path + "/final_files",
                        tileExtension: "jpeg")
        let top = TileID(level: geometry.maxLevel, column: 1, row: 0)
        XCTAssertFalse(source.isAvailable(top))
        XCTAssertThrowsError(try source.loadTile(top)) {
            XCTAssertEqual(($0 as? TileSourceError)?.reason, .missingTile)
        }

        source.tileWritten(top)
        XCTAssertTrue(source.isAvailable(top))
        XCTAssertFalse(source.isAvailable(TileID(level: geometry.maxLevel, column: 0, row: 0)))
        XCTAssertEqual(try source.loadTile(top).size, PixelSize(width: 44, height: 200))

        // Moved into place: found at the final path before the hand-over.
        try FileManager.default.moveItem(atPath: tilesFolder, toPath: folder.url.path + "/final_files")
        XCTAssertEqual(try source.loadTile(top).size, PixelSize(width: 44, height: 200))

        let finished = DeepZoomTileSource(tilesFolder: folder.url.path + "/final_files", geometry: geometry,
                                              format: "jpeg", decoders: [TurboJPEGDecoder()])
        source.finish(with: finished)
        XCTAssertTrue(source.isFinished)
        XCTAssertTrue(source.isAvailable(TileID(level: 0, column: 0, row: 0)))
        XCTAssertEqual(try source.loadTile(TileID(level: 0, column: 0, row: 0)).size, PixelSize(width: 1, height: 1))
    }
}
