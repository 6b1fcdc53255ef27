/// The one list of decoders, in the order they are tried: the ones that shrink while decoding first
/// (TurboJPEG by DCT scaling, libwebp by its row scaler, libpng rows into the streaming area average),
/// then whatever decodes the rest (SDL_image, injected by the UI module, which may not be used here).
public enum ImageDecoders {
    public static func standard(fallback: [any ImageDecoding] = []) -> [any ImageDecoding] {
        [TurboJPEGDecoder(), WebPDecoder(), PNGDecoder()] + fallback
    }
}
