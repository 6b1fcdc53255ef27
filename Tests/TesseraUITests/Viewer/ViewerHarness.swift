import Foundation
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraTiling
@testable import TesseraUI

/// The whole viewer headless (dummy driver, software renderer), driven frame by frame on the test's
/// thread at the time of a `ManualClock`: keys go in as the bindings spell them, frames run the same path
/// the frame loop runs, and the model, the modes and the commands are there to look at.
final class ViewerHarness {
    let clock = ManualClock(start: .seconds(1000))
    let viewer: Viewer

    init(_ options: ViewerOptions) throws {
        var options = options
        options.headless = true
        options.carousel.fade = .none
        viewer = try Viewer(options: options, clock: clock)
    }

    var model: CarouselModel { viewer.parts.model }
    var modes: ViewerModes { viewer.modes }
    var commands: ViewerCommands { viewer.commands }
    var now: Duration { clock.now() }
    var selectedPath: String? { model.selectedItem?.path }
    var overlay: OverlayContent { commands.overlayContent(now: now, information: viewer.parts.information) }

    /// Presses a key as a binding or a script names it (`m`, `ctrl+x`, `Delete`, `<`).
    func press(_ key: String) {
        viewer.handle(.keyDown(try! KeyCombo(parsing: key), isRepeat: false), now: now)
    }

    /// One frame, `advance` after the last; returns what it drew.
    @discardableResult
    func frame(advance: Duration = .milliseconds(16)) throws -> PixelBuffer {
        clock.advance(by: advance)
        viewer.renderFrame(now: now)
        let pixels = try viewer.parts.host.renderer.readPixels()
        viewer.parts.host.renderer.present()
        return pixels
    }

    /// Runs frames (letting the workers run between them) until `done`, at most 15 s of real time.
    @discardableResult
    func run(until done: () -> Bool, advance: Duration = .milliseconds(16), file: StaticString = #filePath,
             line: UInt = #line) throws -> PixelBuffer {
        let deadline = Date().addingTimeInterval(15)
        var pixels = try frame(advance: advance)
        while !done() {
            guard Date() < deadline else {
                XCTFail("timed out", file: file, line: line)
                return pixels
            }
            Thread.sleep(forTimeInterval: 0.003)
            pixels = try frame(advance: advance)
        }
        return pixels
    }

    /// Runs frames until nothing moves, loads or runs: the files' work done, the views settled.
    @discardableResult
    func settle(file: StaticString = #filePath, line: UInt = #line) throws -> PixelBuffer {
        try run(until: { [self] in
            viewer.isIdle(now: now) && !viewer.parts.fileActions.isBusy && !viewer.parts.keyHandler.isRunning
                && (modes.mode == .strip || modes.detail?.isSharp == true || modes.detail?.errorText != nil
                    || modes.compare?.isSharp == true)
        }, file: file, line: line)
        return try frame()
    }

    /// The frame of the cell showing `index` on screen, in pixels.
    func cellRect(_ index: Int) -> PixelRect? {
        guard let cell = model.visibleCells.first(where: { $0.index == index }) else { return nil }
        let frame = model.viewportFrame(of: cell), scale = model.pixelScale
        return PixelRect(x: Int(frame.x * scale), y: Int(frame.y * scale), width: Int(frame.width * scale),
                         height: Int(frame.height * scale))
    }
}

/// Image files for the viewer's tests, in a folder of their own.
final class ViewerFixtures {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-viewer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// A PNG of one colour.
    @discardableResult
    func png(_ name: String, _ colour: RGBA, width: Int = 200, height: Int = 150) throws -> String {
        try PNGWriter.write(PixelBuffer(width: width, height: height, filledWith: colour), to: path(name))
        return path(name)
    }

    /// A picture whose top half is `top` and bottom half `bottom`: a turn shows where its top went.
    static func halves(width: Int, height: Int, top: RGBA, bottom: RGBA) -> PixelBuffer {
        var pixels = PixelBuffer(width: width, height: height, filledWith: top)
        let lower = PixelBuffer(width: width, height: height - height / 2, filledWith: bottom)
        pixels.bytes.replaceSubrange((height / 2 * width * 4)..., with: lower.bytes)
        return pixels
    }

    /// A PNG with a top half and a bottom half.
    @discardableResult
    func halvesPNG(_ name: String, top: RGBA, bottom: RGBA, width: Int = 240, height: Int = 160) throws -> String {
        try PNGWriter.write(Self.halves(width: width, height: height, top: top, bottom: bottom), to: path(name))
        return path(name)
    }

    /// A JPEG (no EXIF block) with a top half and a bottom half.
    @discardableResult
    func halvesJPEG(_ name: String, top: RGBA, bottom: RGBA, width: Int = 240, height: Int = 160) throws -> String {
        let pixels = Self.halves(width: width, height: height, top: top, bottom: bottom)
        let encoder = TileEncoder(format: .jpeg, quality: 95, maxTileSide: max(width, height), isGrayscale: false, hasAlpha: false)
        try pixels.bytes.withUnsafeBytes { bytes in
            try encoder.writeTile(bytes.baseAddress!, stride: width * 4, width: width, height: height, to: path(name))
        }
        return path(name)
    }

    /// The viewer's options over `paths`, without a watcher, the thumbnail cache or the user's trash and
    /// key-handler: a trash and a config folder inside the test's folder.
    func options(_ paths: [String]) -> ViewerOptions {
        var options = ViewerOptions(items: paths.map { CarouselItem(path: $0, version: FileVersion.ofFile(atPath: $0)) })
        options.useThumbnailCache = false
        options.trash = Trash(environment: ["XDG_DATA_HOME": path("data"), "HOME": folder.path])
        options.keyHandler = KeyHandlerRunner(handlerPath: path("config/tessera/key-handler"))
        return options
    }
}

extension PixelBuffer {
    /// The share of pixels in `rect` within `tolerance` of `colour`.
    func share(of colour: RGBA, in rect: PixelRect, tolerance: Int = 24) -> Double {
        var hits = 0, total = 0
        for y in max(0, rect.y)..<min(height, rect.y + rect.height) {
            for x in max(0, rect.x)..<min(width, rect.x + rect.width) {
                total += 1
                if pixel(x: x, y: y).isClose(to: colour, tolerance: tolerance) { hits += 1 }
            }
        }
        return total == 0 ? 0 : Double(hits) / Double(total)
    }
}
