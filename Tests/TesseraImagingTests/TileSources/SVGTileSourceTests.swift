import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// An SVG as a pyramid drawn tile by tile: levels up to four times its own size, each tile exactly its
/// part of the document drawn whole at that level's size (turned, if the viewer turned it), within the
/// pixel limit.
final class SVGTileSourceTests: XCTestCase {
    private var folder: TemporaryDirectory!
    /// 100 x 70: a white page, a red disc, a blue diagonal; neither square nor symmetric, so a turn shows.
    private let svg = Data("""
        <svg xmlns="http://www.w3.org/2000/svg" width="100" height="70">\
        <rect width="100" height="70" fill="white"/><circle cx="40" cy="30" r="25" fill="rgb(200,30,30)"/>\
        <path d="M0 70 L100 0" stroke="rgb(20,40,220)" stroke-width="3"/></svg>
        """.utf8)

    override func setUpWithError() throws { folder = try TemporaryDirectory() }
    override func tearDown() { folder = nil }

    private func source(pixelLimit: Int = 100_000_000, maxMagnification: Double = 4, colour: ColourConversion? = nil,
                        turn: ImageOrientation = .up) throws -> SVGTileSource {
        try SVGTileSource(path: try folder.write(svg, to: "drawing.svg"), pixelLimit: pixelLimit,
                          maxMagnification: maxMagnification, colour: colour, turn: turn)
    }

    /// The whole document drawn at `size`, as stored (unturned).
    private func drawing(_ size: PixelSize) throws -> PixelBuffer {
        try svg.withUnsafeBytes { try SVGDocument($0).render(size) }
    }

    private func assertTiles(of source: SVGTileSource, turn: ImageOrientation, file: StaticString = #filePath, line: UInt = #line) throws {
        let geometry = source.geometry
        for level in [geometry.maxLevel, geometry.maxLevel - 1, geometry.maxLevel - 2, 3] {
            let levelSize = geometry.levelSize(level)
            let whole = turn.apply(to: try drawing(turn.orientedSize(levelSize)))
            for tile in [TileID(level: level, column: 0, row: 0),
                         TileID(level: level, column: geometry.columns(level) - 1, row: geometry.rows(level) - 1)] {
                let pixels = try source.loadTile(tile)
                let expected = DeepZoomFixtures.crop(whole, geometry.region(of: tile))
                XCTAssertEqual(pixels.size, expected.size, "\(tile)", file: file, line: line)
                // cairo flattens curves a hair differently when the drawing is moved by a tile's offset: a
                // few antialiased edge pixels may differ by a few levels, nothing else.
                let differences = zip(pixels.bytes, expected.bytes).map { abs(Int($0) - Int($1)) }
                XCTAssertLessThanOrEqual(differences.max() ?? 0, 16, "\(tile)", file: file, line: line)
                XCTAssertLessThan(differences.filter { $0 > 0 }.count, max(1, pixels.bytes.count / 1000),
                                  "\(tile) is not its part of the drawing", file: file, line: line)
            }
        }
    }

    func testAPyramidFourTimesItsOwnSizeWhoseTilesAreTheirPartOfTheDrawing() throws {
        let source = try source()
        XCTAssertEqual(source.magnification, 4)
        XCTAssertEqual(source.geometry, DeepZoomGeometry(width: 400, height: 280))
        XCTAssertEqual(source.geometry.levelSize(source.geometry.maxLevel - 2), PixelSize(width: 100, height: 70),
                       "its own size is a level")
        try assertTiles(of: source, turn: .up)
    }

    func testATurnedDrawingIsTurnedTileByTile() throws {
        for turn in [ImageOrientation.rotated90, .mirrored, .transversed] {
            let source = try source(turn: turn)
            XCTAssertEqual(source.geometry.width, turn.swapsAxes ? 280 : 400, "\(turn)")
            try assertTiles(of: source, turn: turn)
        }
    }

    /// Magnified by the largest power of two within both the zoom limit and the pixel limit; a document
    /// whose own size is over the pixel limit is refused as the loader refuses it.
    func testMagnificationStaysWithinTheLimits() throws {
        XCTAssertEqual(try source(pixelLimit: 100 * 70 * 4).magnification, 2)
        XCTAssertEqual(try source(pixelLimit: 100 * 70 * 4 - 1).magnification, 1)
        XCTAssertEqual(try source(maxMagnification: 3).magnification, 2)
        XCTAssertEqual(try source(maxMagnification: 1).geometry, DeepZoomGeometry(width: 100, height: 70))
        XCTAssertThrowsError(try source(pixelLimit: 1000)) { error in
            XCTAssertEqual((error as? TileSourceError)?.reason,
                           .unreadableImage(ImageLoadError.Reason.tooLarge(width: 100, height: 70, limit: 1000).shortText))
        }
    }

    func testTilesAreConvertedToTheDisplaysColours() throws {
        let colour = ColourConversion(displayProfile: ColourFixtures.displayP3, manager: ColourManager())
        let tile = TileID(level: 8, column: 0, row: 0)
        let plain = try source().loadTile(tile)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(try source(colour: colour).loadTile(tile),
                                                                ColourFixtures.reference(plain, from: nil, to: ColourFixtures.displayP3)),
                          0.5)
    }

    func testABrokenDocumentIsAnError() throws {
        let path = try folder.write(svg.prefix(60), to: "cut.svg")
        XCTAssertThrowsError(try SVGTileSource(path: path, pixelLimit: 100_000_000, maxMagnification: 4, colour: nil)) { error in
            guard case .unreadableImage(let why)? = (error as? TileSourceError)?.reason else { return XCTFail("\(error)") }
            XCTAssertFalse(why.isEmpty)
        }
    }
}
