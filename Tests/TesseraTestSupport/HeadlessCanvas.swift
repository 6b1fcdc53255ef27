import Logging
import TesseraSDL

/// A small headless window with SDL's software renderer, for tests that draw and read pixels back. Holds
/// the SDL objects so they outlive the test's drawing.
package final class HeadlessCanvas {
    package let system: SDLSystem
    package let window: Window
    package let renderer: Renderer

    /// - Parameter logger: where the renderer logs the SDL calls that fail.
    package init(width: Int, height: Int, logger: Logger = Logger(label: "tessera.sdl")) throws {
        system = try SDLSystem(headless: true)
        window = try Window(system: system, title: "test", width: width, height: height)
        renderer = try Renderer(window: window, software: true, vsync: false, logger: logger)
    }
}
