@testable import TesseraUI

/// A small headless window with SDL's software renderer, for tests that draw and read pixels back. Holds
/// the SDL objects so they outlive the test's drawing.
final class HeadlessCanvas {
    let system: SDLSystem
    let window: Window
    let renderer: Renderer

    init(width: Int, height: Int) throws {
        system = try SDLSystem(headless: true)
        window = try Window(system: system, title: "test", width: width, height: height)
        renderer = try Renderer(window: window, software: true, vsync: false)
    }
}
