#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Logging
import TesseraCore
import TesseraFiles

/// Turns a path (or bytes) into display-ready pixels, refusing anything that would be unsafe or pointless
/// to decode, and naming the reason so the UI can draw an error cell instead of a hole.
///
/// The order of checks is the point: cheap checks before expensive ones, and nothing is allocated for
/// pixels until the header's dimensions have been checked against `pixelLimit`. A 40-byte file claiming to
/// be 60000x60000 is refused without ever reaching a decoder.
///
/// Where the steps run is `decoding`'s business: here, or in a sandboxed helper process on the file this
/// process opened. One decode path, two places it runs.
///
/// Stateless and `Sendable`: one loader is shared by all decode workers. Thread safety of the decoders
/// themselves is their own contract (see `ImageDecoding`).
package struct ImageLoader: Sendable {
    /// Asked in order; the first whose `canDecode` says yes decodes.
    package let decoders: [any ImageDecoding]
    /// Maximum width x height a header may claim (default 100 MP, i.e. 400 MB of ARGB).
    package let pixelLimit: Int
    /// Maximum file size that will be read into memory at all.
    package let byteLimit: Int
    /// Turn images upright as their EXIF orientation says (see `ExifReader` for which formats carry it).
    /// The box is then fitted to the upright size: a 4000x3000 photo tagged 6 is a 3000x4000 portrait.
    package let applyOrientation: Bool
    /// Converts what the decoder declares (an embedded profile, code points; sRGB when nothing) to the
    /// display's colour space, last, on the smallest buffer; nil leaves the pixels as decoded, their
    /// declared colour space still on them.
    package let colour: ColourConversion?
    /// Which image of a file of several (counted from 0: a multi-page TIFF's page, a HEIF collection's
    /// top-level image); 0, the image a file shows, for any file. A later page is decoded whole.
    package let page: Int

    /// Failures are logged, not shown: the caller decides whether a failure deserves the user's attention.
    private static let logger = Logger(label: "tessera.imaging")

    /// How much of a file is read before the header is checked, so that a huge (real) image is refused
    /// before the rest of its bytes are read. Big enough for the EXIF/ICC data in front of a JPEG frame
    /// header in practically every camera file; if the header isn't in it, the whole file is read anyway.
    package static let headerProbeLength = 256 << 10

    /// Where decodes run. A sandboxed service's helpers run this same loader, with these settings, on the
    /// file this process opened, with their own list of decoders, the viewer's, not `decoders`.
    package let decoding: any DecodingService

    package init(decoders: [any ImageDecoding], pixelLimit: Int = 100_000_000, byteLimit: Int = 512 << 20,
                applyOrientation: Bool = true, colour: ColourConversion? = .sRGB, page: Int = 0,
                decoding: any DecodingService = .inProcess) {
        self.decoders = decoders
        self.pixelLimit = pixelLimit
        self.byteLimit = byteLimit
        self.applyOrientation = applyOrientation
        self.colour = colour
        self.page = page
        self.decoding = decoding
    }

    /// Loads the image at `path`, scaled to fit `box` (aspect preserved, never enlarged); nil = full size.
    /// With `cancellation`, the decode stops with `.cancelled` once the signal is set (see `ImageDecoding`).
    package func load(path: String, fitting box: PixelSize?,
                     cancellation: DecodeCancellation? = nil) throws(ImageLoadError) -> PixelBuffer {
        try load(path: path, fitting: box, cancellation: cancellation, convertingColour: true)
    }

    /// `load(path:fitting:cancellation:)`, but without `convertingColour` the pixels keep the colour
    /// space their image declares (for the thumbnail store, which converts to sRGB itself).
    func load(path: String, fitting box: PixelSize?, cancellation: DecodeCancellation?,
              convertingColour: Bool) throws(ImageLoadError) -> PixelBuffer {
        do throws(ImageLoadError.Reason) {
            let file: ImageFile
            do { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
            guard file.size <= byteLimit else { throw .fileTooLarge(bytes: file.size, limit: byteLimit) }
            return try decoding.load(file, with: self, fitting: box, convertingColour: convertingColour,
                                     cancellation: cancellation)
        } catch {
            throw failure(path, error)
        }
    }

    /// The decode proper, on a file already opened and within the byte limit, in this process: what
    /// `InProcessDecoding` and a decode helper call. Logs nothing (the caller logs the failure once).
    package func load(opened file: ImageFile, fitting box: PixelSize?, cancellation: DecodeCancellation?,
              convertingColour: Bool) throws(ImageLoadError.Reason) -> PixelBuffer {
        var header: ImageHeader?
        let data = try readFile(file, header: &header)
        var pixels = try decode(data, header: header, fitting: box, cancellation: cancellation)
        if convertingColour { colour?.convert(&pixels, name: file.path) }
        return pixels
    }

    /// Loads an image already in memory (e.g. from an archive or the network); `name` is only used for
    /// the error and the log.
    package func load(data: Data, name: String, fitting box: PixelSize?) throws(ImageLoadError) -> PixelBuffer {
        do throws(ImageLoadError.Reason) {
            guard data.count <= byteLimit else { throw ImageLoadError.Reason.fileTooLarge(bytes: data.count, limit: byteLimit) }
            return try decoding.load(data: data, name: name, with: self, fitting: box)
        } catch {
            throw failure(name, error)
        }
    }

    /// The decode proper of bytes in memory, in this process.
    func load(inMemory data: Data, name: String, fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer {
        var pixels = try decode(data, header: nil, fitting: box)
        colour?.convert(&pixels, name: name)
        return pixels
    }

    // MARK: - Steps

    /// Reads an opened image file fully, refusing files bigger than `byteLimit`. When the header can be read from the first `headerProbeLength` bytes it is checked
    /// against the pixel limit before the rest is read, and handed back through `header`.
    private func readFile(_ file: ImageFile, header: inout ImageHeader?) throws(ImageLoadError.Reason) -> Data {
        let size = file.size
        guard size <= byteLimit else { throw .fileTooLarge(bytes: size, limit: byteLimit) }

        guard let buffer = malloc(size) else { throw .unreadable(POSIXFiles.errorText(ENOMEM)) }
        var owned = true
        defer { if owned { free(buffer) } }

        func read(from start: Int, to end: Int) throws(ImageLoadError.Reason) -> Int {
            do { return try file.read(into: buffer + start, from: start, to: end) } catch { throw ImageLoadError.Reason(error) }
        }
        let probeEnd = min(size, Self.headerProbeLength)
        var done = try read(from: 0, to: probeEnd)
        if done < size && done >= ImageFormat.sniffLength {
            let probe = Data(bytesNoCopy: buffer, count: done, deallocator: .none)
            if let probed = ImageHeader.read(probe, isWholeFile: false) {
                if page == 0 { try checkPixelLimit(probed) }
                header = probed
            }
        }
        if done == probeEnd { done = try read(from: done, to: size) }
        // The file may have shrunk since it was opened; what was read is what there is.
        guard done > 0 else { throw .empty }
        owned = false
        return Data(bytesNoCopy: buffer, count: done, deallocator: .free)
    }

    /// Sniff, check the header, pick a decoder, decode (letting it shrink on load), scale to the box, turn
    /// upright. The result keeps the colour space the decoder declared.
    ///
    /// Sizes are decided in the upright orientation (the box is fitted to the image as it will be seen),
    /// then translated to the stored orientation for the decoder and the scaler; the turn comes last, on
    /// the smallest buffer. Scaling then turning gives the same pixels as turning then scaling (the filter
    /// is separable and the same along both axes; at most float rounding differs), for a fraction of the
    /// memory traffic when the decoder could not shrink.
    private func decode(_ data: Data, header known: ImageHeader?, fitting box: PixelSize?,
                        cancellation: DecodeCancellation? = nil) throws(ImageLoadError.Reason) -> PixelBuffer {
        guard !data.isEmpty else { throw .empty }
        let format = ImageFormat.sniff(data)
        guard format != .unknown else { throw .notAnImage }
        guard let decoder = decoders.first(where: { $0.canDecode(format) }) else {
            throw .unsupportedFormat(format.displayName)
        }
        // The bytes said "image" but the header can't be read: cut short, or damaged (`problem` says which).
        guard let header = known ?? ImageHeader.read(data) else { throw ImageHeader.problem(data) }
        // A later page is checked by its decoder against its own size, which this header does not give.
        if page == 0 { try checkPixelLimit(header) }

        // The pixel limit above is on width x height, which turning does not change.
        let orientation = applyOrientation ? ExifReader.orientation(in: data, format: format) : .up
        let target = box.map { orientation.orientedSize(header.size).aspectFit(in: $0) }
        let storedTarget = target.map(orientation.orientedSize)
        let decoded: PixelBuffer
        do {
            decoded = page == 0 ? try decoder.decode(data, format: format, targetSize: storedTarget, cancellation: cancellation)
                                : try decoder.decode(data, format: format, page: page, pixelLimit: pixelLimit)
        } catch is DecodeCancelled {
            throw .cancelled
        } catch let reason as ImageLoadError.Reason {
            throw reason
        } catch let error as ImageLoadError {
            throw error.reason
        } catch {
            throw .decodeFailed(String(describing: error))
        }
        guard decoded.width > 0, decoded.height > 0 else { throw .decodeFailed("decoder returned an empty image") }
        // A header can understate what the decoder produces (e.g. a GIF frame bigger than its screen).
        guard decoded.width * decoded.height <= pixelLimit else {
            throw .tooLarge(width: decoded.width, height: decoded.height, limit: pixelLimit)
        }
        // A later page has a size of its own, which the file's header (its first image's) does not give,
        // and is shown as stored.
        if page > 0 {
            var result = box.map { PixelScaler.fit(decoded, in: $0) } ?? decoded
            result.sourceSize = decoded.size
            result.colourProfile = decoded.colourProfile
            result.colourCodePoints = decoded.colourCodePoints
            result.keepFileFacts(of: decoded)
            return result
        }

        var result: PixelBuffer
        if let box, let target = storedTarget {
            result = orientation.apply(to: Self.scale(decoded, to: target, orFitIn: orientation.orientedSize(box)))
        } else {
            result = orientation.apply(to: decoded)
        }
        // Callers drawing a reduced version at its full size need the source's upright size.
        result.sourceSize = orientation.orientedSize(header.size)
        result.colourProfile = decoded.colourProfile
        result.colourCodePoints = decoded.colourCodePoints
        result.keepFileFacts(of: decoded)
        return result
    }

    /// Scales to the size computed from the true dimensions, so a cell gets the same size whether the
    /// decoder shrank on load (whose rounding can be off by a pixel) or not. Falls back to fitting the
    /// decoded image if the decoder produced something else than the header promised.
    private static func scale(_ decoded: PixelBuffer, to target: PixelSize, orFitIn box: PixelSize) -> PixelBuffer {
        if decoded.size == target { return decoded }
        if decoded.width >= target.width && decoded.height >= target.height
            && abs(Double(decoded.height) * Double(target.width) / Double(decoded.width) - Double(target.height)) <= 1 {
            return PixelScaler.scaled(decoded, to: target)
        }
        return PixelScaler.fit(decoded, in: box)
    }

    private func checkPixelLimit(_ header: ImageHeader) throws(ImageLoadError.Reason) {
        let (pixels, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        if overflow || pixels > pixelLimit {
            throw .tooLarge(width: header.width, height: header.height, limit: pixelLimit)
        }
    }

    private func failure(_ path: String, _ reason: ImageLoadError.Reason) -> ImageLoadError {
        let error = ImageLoadError(path: path, reason: reason)
        switch reason {
        case .missing, .empty, .notAnImage, .unsupportedFormat, .cancelled:
            Self.logger.debug("image not loaded", metadata: ["path": "\(path)", "reason": "\(reason.shortText)"])
        case .unreadable, .truncated, .tooLarge, .fileTooLarge, .decodeFailed, .helperFailed:
            Self.logger.warning("image not loaded", metadata: ["path": "\(path)", "reason": "\(reason.shortText)"])
        }
        return error
    }
}
