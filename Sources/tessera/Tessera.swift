import ArgumentParser
import Foundation
import Logging
import TesseraCore
import TesseraDesktop
import TesseraExperiment
import TesseraFiles
import TesseraImaging
import TesseraRemote
import TesseraSandbox
import TesseraUI

@main
struct Tessera: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "An image viewer for Linux: a scrolling strip of images that loads in the background.",
        version: "0.1.0",
        subcommands: [Browse.self, View.self, Bench.self, Tile.self, Generate.self, DecodeHelperCommand.self],
        defaultSubcommand: Browse.self)

    /// Runs the command line with the configuration file's settings in front of it; a file with a problem
    /// stops the program before anything starts.
    static func main() {
        StartupTimeline.process.mark(.main)
        DecodeBufferRelease.apply()
        let commands = Set(configuration.subcommands.map { $0._commandName } + ["help"])
        let defaults = CommandLineDefaults(schema: TesseraSettings.schema, defaultCommand: .browse,
                                           otherCommands: commands.subtracting(SettingCommand.allCases.map(\.rawValue)),
                                           environment: ProcessInfo.processInfo.environment)
        do {
            main(try defaults.arguments(argumentsAsPathText()))
        } catch {
            for line in error.lines { FileHandle.standardError.write(Data("tessera: \(line)\n".utf8)) }
            Foundation.exit(1)
        }
    }
}

/// The command line's arguments after the program's name, each as `PathText` makes it from its bytes:
/// `CommandLine.arguments` replaces bytes that are not UTF-8 with U+FFFD, which would make two file
/// names one.
private func argumentsAsPathText() -> [String] {
    (1..<Int(CommandLine.argc)).compactMap { index in
        CommandLine.unsafeArgv[index].map { PathText.text(ofCString: $0) }
    }
}

/// Prints one clear line on stderr and exits non-zero: how every user-facing failure ends.
func fail(_ message: String, code: Int32 = 1) -> ExitCode {
    FileHandle.standardError.write(Data(PathText.bytes(of: "tessera: \(message)\n")))
    return ExitCode(code)
}

/// WIDTHxHEIGHT on the command line, shown in `--help` the same way.
struct Size: ExpressibleByArgument, CustomStringConvertible {
    let width: Int
    let height: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0, w <= 16384, h <= 16384 else {
            return nil
        }
        width = w
        height = h
    }

    var description: String { "\(width)x\(height)" }
}

/// Options every viewing command shares: window, headless runs and measurement.
struct RunOptions: ParsableArguments {
    @Option(help: "Window size in points.")
    var window = Size(argument: "1280x720")!
    @Flag(inversion: .prefixedNo, help: "Start fullscreen.")
    var fullscreen = false
    @Flag(help: "Render with SDL's dummy video driver (no display needed).")
    var headless = false
    @Option(help: "Stop after N frames.")
    var frames: Int?
    @Option(help: "Replay an input script: 'fling' (built in) or a script file.")
    var script: String?
    @Option(help: "Write the last frame as PNG.")
    var screenshot: String?
    @Option(help: "Write run figures as JSON at exit.")
    var report: String?
    @Option(help: "Device pixels per point (HiDPI); default: ask the window.")
    var pixelScale: Double?
    @Flag(inversion: .prefixedNo,
          help: "Convert pixels from the image's colour profile to the display's (X11's _ICC_PROFILE, else sRGB); --no-colour-management shows them as decoded.")
    var colourManagement = true
    @Flag(help: ArgumentHelp("Put every frame's time in the report (for plots).", visibility: .hidden))
    var frameTimes = false
    @Flag(help: "Log more (also TESSERA_LOG=debug).")
    var verbose = false
    @Option(help: ArgumentHelp("Read the settings from FILE instead of $XDG_CONFIG_HOME/tessera/config.toml.",
                               valueName: "FILE"))
    var config: String?
    @Flag(help: "Read no configuration file.")
    var noConfig = false
    @Flag(help: "Decode images in the viewer's own process, not in sandboxed helper processes (for debugging and comparison).")
    var decodeInProcess = false
    @Option(help: "Seconds a decode may take before its helper is stopped and the image shown as an error.")
    var decodeTimeLimit = Seconds(20)
    @Option(help: "Disk space Tessera's own caches (cut pyramids, downloads) take at most together, in MB; the least recently used go first. Default: a tenth of the free space, 64 to 2048 MB.")
    var diskCacheMb: Int?

