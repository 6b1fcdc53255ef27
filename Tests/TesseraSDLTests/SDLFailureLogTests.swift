import Logging
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraSDL

/// A drawing call SDL refuses is counted every time and logged once per SDL function, so a broken draw
/// shows in the log without flooding it; a call that succeeds leaves no trace.
final class SDLFailureLogTests: XCTestCase {
    private let spot = PixelRect(x: 2, y: 2, width: 8, height: 8)

    func testDrawingAnotherRenderersTextureIsCountedEachTimeAndLoggedOnce() throws {
        let log = CapturedLog()
        let canvas = try HeadlessCanvas(width: 32, height: 32, logger: log.logger)
        let otherWindow = try Window(system: canvas.system, title: "other", width: 16, height: 16, hidden: true)
        let other = try Renderer(window: otherWindow, software: true, vsync: false)
        let foreign = try other.makeTexture(width: 8, height: 8)
        for _ in 0..<3 { canvas.renderer.draw(foreign, destination: spot) }
        XCTAssertEqual(canvas.renderer.failures.count, 3)
        XCTAssertEqual(canvas.renderer.failures.counts, ["SDL_RenderCopy": 3])
        let errors = log.messages(atLeast: .error)
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertTrue(errors.first?.contains("SDL_RenderCopy failed: ") == true, "\(errors)")
        XCTAssertEqual(other.failures.count, 0, "the texture's own renderer did nothing wrong")
        withExtendedLifetime((canvas, other)) {}
    }

    func testEachFailingFunctionIsLoggedOnceAndTheLockFailsVisibly() throws {
        let log = CapturedLog()
        let canvas = try HeadlessCanvas(width: 32, height: 32, logger: log.logger)
        let fixed = try canvas.renderer.makeTexture(width: 8, height: 8, access: .static)
        for _ in 0..<2 {
            let locked = fixed.withLockedPixels(in: PixelRect(x: 0, y: 0, width: 8, height: 8)) { _, _ in
                XCTFail("SDL never locks a static texture")
                return true
            }
            XCTAssertFalse(locked)
        }
        let otherWindow = try Window(system: canvas.system, title: "other", width: 16, height: 16, hidden: true)
        let other = try Renderer(window: otherWindow, software: true, vsync: false)
        canvas.renderer.draw(try other.makeTexture(width: 8, height: 8), destination: spot)
        XCTAssertEqual(canvas.renderer.failures.counts, ["SDL_LockTexture": 2, "SDL_RenderCopy": 1])
        let errors = log.messages(atLeast: .error)
        XCTAssertEqual(errors.count, 2, "\(errors)")
        XCTAssertTrue(errors.first?.contains("SDL_LockTexture failed: ") == true, "\(errors)")
        withExtendedLifetime((canvas, other)) {}
    }

    func testCallsThatSucceedAreNeitherCountedNorLogged() throws {
        let log = CapturedLog()
        let canvas = try HeadlessCanvas(width: 32, height: 32, logger: log.logger)
        let renderer = canvas.renderer
        let texture = try renderer.makeTexture(width: 8, height: 8)
        try texture.upload(PixelBuffer(width: 8, height: 8, filledWith: RGBA(r: 10, g: 20, b: 30)))
        texture.setAlpha(0.5)
        texture.setBlending(true)
        texture.setScaleFilter(nearest: true)
        renderer.clear(RGBA(r: 0, g: 0, b: 0))
        renderer.setClip(spot)
        renderer.draw(texture, destination: spot)
        renderer.setClip(nil)
        renderer.outline(spot, RGBA(r: 200, g: 0, b: 0, a: 128))
        renderer.line(from: (0, 0), to: (31, 31), RGBA(r: 0, g: 200, b: 0))
        // A static texture takes uploads, as SDL_UpdateTexture allows.
        let fixed = try renderer.makeTexture(width: 4, height: 4, opaque: true, access: .static)
        XCTAssertEqual(try fixed.upload(PixelBuffer(width: 4, height: 4, filledWith: RGBA(r: 1, g: 2, b: 3))), 64)
        _ = try renderer.readPixels()
        XCTAssertEqual(renderer.failures.count, 0, "\(renderer.failures.counts)")
        XCTAssertEqual(log.messages(atLeast: .trace), [])
        withExtendedLifetime(canvas) {}
    }
}
