import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// What `TileCutter` writes.
package struct TileCutterOptions: Sendable {
    /// Tile side in pixels, overlap excluded (1...8192).
    package var tileSize = 256
    /// Pixels each tile shares with its neighbours on each side (0...tileSize).
    package var overlap = 0
    package var format: TileFormat = .jpeg
    /// JPEG quality, 1...100 (ignored for PNG).
    package var quality = 85
    package var layout: TileLayoutKind = .dzi
    /// The IIIF layouts' base URI: `info.json`'s id is it, a slash and the cut's name (as `vips dzsave
    /// --id` makes it).
    package var iiifID = "https://example.com/iiif"
    /// Replace an earlier cut of the same name at the destination instead of failing.
    package var replaceExisting = false
    /// The largest image (width x height) decoded whole: formats other than JPEG, PNG and TIFF, progressive
    /// JPEGs and interlaced PNGs. Baseline JPEG, non-interlaced PNG and TIFF stream at any size.
    package var pixelLimitForWholeDecode = 100_000_000
    /// Tiles carry no colour profile, so every reader takes them as sRGB: an image that declares another
    /// colour space is converted to sRGB as it is cut, with this manager's transforms. Nil cuts the
    /// pixels as decoded (colour management off).
    package var colourManager: ColourManager? = .shared
    /// Encoding threads; nil means one per core. Internal: for measurements and tests.
    var workerCount: Int?
    /// The encoding threads' priority, and the rows helper's: background where a view beside the cut must
    /// stay responsive.
    package var workerPriority = WorkerPriority.normal
    /// Where the image is read, for the cut's whole length, rows streamed and images decoded whole alike
    /// (see `DecodingService.rows`).
    package var decoding: any DecodingService = .inProcess

    package init() {}

    func validate() throws(TileCutError) {
        func invalid(_ why: String) -> TileCutError { TileCutError(path: "", reason: .invalidOptions(why)) }
        guard (1...8192).contains(tileSize) else { throw invalid("tile size must be between 1 and 8192") }
        guard (0...tileSize).contains(overlap) else { throw invalid("overlap must be between 0 and the tile size") }
        guard overlap == 0 || !layout.isIIIF else { throw invalid("IIIF tiles do not overlap") }
        guard (1...100).contains(quality) else { throw invalid("quality must be between 1 and 100") }
        guard pixelLimitForWholeDecode >= 0 else { throw invalid("the pixel limit cannot be negative") }
    }
}

package enum TileFormat: String, Sendable {
    case jpeg, png
}

package enum TileLayoutKind: String, Sendable {
    /// Deep Zoom: `NAME.dzi` and `NAME_files/LEVEL/COL_ROW.jpeg`, all levels, as `vips dzsave` writes.
    case dzi
    /// The Core Animation book's TileCutter: `NAME_CC_RR.jpg`, full resolution only.
    case flat
    /// A static IIIF Image API 3 tree (level 0): `NAME/info.json` and
    /// `NAME/X,Y,W,H/SW,SH/0/default.jpg`, as `vips dzsave --layout iiif3` writes.
    case iiif3
    /// The same for the Image API 2: sizes written `SW,`, as `vips dzsave --layout iiif` writes.
    case iiif2

    /// An IIIF tree: one folder holding its `info.json` and its tiles.
    var isIIIF: Bool { self == .iiif3 || self == .iiif2 }
}

/// What a finished cut wrote.
package struct TileCutResult: Sendable {
    /// The `.dzi` descriptor, or an IIIF tree's `info.json`; nil for flat tiles.
    package var descriptorPath: String?
    /// `NAME_files` for Deep Zoom, the tree's folder for IIIF; the output folder itself for flat tiles.
    package var tilesFolder: String
    package var geometry: DeepZoomGeometry
    package var tilesWritten: Int

    package init(descriptorPath: String?, tilesFolder: String, geometry: DeepZoomGeometry, tilesWritten: Int) {
        self.descriptorPath = descriptorPath
        self.tilesFolder = tilesFolder
        self.geometry = geometry
        self.tilesWritten = tilesWritten
    }
}

/// Figures of one cut that tests check (memory is bounded by the image's width, not its area).
struct TileCutStatistics: Sendable {
    /// Bytes of pixel buffers the pyramid builder allocated, over all levels.
    var bandBufferBytes = 0
    var workerCount = 0
}

