import Foundation
import TesseraSDL
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraTiling
@testable import TesseraUI

/// A headless SDL stack (dummy driver, software renderer) with one `TiledImageView`, driven frame by frame
/// on the test's thread and measured by a `RunRecorder` on the test's clock, and the small pyramids the
/// tests open.
final class TiledViewHarness {
    let system: SDLSystem
    let window: Window
    let renderer: Renderer
    let text: TextCache
    let view: TiledImageView
    let clock: ManualClock
    let recorder: RunRecorder

    /// Runs the view's work, as the viewer's executor would.
    let executor: WorkExecutor

    /// - Parameter executor: runs the view's work; by default one of the harness's own with two threads.
    init(path: String, width: Int, height: Int, options: TiledViewOptions = TiledViewHarness.options(),
         executor: WorkExecutor? = nil) throws {
        system = try SDLSystem(headless: true)
        window = try Window(system: system, title: "test", width: width, height: height)
        renderer = try Renderer(window: window, software: true, vsync: false)
        text = TextCache(renderer: renderer, fontPath: nil)
        clock = ManualClock(start: .seconds(100))
        recorder = RunRecorder(clock: clock, host: .tiled)
        self.executor = executor ?? WorkExecutor(.threads(2), name: "test.tiled", priority: .background)
        view = TiledImageView(path: path, renderer: renderer, text: text, assets: nil, options: options,
                              executor: self.executor, pixelScale: 1, now: clock.now(), observer: recorder)
    }

    /// No fade, a private pyramid cache.
    static func options(fade: FadeTiming = .none) -> TiledViewOptions {
        var options = TiledViewOptions()
        options.fade = fade
        options.pyramidCache = TilePyramidCache(root: FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-ui-pyramids-\(UUID().uuidString)").path)
        return options
    }

    /// One frame at the clock's time: update, draw, and the pixels drawn.
    @discardableResult
    func frame(advance: Duration = .milliseconds(16)) throws -> PixelBuffer {
        clock.advance(by: advance)
        view.update(now: clock.now())
        view.render(now: clock.now())
        let pixels = try renderer.readPixels()
        renderer.present()
        return pixels
    }

    /// Runs frames (sleeping a little between them so workers can finish) until `done`, at most 10 s.
    @discardableResult
    func run(until done: () -> Bool, file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        let deadline = Date().addingTimeInterval(10)
        var pixels = try frame()
        while !done() {
            guard Date() < deadline else {
                XCTFail("timed out", file: file, line: line)
                return pixels
            }
            Thread.sleep(forTimeInterval: 0.005)
            pixels = try frame()
        }
        return pixels
    }

    /// Until every visible tile is at the right level and nothing loads or fades.
    @discardableResult
    func runUntilSharp(file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        try run(until: { view.isSharp && view.isIdle(now: clock.now()) }, file: file, line: line)
        return try frame(advance: .zero)
    }

    func send(_ event: InputEvent) {
        _ = view.handle(event, now: clock.now())
    }

    /// Presses `key` (as a binding spells it): the single view's default binding's action.
    func press(_ key: String) {
        guard let action = KeyBindings.defaults.action(for: try! KeyCombo(parsing: key), in: .single) else {
            return XCTFail("\(key) does nothing in the single view")
        }
        _ = view.perform(action, now: clock.now())
    }
}

/// Test pictures and pyramids written as PNG (lossless, so pixels can be compared exactly).
enum TiledFixtures {
    /// Period of the red and green ramps: steep enough (4 levels a pixel) that a pixel's shift shows.
    static let rampPeriod = 128.0

    /// Red and green rise and fall across and down every 128 pixels (a triangle wave, piecewise linear, so a
    /// filtered picture keeps the value at each point away from the corners), blue grows left to right
    /// across the whole image (which 128-pixel period a pixel is in).
    static func gradientColour(x: Double, y: Double, width: Int, height: Int) -> (r: Double, g: Double, b: Double) {
        (ramp(x), ramp(y), max(0, min(255, x / Double(width - 1) * 255)))
    }

