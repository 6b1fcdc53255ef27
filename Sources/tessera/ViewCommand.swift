import ArgumentParser
import Foundation
import TesseraCore
import TesseraImaging
import TesseraRemote
import TesseraUI

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show one image zoomable, CATiledLayer style: a Deep Zoom pyramid, a tile folder or a plain image.",
        discussion: """
        PATH is a .dzi (Tessera's or one written by `vips dzsave`), a folder of NAME_CC_RR.jpg tiles, or an \
        image. An http(s) URL of an IIIF image service's info.json (version 2 or 3, listing its tiles) or of a \
        .dzi is shown with its tiles fetched as the view needs them. A JPEG larger than a tile (not progressive, within --pixel-limit-mp) is decoded tile by \
        tile at the scale shown, only where the view is. Another image too large for one texture, or any \
        over --pixel-limit-mp, is cut into a pyramid in the background, kept in \
        $XDG_CACHE_HOME/tessera/tiles (~/.cache) and reused next time; a quick overview shows meanwhile.

        \(keysHelp)
        Mouse: drag to pan (release while moving to fling). Zoom runs from fit to 4x past native pixels.
        """)

    /// The keys the view answers to, spelled from the bindings it reads (the single view's), so the help
    /// lists every key that works.
    private static var keysHelp: String {
        let bindings = KeyBindings.defaults
        func keys(_ actions: ViewerAction...) -> String {
            actions.flatMap { bindings.keys(for: $0, in: .single) }.map(\.spelling).joined(separator: ", ")
        }
        let lines = [
            ("\(keys(.zoomIn)) / \(keys(.zoomOut)), wheel", "zoom in / out about the pointer"),
            ("\(keys(.fit)) / \(keys(.actualSize))", "fit the window / 100 % (an image pixel a device pixel)"),
            ("double-click", "zoom in 2x about the point; at the limit, fit"),
            (keys(.left, .right), "pan left / right"),
            (keys(.up, .down), "pan up / down"),
            (keys(.fullscreen), "toggle fullscreen"),
            (keys(.retryTiles), "try the tiles that failed again (a remote pyramid's are tried again by themselves)"),
            (keys(.close, .quit), "quit"),
        ]
        let width = lines.map(\.0.count).max() ?? 0
        return (["Keys:"] + lines.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 })
            .joined(separator: "\n")
    }

    @Argument(help: "A .dzi file, a tile folder, an image, or an http(s) URL of an IIIF info.json or a .dzi.")
    var path: String
    @Option(help: "Fade-in time of an arriving tile, in seconds; 0 turns fading off.")
    var fade = Seconds(0.25)
    @Option(help: "Tile texture cache limit in MB (the coarse levels are kept on top).")
    var cacheMb = 192
    @Option(help: "Decoding threads (default: the number of cores, at least 2).")
    var workers: Int?
    @Option(help: "Estimated working memory of the tile decodes running at once, in MB; a larger decode waits for room (one always runs).")
    var decodeMemoryMb = 256
    @Option(help: "Largest image shown directly, in megapixels; larger ones are cut into tiles.")
    var pixelLimitMp = 100
    @Option(help: ArgumentHelp("Open at PERCENT zoom about the point X,Y (fractions of the image's width and height), not fitted: where a measured run measures.",
                               valueName: "PERCENT@X,Y", visibility: .hidden))
    var openAt: String?
    @OptionGroup var display: RunOptions

    func validate() throws {
        if !FadeOption.isValid(fade) { throw ValidationError(FadeOption.outOfRange) }
        if !(1...1_048_576).contains(cacheMb) { throw ValidationError("--cache-mb must be between 1 and 1048576") }
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be between 1 and 64") }
        if !(1...1_048_576).contains(decodeMemoryMb) { throw ValidationError("--decode-memory-mb must be between 1 and 1048576") }
        if !(1...100_000).contains(pixelLimitMp) { throw ValidationError("--pixel-limit-mp must be between 1 and 100000") }
        if let openAt, Self.parseOpenAt(openAt) == nil {
            throw ValidationError("--open-at takes PERCENT@X,Y with X and Y between 0 and 1, e.g. 100@0.25,0.25")
        }
    }

    /// "100@0.25,0.25": 100 %, a quarter of the way across and down.
    static func parseOpenAt(_ text: String) -> (pictureScale: Double, x: Double, y: Double)? {
        let parts = text.split(separator: "@")
        guard parts.count == 2, let percent = Double(parts[0].trimmingCharacters(in: CharacterSet(charactersIn: "%"))),
              percent > 0 else { return nil }
        let point = parts[1].split(separator: ",").compactMap { Double($0) }
        guard point.count == 2, point.allSatisfy({ (0...1).contains($0) }) else { return nil }
        return (percent / 100, point[0], point[1])
    }

    func run() throws {
        display.bootstrapLogging()
        if PresentationStrip.isNamedAsDocument(path) {
            throw fail("\(path): an IIIF manifest or collection opens as a strip of its canvases: tessera \(path)")
        }
        var options = ViewerOptions(items: [CarouselItem(path: path)])
        if let workers { options.workerCount = workers }
        options.pixelLimit = pixelLimitMp * 1_000_000
        options.cacheLimitBytes = cacheMb << 20
        options.decodeMemoryBytes = decodeMemoryMb << 20
        options.singleView.fade = FadeOption.timing(fade)
        options.singleView.openAt = openAt.flatMap(Self.parseOpenAt)
        options.decodeHelpers = display.startDecodeHelpers(helperCount: options.workerCount, pixelLimit: options.pixelLimit,
                                                           opening: CarouselItem.isRemote(path) ? nil : path)
        try display.apply(to: &options)
        do {
            try TiledViewer(path: path, options: options).run()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }
}
