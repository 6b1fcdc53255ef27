import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraTiling
@testable import TesseraUI

/// No tile texture is larger than what it holds by more than a tile's edge: a photo shown whole (one tile
/// a level) gets no square texture of its longer side, nor a full-size one for a coarse level.
final class TileTexturePoolTests: XCTestCase {
    func testAOneTilePyramidsTexturesAreTheImagesSizeNotASquare() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let geometry = DeepZoomGeometry(width: 2560, height: 1600, tileSize: 2560)
        let pool = TileTexturePool(renderer: canvas.renderer, geometry: geometry)
        XCTAssertEqual(pool.pooledSize, PixelSize(width: 2560, height: 1600))

        let finest = try pool.make(from: PixelBuffer(width: 2560, height: 1600, filledWith: RGBA(r: 9, g: 9, b: 9)))
        XCTAssertEqual([finest.texture.width, finest.texture.height], [2560, 1600])
        let coarse = try pool.make(from: PixelBuffer(width: 640, height: 400, filledWith: RGBA(r: 9, g: 9, b: 9)))
        XCTAssertEqual([coarse.texture.width, coarse.texture.height], [640, 400])
        withExtendedLifetime(canvas) {}
    }

    func testTilesOfAPyramidShareThePooledSize() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let geometry = DeepZoomGeometry(width: 4000, height: 3000, tileSize: 254, overlap: 1)
        let pool = TileTexturePool(renderer: canvas.renderer, geometry: geometry)
        XCTAssertEqual(pool.pooledSize, PixelSize(width: 256, height: 256))
        let inner = try pool.make(from: PixelBuffer(width: 256, height: 256, filledWith: RGBA(r: 9, g: 9, b: 9)))
        pool.recycle([inner])
        let edge = try pool.make(from: PixelBuffer(width: 200, height: 255, filledWith: RGBA(r: 9, g: 9, b: 9)))
        XCTAssertTrue(edge.texture === inner.texture, "a recycled texture is reused for the next tile")
        withExtendedLifetime(canvas) {}
    }
}