    func validate() throws {
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if let pixelScale, !(0.5...4).contains(pixelScale) { throw ValidationError("--pixel-scale must be between 0.5 and 4") }
        if !(0.1...3600).contains(decodeTimeLimit.value) {
            throw ValidationError("--decode-time-limit must be between 0.1 and 3600 seconds")
        }
        if let diskCacheMb, !(1...1_048_576).contains(diskCacheMb) {
            throw ValidationError("--disk-cache-mb must be between 1 and 1048576")
        }
    }

    func loadScript() throws -> InputScript? {
        guard let script else { return nil }
        if let builtIn = InputScript.builtIn(script) { return builtIn }
        guard let text = try? String(contentsOfFile: script, encoding: .utf8) else {
            throw fail("\(script): not a built-in script (fling) and not a readable script file")
        }
        do { return try InputScript.parse(text) } catch { throw fail("\(script): \(error)") }
    }

    func bootstrapLogging() {
        let wanted = ProcessInfo.processInfo.environment["TESSERA_LOG"].flatMap(Logger.Level.init(rawValue:))
        let level = verbose ? .debug : (wanted ?? .warning)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }

    /// The decode helpers, `helperCount` of them, forked from this process: called before any other
    /// thread starts (the listing's is the first), as forking requires; nil with `--decode-in-process`.
    /// `opening`: the one image file the run opens, if it opens one, whose format the first helper warms
    /// up first.
    func startDecodeHelpers(helperCount: Int, pixelLimit: Int, opening image: String? = nil) -> DecodeHelperPool? {
        var options = ViewerOptions(items: [])
        options.decodeHelperExecutable = decodeInProcess ? nil : DecodeHelperExecutable.path
        options.decodeTimeLimit = decodeTimeLimit.duration
        let format = image.flatMap { ImageFile.head(ofFileAt: $0, count: ImageFormat.sniffLength) }.map { ImageFormat.sniff($0) }
        return options.decodeHelperPool(helperCount: max(1, helperCount), pixelLimit: pixelLimit, opening: format,
                                        forkingWith: { DecodeHelperCommand.serve(memoryLimit: $0, turn: $1, warmingUp: $2) })
    }

    func apply(to options: inout ViewerOptions) throws {
        options.windowWidth = window.width
        options.windowHeight = window.height
        options.fullscreen = fullscreen
        options.headless = headless
        options.frameLimit = frames
        options.script = try loadScript()
        options.screenshotPath = screenshot
        options.report = report.map { ReportOptions(path: $0, frameTimes: frameTimes) }
        options.pixelScale = pixelScale
        options.diskCache = DiskCacheJanitor.forUser(limitBytes: diskCacheMb.map { Int64($0) << 20 })
        options.colourManagement = colourManagement
        options.keyBindings = try keyBindings()
        options.decodeHelperExecutable = decodeInProcess ? nil : DecodeHelperExecutable.path
        options.decodeTimeLimit = decodeTimeLimit.duration
    }

    /// The default keys with the configuration file's `[keys]` applied (its settings are already in the
    /// arguments, put there before parsing).
    func keyBindings() throws -> KeyBindings {
        do throws(ConfigurationError) {
            let file = try ConfigurationFile.load(explicit: config, disabled: noConfig,
                                                  environment: ProcessInfo.processInfo.environment,
                                                  schema: TesseraSettings.schema)
            return file?.applyingKeyBindings(to: .defaults) ?? .defaults
        } catch {
            throw fail(error.lines.joined(separator: "\ntessera: "))
        }
    }
}

extension StripOrder: ExpressibleByArgument {}

