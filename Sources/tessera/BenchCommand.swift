import ArgumentParser
import Foundation
import TesseraBench
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraSandbox
import TesseraUI

/// `tessera bench ...`: measurements of the pipeline outside the window, run by `TesseraBench`. A group,
/// so that further benchmarks join as subcommands.
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure parts of the image pipeline.",
        subcommands: [Thumbs.self, BenchScroll.self])
}

extension ThumbnailCacheMode: ExpressibleByArgument {}

extension Bench {
    /// Thumbnail throughput with every core busy (`ThumbsBench`).
    struct Thumbs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Thumbnails per second over image files, using all cores.",
            discussion: """
            Each file is loaded the way a cell of SIZE x SIZE pixels loads it: read, decode (shrinking on \
            load where the format allows), area-average to fit, turn upright. --cache says what the freedesktop \
            thumbnail cache does meanwhile; its caches are new folders in the temporary folder, never ~/.cache.

            none: no cache (the default), pure decoding throughput.
            save: a new, empty cache each run; each thumbnail is also PNG-encoded and written (a first visit).
            warm: a cache filled by an untimed pass first; every file is a hit (a second visit).
            """)

        @Argument(help: "Image files and folders (folders: their images, not subfolders).")
        var paths: [String]
        @Option(help: "Longest side of the thumbnails, in pixels.")
        var size = 256
        @Option(help: "Worker threads (default: the number of cores).")
        var workers: Int?
        @Option(help: "Passes over the files; the pass with the median wall time is reported.")
        var runs = 1
        @Option(help: "The thumbnail cache: none, save or warm (see above).")
        var cache = ThumbnailCacheMode.none
        @Flag(help: "Also compare each thumbnail with a full decode scaled by the same scaler (PSNR, dB).")
        var quality = false
        @Flag(help: "Print the result as JSON.")
        var json = false
        @Flag(help: "Decode in this process, not in sandboxed helper processes (one per worker) as the viewer does.")
        var decodeInProcess = false

        func validate() throws {
            if !(1...4096).contains(size) { throw ValidationError("--size must be between 1 and 4096") }
            if cache != .none && size > ThumbnailSize.xxLarge.pixels {
                throw ValidationError("--cache \(cache.rawValue) needs --size 1024 or less (the largest cached size)")
            }
            if let workers, !(1...256).contains(workers) { throw ValidationError("--workers must be between 1 and 256") }
            if !(1...100).contains(runs) { throw ValidationError("--runs must be between 1 and 100") }
        }

        func run() throws {
            let workerCount = workers ?? ProcessInfo.processInfo.activeProcessorCount
            var options = ViewerOptions(items: [])
            options.decodeHelperExecutable = decodeInProcess ? nil : DecodeHelperExecutable.path
            // Forked before any other thread starts, as the viewer's are, so the run counts what the viewer's
            // start costs rather than each helper's program being loaded and linked.
            let helpers = options.decodeHelperPool(helperCount: workerCount, pixelLimit: options.pixelLimit,
                                                   forkingWith: { DecodeHelperCommand.serve(memoryLimit: $0, turn: $1, warmingUp: $2) })
            let files: [String]
            do {
                files = try ImagePathCollector().collect(paths).items.map(\.path)
            } catch {
                helpers?.shutdown()
                throw fail("\(error)")
            }
            let bench = ThumbsBench(files: files, size: size, workers: workerCount,
                                    runs: runs, cache: cache, measuresQuality: quality)
            defer { helpers?.shutdown() }
            helpers?.waitUntilReady()
            let report: ThumbsReport
            do {
                // The viewer's decoders, in the viewer's order, where the viewer runs them.
                report = try bench.run(loader: ImageLoader(decoders: ImageDecoders.viewer, decoding: SandboxedDecoding.service(in: helpers)))
            } catch {
                throw fail("\(error)")
            }
            print(json ? try report.json() : report.text)
            if report.everyFileFailed { throw fail("no file could be thumbnailed") }
        }
    }
}
