import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// Which files a cut writes and how big each tile is: exactly what `DeepZoomGeometry` says.
final class TileCutterLayoutTests: XCTestCase {
    private func cut(width: Int, height: Int, overlap: Int, format: TileFormat = .jpeg, tileSize: Int = 256,
                     in dir: TemporaryDirectory) throws -> TileCutResult {
        let source = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: width, height: height))),
                                   to: "img\(width)x\(height).jpg")
        var options = TileCutterOptions()
        options.overlap = overlap
        options.format = format
        options.tileSize = tileSize
        return try TileCutter(options: options).cut(imageAt: source, into: dir.path("out-\(overlap)"))
    }

    func testAwkwardSizesWriteTheGeometrysFilesAndTileSizes() throws {
        let dir = try TemporaryDirectory()
        for (w, h) in [(1, 1), (1, 1000), (255, 255), (256, 256), (257, 257), (4097, 3)] {
            for overlap in [0, 1] {
                let result = try cut(width: w, height: h, overlap: overlap, in: dir)
                let geometry = DeepZoomGeometry(width: w, height: h, tileSize: 256, overlap: overlap)
                XCTAssertEqual(result.geometry, geometry)
                let written = TilingFixtures.files(in: result.tilesFolder)
                XCTAssertEqual(written, TilingFixtures.expectedDeepZoomFiles(geometry), "\(w)x\(h) overlap \(overlap)")
                XCTAssertEqual(result.tilesWritten, geometry.totalTileCount)
                for level in 0...geometry.maxLevel {
                    for row in 0..<geometry.rows(level) {
                        for column in 0..<geometry.columns(level) {
                            let tile = TileID(level: level, column: column, row: row)
                            let region = geometry.region(of: tile)
                            let size = try TilingFixtures.size(of: result.tilesFolder + "/\(level)/\(column)_\(row).jpeg")
                            XCTAssertEqual(size, PixelSize(width: region.width, height: region.height),
                                           "\(w)x\(h) overlap \(overlap) tile \(tile)")
                        }
                    }
                }
                XCTAssertEqual(result.descriptorPath, dir.path("out-\(overlap)/img\(w)x\(h).dzi"))
                try FileManager.default.removeItem(atPath: dir.path("out-\(overlap)"))
            }
        }
    }

    func testSmallTilesWithOverlapInPNG() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(width: 37, height: 21, overlap: 3, format: .png, tileSize: 8, in: dir)
        let geometry = result.geometry
        XCTAssertEqual(TilingFixtures.files(in: result.tilesFolder), TilingFixtures.expectedDeepZoomFiles(geometry, ext: "png"))
        for level in 0...geometry.maxLevel {
            for row in 0..<geometry.rows(level) {
                for column in 0..<geometry.columns(level) {
                    let region = geometry.region(of: TileID(level: level, column: column, row: row))
                    let size = try TilingFixtures.size(of: result.tilesFolder + "/\(level)/\(column)_\(row).png")
                    XCTAssertEqual(size, PixelSize(width: region.width, height: region.height))
                }
            }
        }
    }

    func testDescriptorIsVipssText() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(width: 300, height: 200, overlap: 1, in: dir)
        let text = try String(contentsOfFile: result.descriptorPath!, encoding: .utf8)
        XCTAssertEqual(text, """
            <?xml version="1.0" encoding="UTF-8"?>
            <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
              Format="jpeg"
              Overlap="1"
              TileSize="256"
              >
              <Size 
                Height="200"
                Width="300"
              />
            </Image>

            """)
    }

    func testFlatLayoutUsesTheBooksNamesAtFullResolutionOnly() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 2600, height: 300))), to: "Snowman.jpg")
        var options = TileCutterOptions()
        options.layout = .flat
        let result = try TileCutter(options: options).cut(imageAt: source, into: dir.path("flat"))
        XCTAssertNil(result.descriptorPath)
        XCTAssertEqual(result.tilesFolder, dir.path("flat"))
        var expected = Set<String>()
        for column in 0..<11 {
            for row in 0..<2 { expected.insert(String(format: "Snowman_%02d_%02d.jpg", column, row)) }
        }
        XCTAssertEqual(Set(TilingFixtures.entries(of: dir.path("flat"))), expected)
        XCTAssertEqual(result.tilesWritten, 22)
        XCTAssertEqual(try TilingFixtures.size(of: dir.path("flat/Snowman_10_01.jpg")), PixelSize(width: 40, height: 44))
        XCTAssertEqual(try TilingFixtures.size(of: dir.path("flat/Snowman_00_00.jpg")), PixelSize(width: 256, height: 256))
    }

    func testFlatTileNamesAreRecognised() {
        let layout = TileLayout(kind: .flat, name: "a_b", format: .jpeg,
                                geometry: DeepZoomGeometry(width: 10, height: 10))
        XCTAssertTrue(layout.isFlatTileName("a_b_00_00.jpg"))
        XCTAssertTrue(layout.isFlatTileName("a_b_100_07.jpg"))
        XCTAssertFalse(layout.isFlatTileName("a_b_0_00.jpg"))
        XCTAssertFalse(layout.isFlatTileName("a_b_00_00.png"))
        XCTAssertFalse(layout.isFlatTileName("a_b_00.jpg"))
        XCTAssertFalse(layout.isFlatTileName("a_b_x0_00.jpg"))
        XCTAssertEqual(layout.relativePath(of: TileID(level: 4, column: 3, row: 12)), "a_b_03_12.jpg")
    }

    func testNameOverridesTheInputsBaseName() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(TestJPEG.encode(.bgra(TestPixels.gradient(width: 10, height: 10))), to: "x.y.jpg")
        let result = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("o"), name: "pic")
        XCTAssertEqual(result.descriptorPath, dir.path("o/pic.dzi"))
        XCTAssertEqual(result.tilesFolder, dir.path("o/pic_files"))
        let defaultName = try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("o"))
        XCTAssertEqual(defaultName.descriptorPath, dir.path("o/x.y.dzi"))
    }
}
