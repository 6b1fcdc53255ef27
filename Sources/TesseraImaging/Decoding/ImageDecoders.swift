/// The one list of decoders, one per format, in the order they are tried: JPEG (TurboJPEG, shrinking by
/// DCT scaling), WebP (libwebp's row scaler), PNG (libpng rows into the streaming area average), HEIC and
/// AVIF (libheif, its stored thumbnail), JPEG XL (libjxl, whole), SVG (librsvg, at the target size),
/// TIFF (libtiff, reduced levels and streamed rows), GIF (giflib), BMP (gdk-pixbuf), camera RAW (libraw,
/// its embedded preview). `fallback` decoders are asked after them.
package enum ImageDecoders {
    package static func standard(fallback: [any ImageDecoding] = []) -> [any ImageDecoding] {
        [TurboJPEGDecoder(), WebPDecoder(), PNGDecoder(), HEIFDecoder(), JXLDecoder(), SVGDecoder(), TIFFDecoder(),
         GIFDecoder(), BMPDecoder(), RawDecoder()] + fallback
    }
}
