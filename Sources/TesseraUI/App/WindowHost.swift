import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraImaging
import TesseraSDL

/// The window and what draws into it, made once per run from the viewer's options and shared by the strip
/// and the single view (and by `tessera view`, which has only the latter): SDL, the window, its renderer,
/// the UI's images and text, and the conversion from images' colour spaces to the display's. Main thread
/// only.
final class WindowHost {
    let system: SDLSystem
    let window: Window
    let renderer: Renderer
    let assets: AssetCatalog
    let text: TextCache
    /// From the images' colour spaces to the display's; nil with colour management off.
    let colour: ColourConversion?
    /// Device pixels per point when forced (headless runs test HiDPI with 2); nil asks the window.
    private let forcedScale: Double?

    /// What work started before SDL knows of the window it will have.
    struct EarlyStart {
        /// From the images' colour spaces to the display's, as `colour` will be.
        var colour: ColourConversion?
        /// The viewport the window will have, in points, at `pixelScale` device pixels a point (taken as 1
        /// unless forced: the window says once it exists).
        var viewport: Size
        var pixelScale: Double
        /// Whether `pixelScale` is what the window will have: forced, or on X11 (SDL2 draws one pixel a
        /// point there); on Wayland only the window tells.
        var pixelScaleIsKnown: Bool
        /// Wakes the frame loop once SDL is up; before, nothing (the first frame looks anyway).
        var wake: @Sendable () -> Void
    }

    /// - Parameter beforeSDL: runs once the display's colour is known and before SDL, the window and the
    ///   renderer are made (the slowest steps of starting: SDL's connection, a GL context), so work that
    ///   needs none of them (opening the first image) runs beside them.
    init(options: ViewerOptions, logger: Logger, beforeSDL: (EarlyStart) -> Void = { _ in }) throws {
        forcedScale = options.pixelScale
        let startup = StartupTimeline.process
        let display = DisplayFacts.beforeSDL(headless: options.headless)
        colour = DisplayColour.conversion(for: display, enabled: options.colourManagement)
        let waker = LateWaker()
        beforeSDL(EarlyStart(colour: colour, viewport: Self.expectedViewport(options: options, screen: display.screenSize),
                             pixelScale: options.pixelScale ?? 1,
                             pixelScaleIsKnown: options.pixelScale != nil || display.screenSize != nil,
                             wake: { waker.wake() }))
        system = try SDLSystem(headless: options.headless)
        waker.set(system.waker)
        startup.mark(.sdl)
        // With a forced scale the window is made in pixels and points are derived from it.
        let sizeFactor = options.pixelScale ?? 1
        window = try Window(system: system, title: "Tessera", width: Int(Double(options.windowWidth) * sizeFactor),
                            height: Int(Double(options.windowHeight) * sizeFactor), fullscreen: options.fullscreen,
                            openGL: !options.headless && Self.rendererMayBeOpenGL())
        // On X11 the server paints the window in the views' background as it maps, before the renderer
        // exists; the renderer's first clear then draws the same colour.
        let painted = window.showBackground(Theme.background)
        startup.mark(.window)
        renderer = try Renderer(window: window, software: options.headless, vsync: !options.headless)
        startup.mark(.renderer)
        // The window shows at once, in the views' background: a clear needs neither the UI's images and
        // font, read next, nor the shaders the first real frame has a software GL renderer compile.
        renderer.clear(Theme.background)
        renderer.present()
        if painted { window.showBackground(nil) }
        startup.mark(.firstFrame)
        assets = AssetCatalog(folder: ResourceLocator.resourcesFolder()?.appendingPathComponent("UI"), renderer: renderer)
        text = TextCache(renderer: renderer, fontPath: Font.defaultPath())
        if !text.hasFont { logger.warning("no TrueType font found (install fonts-dejavu-core); text is hidden") }
    }

    /// Waits until `hasEnded` (which may itself wait a little) says so, the window answering meanwhile:
    /// drawn again in the views' background when uncovered, and given up (`WindowClosedWhileWaiting`) when its
    /// user closes it. For what the strip cannot start without: a folder still being listed, a manifest
    /// still being read.
    func waitAnswering(until hasEnded: () -> Bool) throws(WindowClosedWhileWaiting) {
        while !hasEnded() {
            let happened = system.windowEventsWhileWaiting()
            if happened.quit { throw WindowClosedWhileWaiting() }
            if happened.exposed {
                renderer.clear(Theme.background)
                renderer.present()
            }
        }
    }

    /// Whether SDL will make its OpenGL renderer, the first it tries, unless a hint names another (the
    /// software one, or OpenGL ES, for which SDL makes the window again anyway).
    static func rendererMayBeOpenGL(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let named = environment["SDL_RENDER_DRIVER"], !named.isEmpty else { return true }
        return named.lowercased() == "opengl"
    }

    /// The viewport in points the window will have: the size asked for, or the screen's when fullscreen
    /// (at the forced pixel scale, else 1).
    static func expectedViewport(options: ViewerOptions, screen: (width: Int, height: Int)?) -> Size {
        if options.fullscreen, let screen {
            let scale = options.pixelScale ?? 1
            return Size(width: Double(screen.width) / scale, height: Double(screen.height) / scale)
        }
        return Size(width: Double(options.windowWidth), height: Double(options.windowHeight))
    }

    /// Device pixels per point: forced by the options, or the window's (HiDPI).
    var pixelScale: Double {
        forcedScale ?? max(1, Double(renderer.outputSize.width) / Double(max(1, window.size.width)))
    }

    /// What the report says of the display: the video driver and the pixel scale at exit.
    func addDisplay(to report: inout RunReport) {
        report.videoDriver = system.videoDriver
        report.pixelScale = pixelScale
    }

    /// The viewport in points and the device pixels per point, now.
    var viewportPoints: (width: Double, height: Double, scale: Double) {
        let output = renderer.outputSize
        let scale = pixelScale
        return (Double(output.width) / scale, Double(output.height) / scale, scale)
    }
}

/// The window was closed (by its user, or SIGINT or SIGTERM) before the viewer had anything to show in it.
package struct WindowClosedWhileWaiting: Error {
    package init() {}
}

/// A waker for work started before SDL: it wakes nobody until SDL's waker is set.
private final class LateWaker: Sendable {
    private let waker = Mutex<EventLoopWaker?>(nil)

    func set(_ waker: EventLoopWaker) { self.waker.withLock { $0 = waker } }

    func wake() { waker.withLock { $0 }?.wake() }
}
