import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// `--layout iiif3` and `iiif` write the static IIIF tree `vips dzsave` writes (each tile under the request
/// that names it, `info.json` with the same fields), and the tiled view reads such a tree back.
final class IIIFTreeTests: XCTestCase {
    private func cut(_ picture: PixelBuffer, layout: TileLayoutKind, format: TileFormat = .jpeg, in dir: TemporaryDirectory,
                     name: String = "img", replacing: Bool = false) throws -> TileCutResult {
        let source = try dir.write(TilingFixtures.png(picture), to: "\(name).png")
        var options = TileCutterOptions()
        options.layout = layout
        options.tileSize = 512
        options.format = format
        options.iiifID = "http://example.org/iiif"
        options.replaceExisting = replacing
        return try TileCutter(options: options).cut(imageAt: source, into: dir.path("out"))
    }

    /// The requests of a 2560 x 1600 image in 512-pixel tiles, as `vips dzsave --layout iiif3` 8.14 names them:
    /// four levels, the last one tile.
    func testTheTreeNamesEachTileByItsRequest() {
        let tree = IIIFTree(geometry: DeepZoomGeometry(width: 2560, height: 1600, tileSize: 512), version: 3)
        XCTAssertEqual(tree.geometry.maxLevel - tree.coarsestLevel + 1, 4)
        XCTAssertEqual(tree.path(of: TileID(level: 12, column: 4, row: 3), extension: "jpg"), "2048,1536,512,64/512,64/0/default.jpg")
        XCTAssertEqual(tree.path(of: TileID(level: 11, column: 2, row: 1), extension: "jpg"), "2048,1024,512,576/256,288/0/default.jpg")
        XCTAssertEqual(tree.path(of: TileID(level: 10, column: 1, row: 0), extension: "jpg"), "2048,0,512,1600/128,400/0/default.jpg")
        XCTAssertEqual(tree.path(of: TileID(level: 9, column: 0, row: 0), extension: "jpg"), "0,0,2560,1600/320,200/0/default.jpg")
        XCTAssertEqual(tree.listedScaleFactors, [1, 2, 4])
        let odd = IIIFTree(geometry: DeepZoomGeometry(width: 701, height: 437, tileSize: 512), version: 2)
        XCTAssertEqual(odd.path(of: TileID(level: 9, column: 0, row: 0), extension: "jpg"), "0,0,701,437/351,/0/default.jpg",
                       "a level's size rounds up, and version 2 writes the width alone")
    }

    func testACutWritesEveryRequestAndAnInfoJSONAndTheViewReadsItBack() throws {
        let dir = try TemporaryDirectory()
        let picture = TilingFixtures.pattern(width: 1300, height: 700)
        let result = try cut(picture, layout: .iiif3, format: .png, in: dir)
        XCTAssertEqual(result.tilesFolder, dir.path("out/img"))
        XCTAssertEqual(result.descriptorPath, dir.path("out/img/info.json"))
        let tree = IIIFTree(geometry: result.geometry, version: 3)
        var expected: Set<String> = ["info.json"]
        for level in tree.coarsestLevel...result.geometry.maxLevel {
            let size = result.geometry.levelSize(level)
            for tile in result.geometry.tiles(in: level, intersecting: PixelRegion(x: 0, y: 0, width: size.width, height: size.height)) {
                expected.insert(tree.path(of: tile, extension: "png"))
            }
        }
        XCTAssertEqual(TilingFixtures.files(in: result.tilesFolder), expected)
        XCTAssertEqual(TilingFixtures.entries(of: dir.path("out")), ["img"], "nothing else is left beside the tree")

        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/img/info.json")))) as? [String: Any])
        XCTAssertEqual(info["id"] as? String, "http://example.org/iiif/img")
        XCTAssertEqual(info["type"] as? String, "ImageService3")
        XCTAssertEqual(info["profile"] as? String, "level0")
        XCTAssertEqual(info["width"] as? Int, 1300)
        XCTAssertEqual(info["height"] as? Int, 700)
        let tiles = try XCTUnwrap((info["tiles"] as? [[String: Any]])?.first)
        XCTAssertEqual(tiles["width"] as? Int, 512)
        XCTAssertEqual(tiles["scaleFactors"] as? [Int], [1, 2])

        // Read back: the full resolution exactly (PNG), and levels past the tree's last tile from it.
        let source = try IIIFTileSource(infoAt: dir.path("out/img/info.json"), decoders: ImageDecoders.standard(), colour: nil)
        XCTAssertEqual(source.geometry, result.geometry)
        let tile = TileID(level: result.geometry.maxLevel, column: 2, row: 1)
        let region = result.geometry.region(of: tile)
        XCTAssertEqual(try source.loadTile(tile).bytes, TilingFixtures.crop(picture, region).bytes)
        let coarse = try source.loadTile(TileID(level: 3, column: 0, row: 0))
        XCTAssertEqual(coarse.size, result.geometry.levelSize(3))
    }