/// Cuts an image into a tile pyramid (Deep Zoom, as `vips dzsave` does) or flat full-resolution tiles
/// (the Core Animation book's TileCutter), streaming: baseline JPEG, PNG and TIFF are read row by row, lower
/// levels are reduced from each band as it passes, and tiles are encoded on worker threads while the next
/// rows decode, so memory stays at a few rows of tiles times the image's width.
///
/// The output appears atomically (see `AtomicOutput`): a failed or cancelled cut leaves nothing at the
/// destination, and an existing cut is replaced only with `replaceExisting`.
///
/// Departures from `vips dzsave`: no `vips-properties.xml` metadata file (no Deep Zoom reader uses it);
/// EXIF orientation is ignored (as vips does unless asked to autorotate); an image with a colour profile
/// is cut in sRGB (vips keeps its pixels and drops the profile, so readers show them wrong).
package struct TileCutter: Sendable {
    package let options: TileCutterOptions
    /// Decoders for formats other than JPEG, PNG and TIFF, used whole below `pixelLimitForWholeDecode`.
    package let fallbackDecoders: [any ImageDecoding]

    package init(options: TileCutterOptions, fallbackDecoders: [any ImageDecoding] = ImageDecoders.standard()) {
        self.options = options
        self.fallbackDecoders = fallbackDecoders
    }

    /// Cuts the image at `path` into `outputFolder` (created if needed).
    ///
    /// - Parameters:
    ///   - name: the output's base name; default the input's file name without its extension.
    ///   - progress: called on the calling thread, about ten times a second and once at the end.
    ///   - isCancelled: polled on the calling thread every few rows, and a few times a second while a
    ///     decode helper works on rows; once it says yes the cut stops, removes what it wrote and throws
    ///     `TileCutError` with reason `.cancelled`.
    ///   - watcher: hears where a Deep Zoom cut writes and each tile as it is written (flat tiles: nothing).
    /// - Throws: `TileCutError`, whose description is one clear line.
    package func cut(imageAt path: String, into outputFolder: String, name: String? = nil,
                    progress: (@Sendable (TileProgress) -> Void)? = nil,
                    isCancelled: (@Sendable () -> Bool)? = nil,
                    watcher: (any TileCutWatcher)? = nil) throws -> TileCutResult {
        var statistics = TileCutStatistics()
        return try cut(imageAt: path, into: outputFolder, name: name, progress: progress,
                       isCancelled: isCancelled, watcher: watcher, statistics: &statistics)
    }

    func cut(imageAt path: String, into outputFolder: String, name: String?,
             progress: (@Sendable (TileProgress) -> Void)?, isCancelled: (@Sendable () -> Bool)?,
             watcher: (any TileCutWatcher)? = nil,
             statistics: inout TileCutStatistics) throws(TileCutError) -> TileCutResult {
        try options.validate()
        let folder = Self.normalisedFolder(outputFolder)
        let name = name ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw TileCutError(path: path, reason: .invalidOptions("'\(name)' cannot be used as an output name"))
        }
        if isCancelled?() == true { throw TileCutError(path: path, reason: .cancelled) }

        let source: any ScanlineSource
        do {
            source = try ScanlineSources.open(path, fallbackDecoders: fallbackDecoders,
                                              pixelLimitForWholeDecode: options.pixelLimitForWholeDecode,
                                              decoding: options.decoding, priority: options.workerPriority,
                                              isCancelled: isCancelled)
        } catch {
            throw TileCutError(path: path, reason: error)
        }
        guard source.width > 0, source.height > 0 else {
            throw TileCutError(path: path, reason: .corrupt("the image has no pixels"))
        }
        let geometry = DeepZoomGeometry(width: source.width, height: source.height,
                                        tileSize: options.tileSize, overlap: options.overlap)
        let layout = TileLayout(kind: options.layout, name: name, format: options.format, geometry: geometry,
                                iiifID: options.iiifID)
        let output = try AtomicOutput(layout: layout, outputFolder: folder, replaceExisting: options.replaceExisting)

        let workers = max(1, options.workerCount ?? ProcessInfo.processInfo.activeProcessorCount)
        let encoder = TileEncoder(format: options.format, quality: options.quality,
                                  maxTileSide: options.tileSize + 2 * options.overlap,
                                  isGrayscale: source.isGrayscale, hasAlpha: source.hasAlpha)
        let watcher = layout.kind == .dzi ? watcher : nil
        watcher?.cutBegan(temporaryTilesFolder: output.temporaryFolder + "/" + layout.tilesFolderName,
                          tilesFolder: output.destinationTilesFolder, tileExtension: layout.tileExtension)
        let bands = BandEncoder(geometry: geometry, layout: layout, root: output.temporaryFolder,
                                encoder: encoder, workerCount: workers, priority: options.workerPriority,
                                watcher: watcher)
        let builder = PyramidBuilder(geometry: geometry, lowestLevel: layout.levels.lowerBound, consumer: bands)
        let total = layout.tileCount
        var reporter = ProgressReporter(total: total, callback: progress)
        let toSRGB = options.colourManager.map { ColourConversion(destination: .sRGB, manager: $0) }
        let colourTransform = toSRGB?.transform(from: source.colourSpace, name: path)

        do throws(TileCutError) {
            reporter.report(0)
            while !builder.isComplete {
                if isCancelled?() == true { throw TileCutError(path: path, reason: .cancelled) }
                let rows = builder.nextRows(limit: 16)
                do {
                    try source.readRows(into: rows.pointer, stride: rows.stride, count: rows.count)
                } catch {
                    throw TileCutError(path: path, reason: error)
                }
                colourTransform?.apply(rows: rows.pointer, width: source.width, stride: rows.stride, count: rows.count)
                try Self.rethrow(path) { try builder.commitRows(rows.count) }
                reporter.reportIfDue(bands.tilesWritten)
            }
            do { try source.finish() } catch { throw TileCutError(path: path, reason: error) }
            bands.drain()
            try Self.rethrow(path) { try bands.throwIfFailed() }
            if isCancelled?() == true { throw TileCutError(path: path, reason: .cancelled) }
            if layout.kind == .dzi || layout.kind.isIIIF {
                let descriptor = output.temporaryFolder + "/" + layout.descriptorName
                do throws(TileCutError.Reason) {
                    try TileEncoder.writeFile(Array(layout.descriptor.utf8), to: descriptor)
                } catch {
                    throw TileCutError(path: descriptor, reason: error)
                }
            }
        } catch {
            // Workers may still read band buffers: stop them and wait before anything is freed.
            bands.stop()
            bands.drain()
            bands.shutdown()
            output.discard()
            throw error
        }
        bands.shutdown()
        statistics.bandBufferBytes = builder.allocatedBytes
        statistics.workerCount = workers
        try output.commit(replaceExisting: options.replaceExisting)
        let written = bands.tilesWritten
        reporter.report(written)
        return TileCutResult(descriptorPath: layout.kind == .flat ? nil : output.destinationDescriptor,
                             tilesFolder: layout.kind == .flat ? folder : output.destinationTilesFolder,
                             geometry: geometry, tilesWritten: written)
    }

    /// Runs `body`, turning whatever it throws into a `TileCutError` (reasons get `path`).
    private static func rethrow(_ path: String, _ body: () throws -> Void) throws(TileCutError) {
        do {
            try body()
        } catch let error as TileCutError {
            throw error
        } catch let reason as TileCutError.Reason {
            throw TileCutError(path: path, reason: reason)
        } catch {
            throw TileCutError(path: path, reason: .outputFailed(String(describing: error)))
        }
    }

    /// "" is the current folder; trailing slashes go (but "/" stays).
    static func normalisedFolder(_ folder: String) -> String {
        var folder = folder.isEmpty ? "." : folder
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }
}

/// Calls the progress callback on the cutting thread at most every 0.1 s, and always for the last update.
private struct ProgressReporter {
    let total: Int
    let callback: (@Sendable (TileProgress) -> Void)?
    private var lastReport: UInt64 = 0
    private var lastValue = -1

    init(total: Int, callback: (@Sendable (TileProgress) -> Void)?) {
        self.total = total
        self.callback = callback
    }

    mutating func reportIfDue(_ written: Int) {
        guard callback != nil, written != lastValue else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        if now - lastReport >= 100_000_000 { report(written, at: now) }
    }

    mutating func report(_ written: Int, at now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        guard let callback else { return }
        lastReport = now
        lastValue = written
        callback(TileProgress(tilesWritten: written, totalTiles: total))
    }
}
