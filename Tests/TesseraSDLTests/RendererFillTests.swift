import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore

/// Opaque fills are drawn without blending (a row copy on the software renderer); translucent ones must
/// still blend, whatever was filled before them.
final class RendererFillTests: XCTestCase {
    func testOpaqueFillsReplaceAndTranslucentFillsBlendInAnyOrder() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let renderer = canvas.renderer
        let left = PixelRect(x: 0, y: 0, width: 32, height: 32), right = PixelRect(x: 32, y: 0, width: 32, height: 32)
        renderer.fill(left, RGBA(r: 200, g: 0, b: 0))
        renderer.fill(left, RGBA(r: 0, g: 0, b: 200, a: 128))  // over red: about half of each
        renderer.fill(right, RGBA(r: 200, g: 0, b: 0))
        renderer.fill(right, RGBA(r: 0, g: 0, b: 200, a: 128))
        renderer.fill(right, RGBA(r: 0, g: 180, b: 0))  // opaque again: replaces what is there
        let frame = try withExtendedLifetime(canvas) { try renderer.readPixels() }
        XCTAssertTrue(frame.pixel(x: 10, y: 10).isClose(to: RGBA(r: 100, g: 0, b: 100)), "\(frame.pixel(x: 10, y: 10))")
        XCTAssertEqual(frame.pixel(x: 50, y: 10), RGBA(r: 0, g: 180, b: 0))
    }
}
