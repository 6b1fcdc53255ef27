import Foundation
import TesseraCore
import TesseraFiles

/// Rows of an image, top to bottom, as B, G, R, A bytes: what the tile cutter reads instead of a whole
/// decoded image, so memory follows the image's width, not its area.
///
/// JPEG, PNG and TIFF are read row by row by `JPEGRowReader`, `PNGRowReader` and `TIFFRowReader`. Other
/// formats, and the JPEG/PNG variants that cannot be produced row by row in bounded memory (progressive
/// JPEG, interlaced PNG), are decoded whole, and only below a pixel limit.
package protocol ScanlineSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// A single grey channel: tiles can be written grey, as vips does.
    var isGrayscale: Bool { get }
    /// An alpha channel: PNG tiles keep it, JPEG tiles are flattened on black, as vips does.
    var hasAlpha: Bool { get }
    /// The colour space the rows are in, as the file declares it (CMYK rows come out sRGB already).
    var colourSpace: ColourSpace { get }
    /// Reads the next `count` rows into `first`, `first + stride`, ...
    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason)
    /// After the last row: checks the rest of the file (a JPEG that lost its tail is truncated).
    func finish() throws(TileCutError.Reason)
}

package enum ScanlineSources {
    /// Opens `path`, checks it (missing, not a file, empty, unknown format, too big to decode whole) and
    /// returns a source positioned at the first row. Nothing is decoded yet for JPEG, PNG and TIFF.
    ///
    /// The file is opened here and everything after (sniffing, the readers, a whole decode) runs where
    /// `decoding` runs it, for the source's whole life: a sandboxed service's helper decodes with its own
    /// `fallbackDecoders`, runs at `priority`, and `isCancelled` ends a wait for its rows.
    package static func open(_ path: String, fallbackDecoders: [any ImageDecoding], pixelLimitForWholeDecode: Int,
                     decoding: any DecodingService = .inProcess, priority: WorkerPriority = .normal,
                     isCancelled: (@Sendable () -> Bool)? = nil) throws(TileCutError.Reason) -> any ScanlineSource {
        let file: ImageFile
        do { file = try ImageFile(path: path) } catch { throw TileCutError.Reason(error) }
        return try decoding.rows(of: file, fallbackDecoders: fallbackDecoders, pixelLimitForWholeDecode: pixelLimitForWholeDecode,
                                 priority: priority, isCancelled: isCancelled)
    }

    /// The source for an opened `file`, in whichever process runs this: the viewer's with
    /// `InProcessDecoding`, else a decode helper's.
    package static func open(_ file: ImageFile, fallbackDecoders: [any ImageDecoding],
                     pixelLimitForWholeDecode: Int) throws(TileCutError.Reason) -> any ScanlineSource {
        let path = file.path
        let format: ImageFormat
        do { format = try file.sniff() } catch { throw TileCutError.Reason(error) }

        switch format {
        case .jpeg, .png:
            let fd = file.takeDescriptor()
            let source: any ScanlineSource = format == .jpeg ? try JPEGRowReader(fd: fd, name: path) : try PNGRowReader(fd: fd)
            if (source as? WholeImageNeeding)?.needsWholeImage == true {
                let (pixels, overflow) = source.width.multipliedReportingOverflow(by: source.height)
                if overflow || pixels > pixelLimitForWholeDecode {
                    let kind = format == .jpeg ? "a progressive JPEG" : "an interlaced PNG"
                    throw .tooLargeForWholeDecode(format: kind, width: source.width, height: source.height,
                                                  limit: pixelLimitForWholeDecode)
                }
            }
            return source
        case .tiff:
            return try TIFFRowReader(file: file)
        case .unknown:
            throw .notAnImage
        default:
            return try DecodedImageSource.load(file, format: format, decoders: fallbackDecoders,
                                               pixelLimit: pixelLimitForWholeDecode)
        }
    }
}

/// A source whose rows cost the whole image's memory (see `ScanlineSource`).
protocol WholeImageNeeding {
    var needsWholeImage: Bool { get }
}

/// A whole image decoded by one of the fallback decoders (through `ImageLoader`, so the pixel limit is
/// checked on the header before anything is decoded), handed out row by row.
final class DecodedImageSource: ScanlineSource {
    private let buffer: PixelBuffer
    private var nextRow = 0
    var width: Int { buffer.width }
    var height: Int { buffer.height }
    let isGrayscale = false
    let hasAlpha: Bool
    let colourSpace: ColourSpace

    init(_ buffer: PixelBuffer) {
        self.buffer = buffer
        hasAlpha = !buffer.isOpaque
        colourSpace = buffer.declaredColourSpace
    }

    static func load(_ file: ImageFile, format: ImageFormat, decoders: [any ImageDecoding],
                     pixelLimit: Int) throws(TileCutError.Reason) -> DecodedImageSource {
        guard decoders.contains(where: { $0.canDecode(format) }) else { throw .unsupportedFormat(format.displayName) }
        // Stored orientation, as for JPEG and PNG (and as vips cuts); rows are converted by the cutter, as
        // JPEG's and PNG's are.
        let loader = ImageLoader(decoders: decoders, pixelLimit: pixelLimit, byteLimit: Int.max,
                                 applyOrientation: false, colour: nil)
        do throws(ImageLoadError.Reason) {
            return DecodedImageSource(try loader.load(opened: file, fitting: nil, cancellation: nil, convertingColour: true))
        } catch {
            switch error {
            case .missing: throw .missing
            case .unreadable(let why): throw .unreadable(why)
            case .empty: throw .empty
            case .notAnImage: throw .notAnImage
            case .unsupportedFormat(let name): throw .unsupportedFormat(name)
            case .truncated: throw .truncated
            case .tooLarge(let w, let h, let limit):
                throw .tooLargeForWholeDecode(format: format.displayName, width: w, height: h, limit: limit)
            case .fileTooLarge(let bytes, _): throw .unreadable("file too large (\(bytes) bytes)")
            case .decodeFailed(let why): throw .corrupt(why)
            case .cancelled: throw .corrupt("cancelled")
            case .helperFailed(let failure): throw .decoderFailed(failure)
            }
        }
    }

    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason) {
        guard nextRow + count <= height else { throw .corrupt("read past the last row") }
        let rowBytes = width * 4
        buffer.bytes.withUnsafeBytes { bytes in
            for i in 0..<count {
                (first + i * stride).copyMemory(from: bytes.baseAddress! + (nextRow + i) * rowBytes, byteCount: rowBytes)
            }
        }
        nextRow += count
    }

    func finish() throws(TileCutError.Reason) {}
}
