#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging
import TesseraSandbox
import TesseraTiling

/// `tessera tile`: cuts an image into Deep Zoom tiles (or the Core Animation book's flat tiles), streaming.
struct Tile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Cut an image into Deep Zoom (or flat) tiles, in memory that follows its width, not its area.",
        discussion: """
        dzi (default) writes NAME.dzi and NAME_files/LEVEL/COL_ROW.jpeg, the files `vips dzsave` writes for the \
        same tile size, overlap and format. flat writes the full resolution only, as NAME_CC_RR.jpg (column, \
        then row). iiif3 and iiif write a static IIIF Image API 3 or 2 tree (level 0), NAME/info.json and \
        NAME/X,Y,W,H/SW,SH/0/default.jpg, the files `vips dzsave --layout iiif3` (or iiif) writes, with 512-pixel \
        tiles unless --tile-size says otherwise; --id is the URI the tree will be served under. NAME is the \
        image's file name without its extension.

        Baseline JPEG, PNG and TIFF are read row by row at any size. Progressive JPEG, interlaced PNG and \
        other formats (WebP, GIF, BMP, ...) are decoded whole, up to --pixel-limit-mp.

        The image is read in a sandboxed decode helper process unless --decode-in-process is given.

        Output appears at the end, all at once: an interrupted run (Ctrl-C) leaves nothing behind.
        """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jpeg, png
    }

    enum Layout: String, ExpressibleByArgument, CaseIterable {
        case dzi, flat, iiif3, iiif
    }

    @Argument(help: "The image to cut.")
    var image: String
    @Option(help: "Folder to write into (created if needed).")
    var out = "."
    @Option(help: "Tile size in pixels (1-8192). Default: 256, or 512 for the IIIF layouts.")
    var tileSize: Int?
    @Option(help: "Pixels each tile shares with its neighbours on each side.")
    var overlap = 0
    @Option(help: "Tile format: jpeg or png.")
    var format = Format.jpeg
    @Option(help: "JPEG quality (1-100).")
    var quality = 85
    @Option(help: "dzi (Deep Zoom pyramid), flat (full-resolution tiles NAME_CC_RR.jpg), iiif3 or iiif (a static IIIF Image API 3 or 2 tree).")
    var layout = Layout.dzi
    @Option(help: "The IIIF layouts' base URI: info.json's id is it, a slash and NAME. Default: https://example.com/iiif, as vips's.")
    var id: String?
    @Option(help: "Largest image decoded whole (formats other than baseline JPEG, PNG and TIFF), in megapixels.")
    var pixelLimitMp = 100
    @Flag(help: "Replace an earlier cut of the same name.")
    var force = false
    @Flag(help: "No progress bar.")
    var quiet = false
    @Flag(help: "Read the image in this process, not in a sandboxed helper process.")
    var decodeInProcess = false

    /// The tile size asked for, or the layout's own.
    var size: Int { tileSize ?? (layout == .iiif3 || layout == .iiif ? 512 : 256) }

    func validate() throws {
        if !(1...8192).contains(size) { throw ValidationError("--tile-size must be between 1 and 8192") }
        if !(0...size).contains(overlap) { throw ValidationError("--overlap must be between 0 and the tile size") }
        if overlap != 0, layout == .iiif3 || layout == .iiif { throw ValidationError("IIIF tiles do not overlap: --overlap must be 0") }
        if !(1...100).contains(quality) { throw ValidationError("--quality must be between 1 and 100") }
        if !(1...100_000).contains(pixelLimitMp) { throw ValidationError("--pixel-limit-mp must be between 1 and 100000") }
    }

    func run() throws {
        var options = TileCutterOptions()
        options.tileSize = size
        options.overlap = overlap
        options.format = format == .png ? .png : .jpeg
        options.quality = quality
        options.layout = switch layout {
        case .dzi: .dzi
        case .flat: .flat
        case .iiif3: .iiif3
        case .iiif: .iiif2
        }
        if let id { options.iiifID = id.hasSuffix("/") ? String(id.dropLast()) : id }
        options.replaceExisting = force
        options.pixelLimitForWholeDecode = pixelLimitMp * 1_000_000
        if !decodeInProcess, let executable = DecodeHelperExecutable.path {
            var configuration = DecodeHelperPool.Configuration(
                executable: executable, helperCount: 1,
                memoryLimit: DecodeHelperPool.Configuration.memoryLimit(pixelLimit: options.pixelLimitForWholeDecode,
                                                                        byteLimit: 512 << 20))
            // The cut waits for its helper's warm-up: it warms up the image's format and the common ones.
            configuration.firstHelperWarmsUp = ImageFile.head(ofFileAt: image, count: ImageFormat.sniffLength)
                .map { WarmUpImages.firstHelperFormats(opening: ImageFormat.sniff($0)) }
            options.decoding = SandboxedDecoding(pool: DecodeHelperPool(configuration: configuration))
        }

        let interruption = Interruption()
        let signalSources = interruption.install()
        defer { withExtendedLifetime(signalSources) {} }
        let bar = quiet || isatty(STDERR_FILENO) == 0 ? nil : ProgressBar()

        var progress: (@Sendable (TileProgress) -> Void)?
        if let bar { progress = { bar.show($0) } }
        let cutter = TileCutter(options: options)
        let result: TileCutResult
        do {
            result = try cutter.cut(imageAt: image, into: out, progress: progress,
                                    isCancelled: { interruption.signal != nil })
        } catch let error as TileCutError {
            bar?.clear()
            if error.reason == .cancelled, let signal = interruption.signal {
                throw fail("interrupted; nothing was written", code: 128 + signal)
            }
            if error.reason == .outputExists {
                throw fail("\(error.path) already exists (use --force to replace it)")
            }
            throw fail("\(error)")
        }
        bar?.finish()
        if !quiet {
            let g = result.geometry
            print("\(result.descriptorPath ?? result.tilesFolder): \(result.tilesWritten) tiles, "
                  + "\(levels(of: g, in: options.layout)) level(s), \(g.width)x\(g.height)")
        }
    }
}

