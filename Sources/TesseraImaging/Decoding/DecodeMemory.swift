import Foundation
import TesseraCore
import TesseraFiles

/// How much memory one decode holds while it runs, estimated from the file's header before it starts:
/// what a `DecodeMemoryBudget` admits decodes by. The figures are the one place that knows what each
/// format's library holds per pixel.
///
/// An estimate is the file's bytes (the loader reads the whole file into memory), plus the source's
/// pixels times the format's figure below, plus 16 bytes per output pixel (the decoded image at up to
/// twice the target on each side, RGBA, which the shrink-on-load decoders produce and the scaler reads).
package enum DecodeMemory {
    /// Bytes per pixel of the source image that the format's library holds while decoding, beyond the
    /// output, when the image is decoded to fit a box (`shrinking`) or at its full size.
    static func bytesPerSourcePixel(_ format: ImageFormat, shrinking: Bool) -> Double {
        switch format {
        // TurboJPEG decodes at the DCT scale at or above the target, libpng's rows go through the
        // streaming downscaler, libwebp scales while decoding: their memory follows the output.
        case .jpeg, .png, .webp: 0
        // libtiff's strips or tiles go through the streaming downscaler as they are read.
        case .tiff: 0
        // libde265's planes and libheif's interleaved RGB: the peak RSS of `tessera bench thumbs` on one
        // 5120x2880 HEIC, less the process's own, over its pixels (docs/PERFORMANCE-formats.md).
        case .heif: 10
        // dav1d's picture pool and libheif's RGB, measured as for HEIF.
        case .avif: 18
        // libjxl holds a whole frame's DCT coefficients and XYB planes, measured as for HEIF; an HDR frame
        // (PQ or HLG) adds its 16-bit output and libjxl's conversion to it, 16 more on a 2560x1600 photo
        // (an HDR AVIF or HEIC costs what an SDR one does). The transfer is read with the frame, so every
        // JPEG XL is counted as HDR.
        case .jxl: 52
        // giflib's frame of palette indices and the RGBA canvas it is drawn on: one byte and four.
        case .gif: 5
        // The whole RGBA image, which the BMP decoder fills before scaling.
        case .bmp: 4
        // librsvg draws at the target size: memory follows the output and the document (the file).
        case .svg: 0
        // A cell gets the embedded preview, a JPEG decoded like one; the full decode holds libraw's four
        // 16-bit channels per pixel and its 8-bit RGB output.
        case .raw: shrinking ? 0 : 11
        case .unknown: 0
        }
    }

    /// Bytes per output pixel: the decoded image at up to twice the target on each side, RGBA.
    static let bytesPerOutputPixel = 16

    /// The estimate for a file of `fileBytes` whose header is `header` (nil when it could not be read:
    /// the file's bytes and the output only), decoded to fit `box` (nil: full size).
    package static func estimate(header: ImageHeader?, fileBytes: Int, fitting box: PixelSize?) -> Int {
        guard let header else {
            let output = box.map { $0.width * $0.height } ?? 0
            return fileBytes + output * bytesPerOutputPixel
        }
        let output = box.map { header.size.aspectFit(in: $0) } ?? header.size
        let perPixel = bytesPerSourcePixel(header.format, shrinking: box != nil)
        return fileBytes + Int(Double(header.pixelCount) * perPixel) + output.width * output.height * bytesPerOutputPixel
    }

    /// The estimate for the file at `path`, reading only as much of it as its header needs (the whole file
    /// for HEIF and AVIF, whose sizes libheif reads only from a whole file, and for a full-size RAW
    /// decode). A file that cannot be opened costs nothing: its load fails at once.
    ///
    /// When `decoding` isolates the libraries (decodes in sandboxed helpers), no C library reads the header
    /// here: JPEG, HEIF, AVIF and JPEG XL sizes come from Swift readers (`ImageHeader.Readers.memorySafe`),
    /// which suffice for an estimate. Where they cannot tell (SVG, camera RAW, a header they do not understand) and a
    /// library would have read the size in process, the service is asked, but only when the size weighs
    /// beyond the box: when the format's library holds memory per source pixel or the decode is at full
    /// size. Otherwise the whole box is counted, which errs high by at most the part of the box the
    /// picture leaves empty, and costs no round trip.
    package static func estimate(path: String, fitting box: PixelSize?, decoding: any DecodingService = .inProcess) -> Int {
        guard let file = try? ImageFile(path: path) else { return 0 }
        guard let probe = try? file.head(min(file.size, headerProbeLength)) else { return file.size }
        let format = ImageFormat.sniff(probe)
        let isolated = decoding.isolatesLibraries
        let readers: ImageHeader.Readers = isolated ? .memorySafe : .libraries
        let sourcePixelsWeigh = bytesPerSourcePixel(format, shrinking: box != nil) > 0
        let readsWholeFile = sourcePixelsWeigh && file.size <= wholeFileLimit
        var header = ImageHeader.read(probe, isWholeFile: probe.count == file.size, readers: readers)
        if header == nil, readsWholeFile, !isolated || [.heif, .avif, .jxl].contains(format),
           let whole = try? file.readAll() {
            header = ImageHeader.read(whole, isWholeFile: true, readers: readers)
        }
        if header == nil, isolated, [.jpeg, .heif, .avif, .jxl, .svg, .raw].contains(format),
           probe.count == file.size || readsWholeFile, sourcePixelsWeigh || box == nil,
           let facts = try? decoding.header(of: file) {
            let upright = facts.orientation.orientedSize(facts.storedSize)
            header = ImageHeader(format: facts.format, width: upright.width, height: upright.height)
        }
        return estimate(header: header, fileBytes: file.size, fitting: box)
    }

    /// What is read for a header that sits near the start (every format but HEIF, AVIF, SVG and RAW).
    static let headerProbeLength = 64 << 10
    /// Larger files needing the whole file for their header go by their bytes and output only.
    static let wholeFileLimit = 256 << 20
}
