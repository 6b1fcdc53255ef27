import ArgumentParser
import Foundation
import TesseraCore
import TesseraImaging
import TesseraUI

struct View: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show one image zoomable, CATiledLayer style: a Deep Zoom pyramid, a tile folder or a plain image.",
        discussion: """
        PATH is a .dzi (Tessera's or one written by `vips dzsave`), a folder of NAME_CC_RR.jpg tiles, or an \
        image. An image too large for one texture (or over --pixel-limit-mp) is cut into a pyramid in the \
        background, kept in $XDG_CACHE_HOME/tessera/tiles (~/.cache) and reused next time; a quick overview \
        shows meanwhile.

        Keys:
          + / -, wheel        zoom in / out about the pointer
          0 / 1               fit the window / 100 % (one image pixel per device pixel)
          double-click        zoom in 2x about the point (at the limit, back to fit)
          arrows, h/j/k/l     pan
          f                   toggle fullscreen
          Esc, q              quit
        Mouse: drag to pan (release while moving to fling). Zoom runs from fit to 4x past native pixels.
        """)

    @Argument(help: "A .dzi file, a tile folder or an image.")
    var path: String
    @Option(help: "Fade-in time of an arriving tile, in seconds; 0 turns fading off.")
    var fade = Seconds(0.25)
    @Option(help: "Tile texture cache limit in MB (the coarse levels are kept on top).")
    var cacheMb = 192
    @Option(help: "Tile reading threads (default: all cores but one, at least 2).")
    var workers: Int?
    @Option(help: "Estimated working memory of the tile decodes running at once, in MB; a larger decode waits for room (one always runs).")
    var decodeMemoryMb = 256
    @Option(help: "Largest image shown directly, in megapixels; larger ones are cut into tiles.")
    var pixelLimitMp = 100
    @OptionGroup var display: RunOptions

    func validate() throws {
        if !FadeOption.isValid(fade) { throw ValidationError(FadeOption.outOfRange) }
        if !(1...1_048_576).contains(cacheMb) { throw ValidationError("--cache-mb must be between 1 and 1048576") }
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be between 1 and 64") }
        if !(1...1_048_576).contains(decodeMemoryMb) { throw ValidationError("--decode-memory-mb must be between 1 and 1048576") }
        if !(1...100_000).contains(pixelLimitMp) { throw ValidationError("--pixel-limit-mp must be between 1 and 100000") }
    }

    func run() throws {
        display.bootstrapLogging()
        var options = ViewerOptions(items: [CarouselItem(path: path)])
        try display.apply(to: &options)
        var view = TiledViewOptions()
        view.fade = FadeOption.timing(fade)
        view.cacheLimitBytes = cacheMb << 20
        if let workers { view.workerCount = workers }
        view.decodeMemory = DecodeMemoryBudget(limitBytes: decodeMemoryMb << 20)
        view.pixelLimit = pixelLimitMp * 1_000_000
        do {
            try TiledViewer(path: path, options: options, view: view).run()
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail("\(error)")
        }
    }
}