struct Browse: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Browse images in a horizontally scrolling strip (the default command).",
        discussion: """
        With no paths, shows the bundled samples. One image file alone (what a file
        manager passes) opens in the single view; Esc shows the strip. Folders are listed in natural order
        (img2 before img10) and watched: a changed image reloads, a deleted one leaves
        the strip, a new one appears in order. --sort mtime, size and taken read the
        files in the background: the strip shows name order until they are in (taken
        refines as the EXIF dates come). Paths may be http(s) URLs: they
        download in the background (never while the strip is moving) into
        $XDG_CACHE_HOME/tessera/remote and are revalidated (ETag, Last-Modified) on
        the next run. An IIIF Presentation manifest or collection named alone (a
        .json file or URL, or a URL under a manifests/ folder) opens as a strip of
        its canvases, named by their labels; Enter shows a canvas zoomable through
        its image service.

        Marked images (m) are what Delete, the turns and the key-handler act on
        (else the selected one). With -o, the paths of those marked at exit go to
        standard output, one a line (-0: each ended by NUL), so
        `tessera -o photos | xargs ...` acts on a visual selection, as nsxiv -o does.
        Ctrl-x then a key runs $XDG_CONFIG_HOME/tessera/key-handler (as nsxiv's)
        with the key as its argument and the images on standard input. A JPEG's turn
        is written to its EXIF orientation tag, losslessly; other formats turn for
        this session only. Delete moves files to the freedesktop trash; Ctrl-z
        brings them back.

        \(KeyBindings.defaults.helpText)

        Mouse: drag to scroll (release while moving to fling), wheel or touchpad to
        scroll, click to select, double-click to show the image alone. Scrolling the
        selection off screen brings it to the nearest image on screen when the strip
        rests. Y copies a file:// URI: SDL's clipboard holds text only, and file
        managers and image editors paste such a URI as the file.
        """)

    @Argument(help: "Image files, folders and http(s) URLs, or one IIIF manifest or collection.")
    var paths: [String] = []
    @Option(name: [.customShort("i"), .customLong("input-list")],
            help: ArgumentHelp("Also read paths and URLs from FILE, one per line ('-' for standard input).", valueName: "FILE"))
    var inputList: String?
    @Flag(inversion: .prefixedNo, help: "Watch the folders for changes.")
    var watch = true
    @Flag(name: [.customShort("o"), .customLong("output-marked")],
          help: "When quitting, write the marked images' paths to standard output, one a line.")
    var outputMarked = false
    @Flag(name: [.customShort("0"), .customLong("null")],
          help: "Separate the paths of -o, of -i and of the key-handler's input by NUL instead of newlines.")
    var nulSeparated = false
    @Option(help: ArgumentHelp("Start with the slideshow in the single view, showing each image SECONDS.",
                               valueName: "SECONDS"))
    var slideshow: Seconds?
    @Option(help: "Downloads from one host at a time.")
    var downloadsPerHost = 4
    @Option(help: "Give up on a download after this many seconds without data.")
    var downloadTimeout = Seconds(15)
    @Option(help: "Largest download, in MB.")
    var downloadLimitMb = 64
    @Flag(name: .shortAndLong, inversion: .prefixedNo, help: "Include images in subfolders.")
    var recursive = false
    @Option(help: ArgumentHelp("The strip's order: name, mtime, taken (EXIF date, else mtime), size, random or rating (most stars first); o changes it.",
                               valueName: "ORDER"))
    var sort = StripOrder.name
    @Option(help: ArgumentHelp("Show only images with at least this many stars (1 to 5, from XMP sidecars); 0 hides the rejected. F changes it.",
                               valueName: "N"))
    var minRating: Int?
    @Flag(inversion: .prefixedNo, help: "Reverse the order: last name, newest or largest first.")
    var reverse = false
    @Option(help: "Rows of cells (a grid that scrolls horizontally). Default: as few as keep the cells, which fill the window's height, at most 400 points tall.")
    var rows: Int?
    @Option(help: "Cell size in points. Default: 4:3 cells that fill the window's height in the rows there are.")
    var cell: Size?
    @Option(help: "Decoded-image cache limit in MB.")
    var cacheMb = 256
    @Option(help: "Most decoded images kept in the cache; 0: no count limit, only --cache-mb.")
    var cacheCount = 0
    @Option(help: "Fade-in time of an arriving image, in seconds; 0 turns fading off.")
    var fade = Seconds(0.25)
    @Option(help: "Images to preload ahead of the scroll direction.")
    var preloadAhead = 2
    @Option(help: "Images to preload behind the scroll direction.")
    var preloadBehind = 1
    @Option(help: "Decoding threads (default: the number of cores, at least 2).")
    var workers: Int?
    @Option(help: "Estimated working memory of the decodes running at once, in MB; a larger decode waits for room (one always runs).")
    var decodeMemoryMb = 256
    @Option(help: ArgumentHelp("How images are loaded: \(LoadingStrategies.names.joined(separator: ", ")).",
                               discussion: "See docs/EXPERIMENT.md; adaptive is ours and the default."))
    var strategy = "adaptive"
    @Option(help: "Largest image to decode, in megapixels.")
    var pixelLimitMp = 100
    @Flag(inversion: .prefixedNo, help: "Read and write the freedesktop thumbnail cache (~/.cache/thumbnails).")
    var thumbnailCache = true
    @Option(help: ArgumentHelp("How long the slideshow (s) shows each image, in seconds; --slideshow also starts it.",
                               valueName: "SECONDS"))
    var slideshowDelay = Seconds(5)
    @OptionGroup var display: RunOptions

    func validate() throws {
        if let rows, !(1...32).contains(rows) { throw ValidationError("--rows must be between 1 and 32") }
        if let minRating, RatingFilter(minimumRating: minRating) == nil {
            throw ValidationError("--min-rating must be between 0 and 5")
        }
        if !(1...1_048_576).contains(cacheMb) { throw ValidationError("--cache-mb must be between 1 and 1048576") }
        if !(1...100_000).contains(pixelLimitMp) { throw ValidationError("--pixel-limit-mp must be between 1 and 100000") }
        if !FadeOption.isValid(fade) { throw ValidationError(FadeOption.outOfRange) }
        if preloadAhead < 0 || preloadBehind < 0 { throw ValidationError("preload counts cannot be negative") }
        if let workers, !(1...64).contains(workers) { throw ValidationError("--workers must be between 1 and 64") }
        if !(1...1_048_576).contains(decodeMemoryMb) { throw ValidationError("--decode-memory-mb must be between 1 and 1048576") }
        if !(1...32).contains(downloadsPerHost) { throw ValidationError("--downloads-per-host must be between 1 and 32") }
        if !(0.1...600).contains(downloadTimeout.value) { throw ValidationError("--download-timeout must be between 0.1 and 600 seconds") }
        if !(1...4096).contains(downloadLimitMb) { throw ValidationError("--download-limit-mb must be between 1 and 4096") }
        if let slideshow, !(0.1...86_400).contains(slideshow.value) {
            throw ValidationError("--slideshow must be between 0.1 and 86400 seconds")
        }
        if !LoadingStrategies.names.contains(strategy) {
            throw ValidationError("--strategy must be one of \(LoadingStrategies.names.joined(separator: ", "))")
        }
        if !(0.1...86_400).contains(slideshowDelay.value) {
            throw ValidationError("--slideshow-delay must be between 0.1 and 86400 seconds")
        }
    }

    /// Starts reading the manifest or collection at `location` for the strip of its canvases, thumbnails
    /// asked at the cell's size. What it leaves out is said on standard error as it is read; what proves no
    /// Presentation document, and is not named as one, is shown as an image.
    private func presentationReading(_ location: String) -> PresentationReading {
        let cellPoints = cell ?? Size(argument: "534x400")!
        let scale = display.pixelScale ?? 1
        let box = PixelSize(width: Int((Double(cellPoints.width) * scale).rounded(.up)),
                            height: Int((Double(cellPoints.height) * scale).rounded(.up)))
        return PresentationReading(name: "tessera.manifest") { () throws(PresentationStrip.Failure) -> PresentationStrip? in
            do throws(PresentationStrip.Failure) {
                let strip = try PresentationStrip.load(location, fetcher: HTTPFetcher.shared, box: box)
                for note in strip.notes { FileHandle.standardError.write(Data(PathText.bytes(of: "tessera: \(location): \(note)\n"))) }
                return strip
            } catch {
                if error.isOtherContent && !PresentationStrip.isNamedAsDocument(location) { return nil }
                throw error
            }
        }
    }

    func run() throws {
        display.bootstrapLogging()
        var paths = paths
        let list = inputList.map { $0 == "-" ? ItemListing.ListSource.standardInput : .file($0) }
        if paths.isEmpty && list == nil {
            guard let samples = ResourceLocator.samplesFolder?.path else {
                throw fail("no paths given and the bundled samples were not found (set TESSERA_RESOURCES)")
            }
            paths = [samples]
        }
        // An IIIF manifest or collection named alone opens as the strip of its canvases.
        let namesDocument = paths.count == 1 && list == nil && PresentationStrip.mayBeDocument(paths[0])
        // A mistyped path is said at once, before a window opens; the rest is found while it does.
        var namesOneFile = false
        for path in paths where !CarouselItem.isRemote(path) && !namesDocument {
            var status = stat()
            guard POSIXFiles.stat(path, &status) == 0 else { throw fail("\(PathText.displayName(path)): no such file or folder") }
            namesOneFile = paths.count == 1 && list == nil && status.st_mode & S_IFMT == S_IFREG
        }
        let helpers = display.startDecodeHelpers(
            helperCount: workers ?? WorkScheduler<ImageKey, PixelBuffer>.defaultWorkerCount,
            pixelLimit: pixelLimitMp * 1_000_000, opening: namesOneFile && !namesDocument ? paths[0] : nil)
        let listing = { ItemListing(paths: paths, list: list, nulSeparated: nulSeparated, recursive: recursive,
                                    contentCheck: { ImageFormat.sniff($0) != .unknown }) }
        var options: ViewerOptions
        if namesDocument {
            // A URL that proves no Presentation document is listed as any URL is; a file named as a
            // document is read as one or refused.
            options = CarouselItem.isRemote(paths[0]) ? ViewerOptions(listing: listing()) : ViewerOptions(items: [])
            // After the helpers are forked: reading it starts the network's threads.
            options.presentation = presentationReading(paths[0])
        } else {
            options = ViewerOptions(listing: listing())
        }
        options.decodeHelpers = helpers
        // One photo opened (from a file manager, most often) is shown as a photo, not as a strip of one.
        if namesOneFile { options.singleViewAtStart = paths[0] }
        options.sort = sort
        options.reverse = reverse
        options.ratingFilter = minRating.flatMap(RatingFilter.init(minimumRating:)) ?? .all
        // What the command line and the configuration file leave out follows the window.
        options.carousel.rows = rows
        options.carousel.cellSize = cell.map { TesseraCore.Size(width: Double($0.width), height: Double($0.height)) }
        options.carousel.fade = FadeOption.timing(fade)
        options.carousel.preload = PreloadPolicy(ahead: preloadAhead, behind: preloadBehind)
        options.cacheLimitBytes = cacheMb << 20
        options.cacheCountLimit = max(0, cacheCount)
        if let workers { options.workerCount = workers }
        options.decodeMemoryBytes = decodeMemoryMb << 20
        options.pixelLimit = pixelLimitMp * 1_000_000
        options.makeStrategy = { [strategy] preload, decodeWorkers in
            LoadingStrategies.make(strategy, preload: preload, decodeWorkers: decodeWorkers)
                ?? AdaptiveStrategy(base: preload, decodeWorkers: decodeWorkers)
        }
        options.useThumbnailCache = thumbnailCache
        options.slideshowDelay = slideshowDelay.duration
        options.watchesListing = watch
        options.downloads.perHostLimit = downloadsPerHost
        options.downloads.timeout = downloadTimeout.duration
        options.downloads.maxBodyBytes = downloadLimitMb << 20
        options.nulSeparated = nulSeparated
        if let slideshow {
            options.slideshowDelay = slideshow.duration
            options.startsSlideshow = true
        }
        try display.apply(to: &options)
        do {
            let viewer = try Viewer(options: options)
            try viewer.run()
            // Standard output carries nothing else (logs and the key-handler's output go to standard error).
            if outputMarked {
                let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
                FileHandle.standardOutput.write(Data(viewer.markedPaths.flatMap { PathText.bytes(of: $0) + [separator] }))
            }
        } catch let error as ExitCode {
            throw error
        } catch is WindowClosedWhileWaiting {
            // Closed before anything was shown: nothing was marked, nothing is wrong.
        } catch {
            throw fail("\(error)")
        }
    }
}
