import Foundation
import TesseraCore
import TesseraFiles

/// Everything the viewer asks of the C libraries that read image files, behind one door, as glycin gives
/// Loupe one loader interface: decodes at a size, facts read without decoding, rows for the tile cutter,
/// animation frames, and the tiled view's regions. Callers hold one service and never ask where it runs:
/// `InProcessDecoding` calls the decoders here; the sandboxed implementation (in TesseraSandbox) runs them in
/// locked-down helper processes and answers with the same values and the same refusals, a helper's own
/// failure (`.helperFailed`) added.
///
/// Written once against this, a loader or tile source has no second path: what differs between the two
/// places is the implementation's business alone.
package protocol DecodingService: Sendable {
    /// Whether the C libraries read files outside this process: then this process parses a file's bytes with
    /// memory-safe Swift alone, and asks the service where a library is needed.
    var isolatesLibraries: Bool { get }

    /// `loader`'s decode of `file` (opened and within the loader's byte limit) scaled to fit `box`, with the
    /// loader's settings. The sandboxed service decodes with the helper's decoders, not `loader.decoders`.
    func load(_ file: ImageFile, with loader: ImageLoader, fitting box: PixelSize?, convertingColour: Bool,
              cancellation: DecodeCancellation?) throws(ImageLoadError.Reason) -> PixelBuffer

    /// `loader`'s decode of bytes already in memory (a download held whole); `name` stands for them.
    func load(data: Data, name: String, with loader: ImageLoader,
              fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer

    /// The answer to `kind` about `file` (see `ImageFacts`).
    func facts(_ kind: ImageFacts.Kind, of file: ImageFile) throws(ImageLoadError.Reason) -> ImageFacts

    /// The tile cutter's rows of `file`, positioned at the first row (see `ScanlineSources`). `isCancelled`
    /// ends a wait for rows read elsewhere; `priority` is the share of the CPU the reading gets there.
    func rows(of file: ImageFile, fallbackDecoders: [any ImageDecoding], pixelLimitForWholeDecode: Int,
              priority: WorkerPriority, isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> any ScanlineSource

    /// How each play of the animation at `path` starts, with `options`' limits. Called in the feed's first
    /// step; the plays' readers are then used by its steps, one at a time.
    func animationPlays(path: String, options: AnimationFeed.Options) -> AnimationPlays

    /// Whether the file at `path` is an animation (more than one frame); false when it cannot be told.
    func isAnimated(fileAt path: String, byteLimit: Int) -> Bool

    /// A tiled TIFF's levels and a reader of their regions. Takes over `file`'s descriptor.
    func tiledTIFF(_ file: ImageFile) throws(ImageLoadError.Reason) -> any TiledTIFFReading

    /// An SVG's own size and a drawer of its tiles. Takes over `file`'s descriptor.
    func svgDrawing(_ file: ImageFile) throws(ImageLoadError.Reason) -> any SVGTileDrawing

    /// A decoder of a sequential JPEG's regions. Takes over `file`'s descriptor.
    func jpegRegions(_ file: ImageFile) -> any JPEGRegionDecoding

    /// The whole-slide image at `path` (OpenSlide opens it by path), as a format of its own or, with
    /// `acceptGenericTIFF`, as a generic tiled TIFF; nil when OpenSlide does not recognise it. A slide it
    /// recognises but cannot open is refused with its words (`.decodeFailed`).
    func slide(at path: String, acceptGenericTIFF: Bool) throws(ImageLoadError.Reason) -> (any SlideReading)?

    /// Stops whatever the service runs beside this process (a sandboxed service's idle helpers).
    func shutdown()

    /// The viewer's first screen is shown: the processes the service decodes in step down to `priority`
    /// for good, and those not warmed up yet warm up now (nothing to do in process: the work runs on the
    /// caller's threads).
    func stepBack(to priority: WorkerPriority)
}

extension DecodingService {
    /// `file`'s format, stored size and orientation.
    package func header(of file: ImageFile) throws(ImageLoadError.Reason) -> HeaderFacts {
        guard case .header(let facts) = try facts(.header, of: file) else { throw .helperFailed(.unavailable("a wrong answer")) }
        return facts
    }

    /// What the information overlay shows about `file`.
    package func information(of file: ImageFile) throws(ImageLoadError.Reason) -> ImageInformation {
        guard case .information(let facts) = try facts(.information, of: file) else { throw .helperFailed(.unavailable("a wrong answer")) }
        return facts
    }

    /// The EXIF dates in `file`'s first bytes.
    package func exifDates(of file: ImageFile) throws(ImageLoadError.Reason) -> ExifDates {
        guard case .exifDates(let facts) = try facts(.exifDates, of: file) else { throw .helperFailed(.unavailable("a wrong answer")) }
        return facts
    }
}

extension DecodingService where Self == InProcessDecoding {
    /// Decoding in this process, by the decoders themselves.
    package static var inProcess: InProcessDecoding { InProcessDecoding() }
}

/// A tiled TIFF opened for the tiled view: its levels, and their regions read by libtiff on several threads
/// at once.
package protocol TiledTIFFReading: Sendable {
    var facts: TiledTIFFFacts { get }
    /// `region` of the directory at `place`, reduced to `size` (CMYK turned into sRGB; the colour stage is
    /// the caller's).
    func read(_ region: PixelRegion, of place: TIFFReader.Directory.Place,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer
}

/// An SVG opened for the tiled view: its own size, and its tiles drawn by librsvg on several threads at once.
package protocol SVGTileDrawing: Sendable {
    var size: PixelSize { get }
    /// `region` of the document drawn `drawing` pixels wide and high, as `SVGDocument.render` draws it.
    func draw(_ region: PixelRegion, ofDrawing drawing: (width: Double, height: Double)) throws(ImageLoadError.Reason) -> PixelBuffer
}

/// A sequential JPEG opened for the tiled view, its regions decoded by libjpeg on several threads at once.
package protocol JPEGRegionDecoding: Sendable {
    /// `region` of the JPEG decoded at 1/`denominator` of its size, stored orientation (CMYK turned into
    /// sRGB; the colour stage is the caller's, the profile comes with the pixels).
    func read(_ region: PixelRegion, denominator: Int) throws(ImageLoadError.Reason) -> PixelBuffer
}

/// A whole-slide image opened by OpenSlide: its format and levels, and their regions.
package protocol SlideReading: Sendable {
    var facts: SlideFacts { get }
    /// The region `width` x `height` of OpenSlide's level `level` at (`x`, `y`) in the full image's pixels,
    /// reduced to `size`; OpenSlide's refusal is `.decodeFailed`.
    func read(x: Int, y: Int, level: Int, width: Int, height: Int,
              reducedTo size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer
}