/// How many levels a cut of `geometry` in `layout` writes.
private func levels(of geometry: DeepZoomGeometry, in layout: TileLayoutKind) -> Int {
    switch layout {
    case .dzi: geometry.levelCount
    case .flat: 1
    case .iiif3, .iiif2: geometry.maxLevel - IIIFTree.coarsestLevel(of: geometry) + 1
    }
}

/// SIGINT and SIGTERM during a cut: the first asks the cutter to stop (it removes its temporary folder
/// and the command exits 130 or 143); a second one, or a cutter that has not stopped within 5 s, exits
/// at once (leaving at worst a hidden temporary folder that the next run removes).
private final class Interruption: Sendable {
    private let received = Mutex<Int32?>(nil)

    var signal: Int32? { received.withLock { $0 } }

    /// Returns the dispatch sources, which must be kept alive for as long as signals are to be handled.
    func install() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { signo in
            // Ignored by the default disposition so that only the dispatch source sees it.
            Glibc.signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler { [self] in arrived(signo) }
            source.resume()
            return source
        }
    }

    private func arrived(_ signo: Int32) {
        let first = received.withLock { current -> Bool in
            guard current == nil else { return false }
            current = signo
            return true
        }
        guard first else { _exit(128 + signo) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 5) { _exit(128 + signo) }
    }
}

/// The progress line on stderr, drawn at most ten times a second.
private final class ProgressBar: Sendable {
    private let line = Mutex(TileProgressLine())
    private let start = DispatchTime.now().uptimeNanoseconds

    private var now: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    func show(_ progress: TileProgress) {
        let now = self.now
        if let text = line.withLock({ $0.line(for: progress, now: now) }) {
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    func finish() { FileHandle.standardError.write(Data("\n".utf8)) }

    func clear() { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
}
