import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraSDL
@testable import TesseraUI

/// A fade step mixed on the CPU (`FadeComposer`) must look like the one SDL's software renderer blends:
/// the cell's background, the icon over it with its own alpha, the picture over both at the fade's alpha.
/// And once the fade is over, the texture must show the picture itself again, not the last mix.
final class FadeComposerTests: XCTestCase {
    private let background = RGBA(r: 38, g: 38, b: 44)
    private let pictureOrigin = (x: 4, y: 6)
    private let iconOrigin = (x: 11, y: 7)

    /// 40x30, every pixel a different opaque colour.
    private let picture = PixelBuffer(width: 40, height: 30, bytes: (0..<1200).flatMap { (i: Int) -> [UInt8] in
        let blue = UInt8(i * 7 % 256), green = UInt8(i * 13 % 256), red = UInt8(255 - i % 256)
        return [blue, green, red, 255]
    })

    /// 16x16, light with alpha rising from 0 to 255 across it, as an anti-aliased glyph's edge does.
    private let icon = PixelBuffer(width: 16, height: 16, bytes: (0..<256).flatMap { (i: Int) -> [UInt8] in
        let column = i % 16
        let green = UInt8(120 + column * 8), alpha = UInt8(column * 17)
        return [200, green, 90, alpha]
    })

    private var whole: PixelRect { PixelRect(x: 0, y: 0, width: picture.width, height: picture.height) }

    private var pictureRect: PixelRect {
        PixelRect(x: pictureOrigin.x, y: pictureOrigin.y, width: picture.width, height: picture.height)
    }

    /// What the strip drew before the composer: background, icon blended, picture blended at `alpha`.
    private func blendedByTheRenderer(_ alpha: Double, on canvas: HeadlessCanvas) throws -> PixelBuffer {
        let renderer = canvas.renderer
        renderer.clear(background)
        let iconTexture = try renderer.makeTexture(width: icon.width, height: icon.height)
        try iconTexture.upload(icon)
        renderer.draw(iconTexture, destination: PixelRect(x: pictureOrigin.x + iconOrigin.x, y: pictureOrigin.y + iconOrigin.y,
                                                          width: icon.width, height: icon.height))
        let texture = ImageTexture(texture: try renderer.makeOpaqueTexture(width: 48, height: 32), isOpaque: true)
        try texture.upload(picture)
        texture.prepare(alpha: alpha)
        renderer.draw(texture.texture, source: PixelRect(x: 0, y: 0, width: picture.width, height: picture.height),
                      destination: pictureRect)
        return try renderer.readPixels()
    }

