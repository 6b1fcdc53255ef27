import XCTest
@testable import TesseraUI

/// The window is made for SDL's OpenGL renderer, so that the renderer keeps it rather than making it again,
/// unless a hint names another renderer: the software one needs no GL libraries loaded for it.
final class WindowForRendererTests: XCTestCase {
    func testTheWindowIsMadeForOpenGLUnlessAHintNamesAnotherRenderer() {
        XCTAssertTrue(WindowHost.rendererMayBeOpenGL(environment: [:]))
        XCTAssertTrue(WindowHost.rendererMayBeOpenGL(environment: ["SDL_RENDER_DRIVER": "OpenGL"]))
        XCTAssertFalse(WindowHost.rendererMayBeOpenGL(environment: ["SDL_RENDER_DRIVER": "software"]))
        XCTAssertFalse(WindowHost.rendererMayBeOpenGL(environment: ["SDL_RENDER_DRIVER": "opengles2"]))
    }
}