    /// Version 2: sizes `SW,`, and `@id` with version 2's profile.
    func testVersionTwoWritesItsOwnNamesAndInfo() throws {
        let dir = try TemporaryDirectory()
        let result = try cut(TilingFixtures.pattern(width: 600, height: 300), layout: .iiif2, in: dir)
        XCTAssertTrue(TilingFixtures.files(in: result.tilesFolder).contains("0,0,600,300/300,/0/default.jpg"))
        let info = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/img/info.json")))) as? [String: Any])
        XCTAssertEqual(info["@id"] as? String, "http://example.org/iiif/img")
        XCTAssertEqual(info["@context"] as? String, "http://iiif.io/api/image/2/context.json")
        XCTAssertEqual((info["profile"] as? [Any])?.first as? String, "http://iiif.io/api/image/2/level0.json")
        let source = try IIIFTileSource(infoAt: dir.path("out/img/info.json"), decoders: ImageDecoders.standard(), colour: nil)
        XCTAssertEqual(try source.loadTile(TileID(level: result.geometry.maxLevel, column: 1, row: 0)).size, PixelSize(width: 88, height: 300))
    }

    /// The same files as `vips dzsave --layout iiif3` for the same image, where vips is installed
    /// (it writes its own vips-properties.xml besides).
    func testTheFilesAreVipssWhereVipsIsInstalled() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/vips") else { throw XCTSkip("vips is not installed (libvips-tools)") }
        let dir = try TemporaryDirectory()
        // 2148 x 300: the last column's region at full size recurs, at half the size, one level down;
        // in version 2, whose sizes are widths alone, a one-pixel column keeps its name through the levels
        // (the coarsest writes it); 1 x 4097: a one-pixel corner is one pixel at every level.
        for (width, height, layout) in [(1701, 1037, TileLayoutKind.iiif3), (2148, 300, .iiif3), (4097, 300, .iiif2),
                                        (1, 4097, .iiif3)] {
            let name = "img\(width)x\(height)"
            let result = try cut(TilingFixtures.pattern(width: width, height: height), layout: layout, in: dir, name: name)
            let vipsOut = dir.path("vips\(name)")
            let run = try ChildProcess.run("/usr/bin/vips", ["dzsave", dir.path("\(name).png"), vipsOut, "--layout",
                                                              layout == .iiif2 ? "iiif" : "iiif3", "--id", "http://example.org/iiif"])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(TilingFixtures.files(in: result.tilesFolder),
                           TilingFixtures.files(in: vipsOut).subtracting(["vips-properties.xml"]), "\(width) x \(height)")
            XCTAssertEqual(result.tilesWritten, TilingFixtures.files(in: result.tilesFolder).count - 1, "each file written once")
            let ours = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: result.descriptorPath!))) as? [String: Any])
            let theirs = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vipsOut + "/info.json"))) as? [String: Any])
            XCTAssertEqual(Set(ours.keys), Set(theirs.keys))
            XCTAssertEqual(ours["tiles"] as? NSArray, theirs["tiles"] as? NSArray, "\(width) x \(height)")
        }
    }

    func testAnInfoJSONThatIsNoServiceIsRefusedWithWhy() throws {
        let dir = try TemporaryDirectory()
        func reason(_ text: String) throws -> String? {
            let path = try dir.write(Data(text.utf8), to: "info.json")
            do {
                _ = try IIIFTileSource(infoAt: path, decoders: ImageDecoders.standard())
                return nil
            } catch {
                return error.reason.shortText
            }
        }
        XCTAssertEqual(try reason("<html>Not found</html>"), "Unreadable IIIF info.json: not an IIIF image service's info.json (not JSON)")
        XCTAssertEqual(try reason(#"{"width": 10, "height": 10}"#), "Unreadable IIIF info.json: it names no tiles; a static tree has them")
        XCTAssertEqual(try reason(#"{"width": 0, "height": 10, "tiles": [{"width": 512, "scaleFactors": [1]}]}"#),
                       "Unreadable IIIF info.json: an image of 0 × 10 pixels")
        XCTAssertNotNil(try reason(String(repeating: " ", count: IIIFTileSource.infoByteLimit + 10) + "{}"))
        XCTAssertEqual(try reason(#"""
            {"@context": "http://library.stanford.edu/iiif/image-api/1.1/context.json", "@id": "http://x/iiif/1",
             "width": 6000, "height": 4000, "tile_width": 256, "tile_height": 256, "scale_factors": [1, 2, 4],
             "profile": "http://library.stanford.edu/iiif/image-api/1.1/compliance.html#level1"}
            """#), "Unreadable IIIF info.json: IIIF Image API 1.1, which is not read (versions 2 and 3 are)")
    }

    /// A cut replaces only an IIIF tree at its name, even when told to replace: another folder (or the
    /// image itself) stays as it is.
    func testOnlyATreeIsReplacedAtATreesName() throws {
        let dir = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir.path("out/img"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: dir.path("out/img/notes.txt")))
        XCTAssertThrowsError(try cut(TilingFixtures.pattern(width: 600, height: 300), layout: .iiif3, in: dir, replacing: true))
        XCTAssertEqual(try String(contentsOfFile: dir.path("out/img/notes.txt"), encoding: .utf8), "mine")
        try FileManager.default.removeItem(atPath: dir.path("out/img"))
        _ = try cut(TilingFixtures.pattern(width: 600, height: 300), layout: .iiif3, in: dir)
        let again = try cut(TilingFixtures.pattern(width: 900, height: 300), layout: .iiif3, in: dir, replacing: true)
        XCTAssertEqual(again.geometry.width, 900, "a tree is replaced by a new cut")
    }
}