    static func ramp(_ v: Double) -> Double {
        let phase = (v.truncatingRemainder(dividingBy: rampPeriod) + rampPeriod).truncatingRemainder(dividingBy: rampPeriod)
        return 255 * (1 - abs(phase / (rampPeriod / 2) - 1))
    }

    /// How far `v` is from the nearest corner of the ramp.
    static func distanceFromCorner(_ v: Double) -> Double {
        let half = rampPeriod / 2
        let phase = (v.truncatingRemainder(dividingBy: half) + half).truncatingRemainder(dividingBy: half)
        return min(phase, half - phase)
    }

    /// Pixels of the frame inside the image (a few pixels in from its edges) that differ from the gradient
    /// at the image point they show by more than a shift of `screenPixels` would explain (and at least
    /// `floor` levels, for rounding), over every 3rd pixel. Linear filtering shows the colour at the pixel
    /// centre's image position; nearest filtering the colour of the pixel under it.
    static func mismatches(_ frame: PixelBuffer, view: TiledImageView, image: PixelSize, screenPixels: Double = 0.6,
                            floor: Double = 3, nearest: Bool = false) -> (count: Int, checked: Int, worst: String) {
        guard let zoom = view.zoom, let origin = view.imageOriginInPixels else { return (Int.max, 0, "no image") }
        // The ramps change by 510 / period levels per image pixel.
        let tolerance = max(floor, 510 / rampPeriod * screenPixels / zoom)
        var count = 0, checked = 0, worst = ""
        var worstError = 0.0
        let margin = max(2, 2 / zoom)
        // Filters blur the ramps' corners over a few pixels of the level drawn, i.e. a few / zoom image pixels.
        let cornerMargin = nearest ? 0 : 1 + 3 / min(zoom, 1)
        for y in stride(from: 0, to: frame.height, by: 3) {
            for x in stride(from: 0, to: frame.width, by: 3) {
                var ix = (Double(x) + 0.5 - origin.x) / zoom, iy = (Double(y) + 0.5 - origin.y) / zoom
                guard ix >= margin, iy >= margin, ix < Double(image.width) - margin, iy < Double(image.height) - margin,
                      distanceFromCorner(ix) >= cornerMargin,
                      distanceFromCorner(iy) >= cornerMargin else {
                    continue
                }
                if nearest { ix = ix.rounded(.down); iy = iy.rounded(.down) } else { ix -= 0.5; iy -= 0.5 }
                let want = gradientColour(x: ix, y: iy, width: image.width, height: image.height)
                let got = frame.pixel(x: x, y: y)
                let error = max(abs(Double(got.r) - want.r), abs(Double(got.g) - want.g), abs(Double(got.b) - want.b))
                checked += 1
                if error > tolerance { count += 1 }
                if error > worstError { worstError = error; worst = "(\(x),\(y)) got \(got) want \(want)" }
            }
        }
        return (count, checked, worst)
    }

    static func gradient(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let c = gradientColour(x: Double(x), y: Double(y), width: width, height: height)
                let i = (y * width + x) * 4
                bytes[i] = UInt8(c.b.rounded()); bytes[i + 1] = UInt8(c.g.rounded()); bytes[i + 2] = UInt8(c.r.rounded())
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// A Deep Zoom pyramid of `image` with PNG tiles; `levelImage` may replace a level's picture (to tell
    /// levels apart). Returns the descriptor's path.
    static func writeDeepZoom(_ image: PixelBuffer, tileSize: Int, overlap: Int, in folder: URL, name: String = "test",
                              levelImage: ((Int, PixelSize) -> PixelBuffer?)? = nil) throws -> String {
        try DeepZoomFixtures.writeDeepZoom(image, tileSize: tileSize, overlap: overlap, in: folder.path, name: name,
                                           format: "png", levelImage: levelImage) { tile, path in
            try PNGWriter.write(tile, to: path)
        }
    }
}
