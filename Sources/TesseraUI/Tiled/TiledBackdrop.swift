import TesseraCore
import TesseraImaging
import TesseraSDL

/// A whole-image picture drawn where no tile can be: the strip's cell image, or the overview of an image
/// being cut.
struct TiledBackdrop {
    let picture: ImageTexture
    var size: PixelSize { picture.contentSize }

    /// `pixels` in a texture, shrunk first to the renderer's limit; nil when no texture can be made.
    init?(_ pixels: PixelBuffer, renderer: Renderer) {
        let limit = renderer.maxTextureSize
        let fitted = limit.width > 0 ? PixelScaler.fit(pixels, in: limit) : pixels
        let opaque = fitted.isOpaque
        guard let texture = try? renderer.makeTexture(width: fitted.width, height: fitted.height, opaque: opaque) else {
            return nil
        }
        picture = ImageTexture(texture: texture, isOpaque: opaque)
        guard (try? picture.upload(fitted)) != nil else { return nil }
    }

    /// The texture, set up to draw at full opacity: a plain copy when the picture is opaque.
    func preparedTexture() -> Texture {
        picture.prepare(alpha: 1)
        return picture.texture
    }

    /// Whether the picture can stand for an image of `size` (same aspect within a pixel's rounding).
    func fits(_ size: PixelSize) -> Bool {
        let expected = Double(self.size.width) * Double(size.height) / Double(size.width)
        return abs(expected - Double(self.size.height)) <= 1.5
    }
}