    /// The largest difference of any channel between two frames over `area` (window coordinates).
    private func largestDifference(_ a: PixelBuffer, _ b: PixelBuffer, over area: PixelRect) -> Int {
        var largest = 0
        for y in area.y..<area.maxY {
            for x in area.x..<area.maxX {
                let p = a.pixel(x: x, y: y), q = b.pixel(x: x, y: y)
                largest = max(largest, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)))
            }
        }
        return largest
    }

    /// The frame shows the picture itself, pixel for pixel, at `pictureRect`.
    private func assertShowsThePicture(_ canvas: HeadlessCanvas, file: StaticString = #filePath, line: UInt = #line) throws {
        let frame = try canvas.renderer.readPixels()
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                XCTAssertEqual(frame.pixel(x: pictureOrigin.x + x, y: pictureOrigin.y + y), picture.pixel(x: x, y: y),
                               "(\(x), \(y))", file: file, line: line)
            }
        }
    }

    func testAComposedFadeStepLooksLikeTheRenderersBlend() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 48)
        let composerIcon = try XCTUnwrap(FadeComposer.Icon(icon))
        // A cell texture larger than its picture, as cells hand them on.
        let texture = ImageTexture(texture: try canvas.renderer.makeOpaqueTexture(width: 48, height: 32), isOpaque: true)
        // The whole picture, and the part a cell entering at the screen's edge shows, cutting the icon.
        let sliver = PixelRect(x: 19, y: 0, width: 21, height: 30)
        for area in [whole, sliver] {
            for alpha in [0.07, 0.37, 0.5, 0.83, 0.97] {
                try texture.upload(picture)
                let expected = try blendedByTheRenderer(alpha, on: canvas)
                canvas.renderer.clear(RGBA(r: 255, g: 0, b: 0))
                XCTAssertTrue(texture.showFadeStep(of: picture, area: area, alpha: alpha, over: background,
                                                   icon: composerIcon, at: iconOrigin, composer: FadeComposer()))
                XCTAssertFalse(texture.texture.isBlending, "a composed step is drawn as a copy")
                let shown = PixelRect(x: pictureRect.x + area.x, y: pictureRect.y + area.y, width: area.width, height: area.height)
                canvas.renderer.draw(texture.texture, source: area, destination: shown)
                // SDL divides by 256 and truncates where pixman divides by 255 and rounds: SDL's pixels come
                // out up to 2 darker per blend, and under the icon there are two.
                XCTAssertLessThanOrEqual(largestDifference(try canvas.renderer.readPixels(), expected, over: shown), 4,
                                         "alpha \(alpha), area \(area)")
            }
        }
        // Outside the area the texture still holds the picture.
        texture.prepare(alpha: 1)
        canvas.renderer.draw(texture.texture, source: whole, destination: pictureRect)
        let frame = try canvas.renderer.readPixels()
        XCTAssertEqual(frame.pixel(x: pictureRect.x + 3, y: pictureRect.y + 20), picture.pixel(x: 3, y: 20))
        XCTAssertEqual(canvas.renderer.failures.count, 0, "no SDL call failed")
        withExtendedLifetime(canvas) {}
    }

    /// When SDL will not lock the texture (here a static one, which SDL never locks), the step is not
    /// composed: the caller blends instead, and the texture still holds the picture, not a half-written mix.
    /// The renderer counts the failed lock and logs it.
    func testATextureSDLWillNotLockFallsBackWithThePictureIntact() throws {
        let log = CapturedLog()
        let canvas = try HeadlessCanvas(width: 64, height: 48, logger: log.logger)
        let created = try canvas.renderer.makeTexture(width: 40, height: 30, opaque: true, access: .static)
        let texture = ImageTexture(texture: created, isOpaque: true)
        try texture.upload(picture)
        XCTAssertFalse(texture.showFadeStep(of: picture, area: whole, alpha: 0.5, over: background,
                                            icon: try XCTUnwrap(FadeComposer.Icon(icon)), at: iconOrigin, composer: FadeComposer()))
        XCTAssertEqual(canvas.renderer.failures.counts, ["SDL_LockTexture": 1])
        XCTAssertEqual(log.messages(atLeast: .error).count, 1)
        texture.prepare(alpha: 1)
        canvas.renderer.clear(background)
        canvas.renderer.draw(texture.texture, destination: pictureRect)
        try assertShowsThePicture(canvas)
        withExtendedLifetime(canvas) {}
    }

    func testOnceTheFadeIsOverTheTextureShowsThePictureAgain() throws {
        let canvas = try HeadlessCanvas(width: 64, height: 48)
        let texture = ImageTexture(texture: try canvas.renderer.makeOpaqueTexture(width: 40, height: 30), isOpaque: true)
        try texture.upload(picture)
        XCTAssertTrue(texture.showFadeStep(of: picture, area: whole, alpha: 0.5, over: background,
                                           icon: try XCTUnwrap(FadeComposer.Icon(icon)), at: iconOrigin, composer: FadeComposer()))
        texture.restorePicture(picture)
        texture.prepare(alpha: 1)
        canvas.renderer.draw(texture.texture, destination: pictureRect)
        try assertShowsThePicture(canvas)
        XCTAssertEqual(canvas.renderer.failures.count, 0, "no SDL call failed")
        withExtendedLifetime(canvas) {}
    }
}
