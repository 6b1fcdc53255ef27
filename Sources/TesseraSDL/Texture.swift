import CSDL2
import TesseraCore

/// A texture of 32-bit pixels (ARGB8888, or XRGB8888 for opaque images). Created, updated and destroyed
/// on the main thread only.
package final class Texture {
    /// How the texture's pixels change after it is made.
    package enum Access: Sendable {
        /// Uploaded to, and lockable for writing in place: every texture Tessera draws pictures with.
        case streaming
        /// Uploaded to only; SDL never locks it.
        case `static`
    }

    let pointer: OpaquePointer
    /// Textures belong to their renderer and must be destroyed before it; it also counts their failures.
    private let renderer: Renderer
    package let width: Int
    package let height: Int

    convenience init(renderer: Renderer, width: Int, height: Int, opaque: Bool, access: Access) throws {
        let format = opaque ? SDL_PIXELFORMAT_RGB888 : SDL_PIXELFORMAT_ARGB8888
        let sdlAccess = access == .streaming ? SDL_TEXTUREACCESS_STREAMING : SDL_TEXTUREACCESS_STATIC
        guard let texture = SDL_CreateTexture(renderer.pointer, format.rawValue, Int32(sdlAccess.rawValue),
                                              Int32(width), Int32(height)) else {
            throw renderer.failures.recorded(SDLError("SDL_CreateTexture \(width)x\(height)"), of: "SDL_CreateTexture")
        }
        try self.init(owning: texture, renderer: renderer)
    }

    /// Takes ownership of a texture SDL made for `renderer` (e.g. from a text surface), blending by default.
    /// Destroys it and throws if SDL cannot say its size or set its blend mode.
    init(owning texture: OpaquePointer, renderer: Renderer) throws {
        var w: Int32 = 0, h: Int32 = 0
        guard SDL_QueryTexture(texture, nil, nil, &w, &h) == 0 else {
            let error = SDLError("SDL_QueryTexture")
            SDL_DestroyTexture(texture)
            throw renderer.failures.recorded(error, of: "SDL_QueryTexture")
        }
        guard SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND) == 0 else {
            let error = SDLError("SDL_SetTextureBlendMode")
            SDL_DestroyTexture(texture)
            throw renderer.failures.recorded(error, of: "SDL_SetTextureBlendMode")
        }
        pointer = texture
        self.renderer = renderer
        width = Int(w)
        height = Int(h)
    }

    deinit { SDL_DestroyTexture(pointer) }

    /// Copies `buffer` into the top-left corner of the texture. Returns the bytes uploaded. When SDL fails
    /// the texture's pixels are undefined.
    @discardableResult
    package func upload(_ buffer: PixelBuffer) throws -> Int {
        precondition(buffer.width <= width && buffer.height <= height, "upload larger than texture")
        var rect = SDL_Rect(x: 0, y: 0, w: Int32(buffer.width), h: Int32(buffer.height))
        let status = buffer.bytes.withUnsafeBytes { raw in
            SDL_UpdateTexture(pointer, &rect, raw.baseAddress, Int32(buffer.bytesPerRow))
        }
        guard status == 0 else { throw renderer.failures.recorded(SDLError("SDL_UpdateTexture"), of: "SDL_UpdateTexture") }
        return buffer.cost
    }

    /// Lets `body` write the pixels of `area` in place (`SDL_LockTexture`: on the software renderer the
    /// texture's own memory, elsewhere a buffer SDL uploads on unlock), with the bytes per row. Every pixel
    /// of the area must be written: SDL does not say what the lock starts with. False, and `body` not
    /// called, if SDL cannot lock the texture (a static one, or SDL failing; the renderer counts that).
    package func withLockedPixels(in area: PixelRect, _ body: (UnsafeMutableRawPointer, _ bytesPerRow: Int) -> Bool) -> Bool {
        precondition(area.x >= 0 && area.y >= 0 && area.maxX <= width && area.maxY <= height, "lock outside the texture")
        var rect = area.sdl
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        let status = SDL_LockTexture(pointer, &rect, &pixels, &pitch)
        renderer.failures.check(status, "SDL_LockTexture")
        guard status == 0, let pixels else { return false }
        defer { SDL_UnlockTexture(pointer) }
        return body(pixels, Int(pitch))
    }

    /// Alpha multiplier for the next draws, 0...1.
    package func setAlpha(_ alpha: Double) {
        setAlphaModulation(Self.alphaModulation(alpha))
    }

    /// The alpha multiplier as SDL holds it: 255 is none.
    var alpha: UInt8 {
        var value: UInt8 = 0
        renderer.failures.check(SDL_GetTextureAlphaMod(pointer, &value), "SDL_GetTextureAlphaMod")
        return value
    }

    /// Sets the alpha multiplier as SDL holds it (`alphaModulation(_:)` of an alpha).
    package func setAlphaModulation(_ value: UInt8) {
        renderer.failures.check(SDL_SetTextureAlphaMod(pointer, value), "SDL_SetTextureAlphaMod")
    }

    /// `alpha` (0...1) as the byte SDL multiplies by.
    package static func alphaModulation(_ alpha: Double) -> UInt8 {
        UInt8((max(0, min(1, alpha)) * 255).rounded())
    }

    /// Alpha blending on (the default) or off: an opaque image drawn without blending is a plain copy.
    package func setBlending(_ on: Bool) {
        renderer.failures.check(SDL_SetTextureBlendMode(pointer, on ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE),
                                "SDL_SetTextureBlendMode")
    }

    var isBlending: Bool {
        var mode = SDL_BLENDMODE_NONE
        renderer.failures.check(SDL_GetTextureBlendMode(pointer, &mode), "SDL_GetTextureBlendMode")
        return mode != SDL_BLENDMODE_NONE
    }

    /// Nearest-neighbour filtering when drawn scaled (cheap, while moving) or linear (smooth, at rest).
    package func setScaleFilter(nearest: Bool) {
        renderer.failures.check(SDL_SetTextureScaleMode(pointer, nearest ? SDL_ScaleModeNearest : SDL_ScaleModeLinear),
                                "SDL_SetTextureScaleMode")
    }
}
