import Foundation
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraUI

/// UI icons are drawn from textures scaled once to their drawn size, averaging what they cover: an icon
/// drawn smaller than its file keeps its fine lines as soft grey, not as the jagged black-or-white of
/// every other source pixel.
final class AssetCatalogTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testAnIconDrawnAtHalfSizeAveragesItsPixels() throws {
        // One-pixel black and white stripes, 8x8: at 4x4 every pixel covers one of each.
        let bytes = (0..<64).flatMap { pixel -> [UInt8] in
            let level: UInt8 = pixel.isMultiple(of: 2) ? 255 : 0
            return [level, level, level, 255]
        }
        let stripes = PixelBuffer(width: 8, height: 8, bytes: bytes)
        try PNGWriter.write(stripes, to: folder.appendingPathComponent("stripes.png").path)

        let canvas = try HeadlessCanvas(width: 16, height: 16)
        let catalog = AssetCatalog(folder: folder, renderer: canvas.renderer)
        let icon = try XCTUnwrap(catalog.texture(named: "stripes", side: 4))
        XCTAssertEqual(icon.width, 4)
        XCTAssertTrue(catalog.texture(named: "stripes", side: 4) === icon, "made once per size")
        canvas.renderer.clear(RGBA(r: 255, g: 0, b: 0))
        canvas.renderer.draw(icon, destination: PixelRect(x: 2, y: 2, width: 4, height: 4))
        let frame = try canvas.renderer.readPixels()
        for y in 2..<6 {
            for x in 2..<6 {
                let pixel = frame.pixel(x: x, y: y)
                XCTAssertTrue(pixel.isClose(to: RGBA(r: 128, g: 128, b: 128), tolerance: 2), "(\(x), \(y)): \(pixel)")
            }
        }
        XCTAssertEqual(frame.pixel(x: 1, y: 1), RGBA(r: 255, g: 0, b: 0), "nothing drawn outside the icon")
    }

    func testAMissingOrUnreadableIconGivesNilForTheFallback() throws {
        try Data("not a png".utf8).write(to: folder.appendingPathComponent("broken.png"))
        let canvas = try HeadlessCanvas(width: 16, height: 16)
        let catalog = AssetCatalog(folder: folder, renderer: canvas.renderer)
        XCTAssertNil(catalog.texture(named: "absent", side: 8))
        XCTAssertNil(catalog.texture(named: "broken", side: 8))
        XCTAssertNil(AssetCatalog(folder: nil, renderer: canvas.renderer).texture(named: "placeholder", side: 8))
    }
}
