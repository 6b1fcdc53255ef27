import TesseraCore
import TesseraSDL

/// Decoded pixels on the GPU: a tile of the zoom view or a cell of the strip. The texture may be larger than
/// what it holds (pooled tile textures, cell textures reused as cells are), so the pixels are the top-left
/// `contentSize` of it.
///
/// Opaque images (every JPEG, most photos in any format) belong in textures without an alpha channel
/// (`Renderer.makeOpaqueTexture`): a fade then blends with one constant alpha, which SDL's software blitter
/// does several times faster than per-pixel alpha times a modulation, and a finished image is a plain copy.
final class ImageTexture {
    let texture: Texture
    /// Every pixel is opaque: the texture has no alpha channel and is drawn without blending when not fading.
    let isOpaque: Bool
    /// The part of the texture the last upload filled.
    private(set) var contentSize: PixelSize
    private var blending: Bool?
    private var alphaModulation: UInt8?
    private var nearest: Bool?
    /// The texture holds a composed step of a fade (`showFadeStep`), not the picture last uploaded.
    private var holdsFadeStep = false

    init(texture: Texture, isOpaque: Bool) {
        self.texture = texture
        self.isOpaque = isOpaque
        contentSize = PixelSize(width: 0, height: 0)
    }

    var cost: Int { texture.width * texture.height * 4 }

    /// Whether `pixels` can go into this texture: small enough, and opaque exactly when it is.
    func canHold(_ pixels: PixelBuffer, isOpaque opaque: Bool) -> Bool {
        pixels.width <= texture.width && pixels.height <= texture.height && opaque == isOpaque
    }

    /// Copies `pixels` into the top-left corner. Returns the bytes copied. Throws what SDL said if it
    /// failed; the texture's pixels are then undefined.
    @discardableResult
    func upload(_ pixels: PixelBuffer) throws -> Int {
        let bytes = try texture.upload(pixels)
        contentSize = pixels.size
        holdsFadeStep = false
        return bytes
    }

    /// Replaces the `area` of the texture (picture coordinates) with one step of `pixels` fading in over
    /// the placeholder (see `FadeComposer`) and sets it up to be drawn as a plain copy. False if that
    /// failed: the picture is then back in the texture, to be blended as before.
    func showFadeStep(of pixels: PixelBuffer, area: PixelRect, alpha: Double, over background: RGBA,
                      icon: FadeComposer.Icon, at iconOrigin: (x: Int, y: Int), composer: FadeComposer) -> Bool {
        holdsFadeStep = true
        guard composer.compose(pixels, area: area, alpha: alpha, over: background, icon: icon, at: iconOrigin,
                               into: texture) else {
            restorePicture(pixels)
            return false
        }
        contentSize = pixels.size
        prepare(alpha: 1)
        return true
    }

    /// Puts `pixels` (the picture this texture was given) back if a fade step was composed over them. If
    /// SDL fails (the renderer counts and logs it), the step stays and the next call tries again.
    func restorePicture(_ pixels: PixelBuffer) {
        if holdsFadeStep { _ = try? upload(pixels) }
    }

    /// Sets alpha, blending and filtering for the next draw, touching SDL only for what changed.
    ///
    /// Once a fade ends the alpha goes back to 1 as well as the blending going off: SDL's software
    /// renderer leaves its plain-copy blitter for a per-pixel modulating one whenever a texture's alpha is
    /// below 1, even without blending, so an image left at a fade's last step would cost that for good.
    ///
    /// An opaque picture blends only while its alpha, as SDL holds it, is below 255. A fade step within half
    /// a step of 1 (0.999) rounds to 255, and SDL has no fast blitter for blending a texture without an
    /// alpha channel at full alpha: it falls to its slowest generic path where a copy is its fastest
    /// (tools/sdl-blit-costs.c measures both).
    func prepare(alpha: Double, nearestFilter: Bool? = nil) {
        let steppedAlpha = Texture.alphaModulation(alpha)
        let blend = steppedAlpha < 255 || !isOpaque
        if blend != blending {
            texture.setBlending(blend)
            blending = blend
        }
        let modulation = blend ? steppedAlpha : 255
        if modulation != alphaModulation {
            texture.setAlphaModulation(modulation)
            alphaModulation = modulation
        }
        if let nearestFilter, nearestFilter != nearest {
            texture.setScaleFilter(nearest: nearestFilter)
            nearest = nearestFilter
        }
    }
}
