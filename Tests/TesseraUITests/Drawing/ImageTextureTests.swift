import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraSDL
@testable import TesseraUI

/// A faded-in opaque picture must end in the state SDL's software renderer draws as a plain copy: no
/// blending and no alpha modulation. Left at the fade's last alpha, every later frame would draw it through
/// a per-pixel modulating blitter, the dearer one, with nothing on screen to show it.
final class ImageTextureTests: XCTestCase {
    /// A 16x16 cell picture on a headless canvas: without an alpha channel when `opaque`, as the strip makes it.
    private func picture(on canvas: HeadlessCanvas, opaque: Bool) throws -> ImageTexture {
        ImageTexture(texture: try canvas.renderer.makeTexture(width: 16, height: 16, opaque: opaque), isOpaque: opaque)
    }

    func testAFinishedFadeLeavesNeitherBlendingNorAlphaBehind() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let picture = try picture(on: canvas, opaque: true)
        for step in [0.1, 0.5, 0.98] {
            picture.prepare(alpha: step)
            XCTAssertEqual(picture.texture.alpha, Texture.alphaModulation(step))
            XCTAssertTrue(picture.texture.isBlending)
        }
        picture.prepare(alpha: 1)
        XCTAssertEqual(picture.texture.alpha, 255)
        XCTAssertFalse(picture.texture.isBlending)

        // A cell reused for the next image fades in again from the start.
        picture.prepare(alpha: 0.3)
        XCTAssertEqual(picture.texture.alpha, Texture.alphaModulation(0.3))
        XCTAssertTrue(picture.texture.isBlending)
        withExtendedLifetime(canvas) {}
    }

    /// The last step of a fade can come within half a step of 1 (0.999): SDL then holds 255, and an opaque
    /// texture blending at 255 goes through SDL's slowest blitter (25 times a copy, tools/sdl-blit-costs.c).
    func testAFadeStepThatRoundsToFullAlphaIsAlreadyACopy() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let picture = try picture(on: canvas, opaque: true)
        picture.prepare(alpha: 0.5)
        picture.prepare(alpha: 0.999)
        XCTAssertEqual(picture.texture.alpha, 255)
        XCTAssertFalse(picture.texture.isBlending)
        withExtendedLifetime(canvas) {}
    }

    func testATranslucentPictureKeepsBlendingAtFullAlpha() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 32)
        let picture = try picture(on: canvas, opaque: false)
        picture.prepare(alpha: 0.5)
        picture.prepare(alpha: 1)
        XCTAssertEqual(picture.texture.alpha, 255)
        XCTAssertTrue(picture.texture.isBlending)
        withExtendedLifetime(canvas) {}
    }
}
