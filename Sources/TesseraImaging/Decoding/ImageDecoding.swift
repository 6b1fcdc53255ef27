import Foundation
import TesseraCore

/// Something that turns encoded bytes into native ARGB8888 pixels.
///
/// One per format (`ImageDecoders.standard` lists them), each over its format's own library, none over
/// SDL. Decoders run on worker threads, hence `Sendable`; a decoder must not share non-thread-safe state
/// between concurrent calls: each call opens its own per-file state (a `HEIFFile`, a `GIFFile`, ...).
///
/// The loader checks the pixel limit on the size `ImageHeader` reads before a decoder runs, and each
/// decoder allocates for the size its library reads from the same header (a GIF frame reaching past its
/// screen is clipped, never allocated whole), so no decoder allocates for more pixels than were checked.
package protocol ImageDecoding: Sendable {
    /// Whether this decoder handles `format`. The loader asks decoders in order and uses the first yes.
    func canDecode(_ format: ImageFormat) -> Bool

    /// Decodes `data`, already sniffed as `format`.
    ///
    /// - Parameter targetSize: nil means full size. Otherwise the size the caller will finally show
    ///   (already aspect-fitted to the image). A decoder MAY use it to shrink on load and return an image
    ///   smaller than full size, but never smaller than `targetSize` in either dimension; the loader does
    ///   the final, high-quality scaling. Returning the full-size image is always correct.
    /// - Throws: preferably an `ImageLoadError.Reason` (e.g. `.truncated`, `.decodeFailed(message)`);
    ///   any other error is reported as `.decodeFailed` with its description.
    func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer

    /// `decode(_:format:targetSize:)` that stops with `DecodeCancelled` once `cancellation` is set, as
    /// soon as it can. The default looks at the signal once, before decoding; decoders that can stop in
    /// the middle (PNG, WebP) check it as they go.
    func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                cancellation: DecodeCancellation?) throws -> PixelBuffer

    /// Image `page` (counted from 0) of a file of several: a multi-page TIFF's page, a HEIF collection's
    /// top-level image, at full size. Its own size, which the file's header (its first image's) does not
    /// give, is refused as too large when it is over `pixelLimit`, before anything is decoded. The default
    /// knows one image only.
    func decode(_ data: Data, format: ImageFormat, page: Int, pixelLimit: Int) throws -> PixelBuffer
}

extension ImageDecoding {
    package func decode(_ data: Data, format: ImageFormat, page: Int, pixelLimit: Int) throws -> PixelBuffer {
        guard page == 0 else { throw ImageLoadError.Reason.decodeFailed("the file has no image \(page + 1)") }
        return try decode(data, format: format, targetSize: nil)
    }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                       cancellation: DecodeCancellation?) throws -> PixelBuffer {
        try cancellation.check()
        return try decode(data, format: format, targetSize: targetSize)
    }
}
