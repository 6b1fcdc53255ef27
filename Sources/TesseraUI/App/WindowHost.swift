import Foundation
import Logging
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

    /// - Parameter beforeRenderer: runs once the window and the display's colour are known and before the
    ///   renderer is made (the slowest step of starting: a GL context), so work that needs neither SDL nor
    ///   the renderer (opening the first image) runs beside it.
    init(options: ViewerOptions, logger: Logger,
         beforeRenderer: (_ window: Window, _ colour: ColourConversion?, _ waker: EventLoopWaker) -> Void = { _, _, _ in }) throws {
        forcedScale = options.pixelScale
        let startup = StartupTimeline.process
        system = try SDLSystem(headless: options.headless)
        startup.mark(.sdl)
        // With a forced scale the window is made in pixels and points are derived from it.
        let sizeFactor = options.pixelScale ?? 1
        window = try Window(system: system, title: "Tessera", width: Int(Double(options.windowWidth) * sizeFactor),
                            height: Int(Double(options.windowHeight) * sizeFactor), fullscreen: options.fullscreen)
        startup.mark(.window)
        colour = DisplayColour.conversion(for: window, enabled: options.colourManagement)
        beforeRenderer(window, colour, system.waker)
        renderer = try Renderer(window: window, software: options.headless, vsync: !options.headless)
        startup.mark(.renderer)
        assets = AssetCatalog(folder: ResourceLocator.resourcesFolder()?.appendingPathComponent("UI"), renderer: renderer)
        text = TextCache(renderer: renderer, fontPath: Font.defaultPath())
        if !text.hasFont { logger.warning("no TrueType font found (install fonts-dejavu-core); text is hidden") }
    }

    /// The window's size in points before a renderer exists (the pixel scale is then the forced one, or
    /// taken as 1): where an image opened at start expects to be shown.
    static func expectedViewport(of window: Window, options: ViewerOptions) -> (points: Size, scale: Double) {
        let size = window.size
        let scale = options.pixelScale ?? 1
        let pointsPerUnit = options.pixelScale ?? 1
        return (Size(width: Double(size.width) / pointsPerUnit, height: Double(size.height) / pointsPerUnit), scale)
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
