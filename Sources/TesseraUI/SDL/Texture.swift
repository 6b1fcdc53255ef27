import CSDL2
import TesseraCore

/// A streaming ARGB8888 texture. Created, updated and destroyed on the main thread only.
public final class Texture {
    let pointer: OpaquePointer
    /// Textures belong to their renderer and must be destroyed before it.
    private let renderer: Renderer
    public let width: Int
    public let height: Int

    init(renderer: Renderer, width: Int, height: Int) throws {
        guard let texture = SDL_CreateTexture(renderer.pointer, SDL_PIXELFORMAT_ARGB8888.rawValue,
                                              Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                              Int32(width), Int32(height)) else {
            throw SDLError("SDL_CreateTexture \(width)x\(height)")
        }
        pointer = texture
        self.renderer = renderer
        self.width = width
        self.height = height
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
    }

    /// Wraps a texture SDL made (e.g. from a text surface); takes ownership.
    init(owning texture: OpaquePointer, renderer: Renderer) {
        pointer = texture
        self.renderer = renderer
        var w: Int32 = 0, h: Int32 = 0
        SDL_QueryTexture(texture, nil, nil, &w, &h)
        width = Int(w)
        height = Int(h)
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
    }

    deinit { SDL_DestroyTexture(pointer) }

    /// Copies `buffer` into the top-left corner of the texture. Returns the bytes uploaded.
    @discardableResult
    public func upload(_ buffer: PixelBuffer) -> Int {
        precondition(buffer.width <= width && buffer.height <= height, "upload larger than texture")
        var rect = SDL_Rect(x: 0, y: 0, w: Int32(buffer.width), h: Int32(buffer.height))
        buffer.bytes.withUnsafeBytes { raw in
            _ = SDL_UpdateTexture(pointer, &rect, raw.baseAddress, Int32(buffer.bytesPerRow))
        }
        return buffer.cost
    }

    /// Lets `body` write the pixels of `area` in place (`SDL_LockTexture`: on the software renderer the
    /// texture's own memory, elsewhere a buffer SDL uploads on unlock), with the bytes per row. Every pixel
    /// of the area must be written: SDL does not say what the lock starts with. False, and `body` not
    /// called, if SDL cannot lock the texture.
    func withLockedPixels(in area: PixelRect, _ body: (UnsafeMutableRawPointer, _ bytesPerRow: Int) -> Bool) -> Bool {
        precondition(area.x >= 0 && area.y >= 0 && area.maxX <= width && area.maxY <= height, "lock outside the texture")
        var rect = SDL_Rect(x: Int32(area.x), y: Int32(area.y), w: Int32(area.width), h: Int32(area.height))
        var pixels: UnsafeMutableRawPointer?
        var pitch: Int32 = 0
        guard SDL_LockTexture(pointer, &rect, &pixels, &pitch) == 0, let pixels else { return false }
        defer { SDL_UnlockTexture(pointer) }
        return body(pixels, Int(pitch))
    }

    /// Alpha multiplier for the next draws, 0...1.
    public func setAlpha(_ alpha: Double) {
        setAlphaModulation(Self.alphaModulation(alpha))
    }

    /// The alpha multiplier as SDL holds it: 255 is none.
    public var alpha: UInt8 {
        var value: UInt8 = 0
        SDL_GetTextureAlphaMod(pointer, &value)
        return value
    }

    func setAlphaModulation(_ value: UInt8) {
        SDL_SetTextureAlphaMod(pointer, value)
    }

    /// `alpha` (0...1) as the byte SDL multiplies by.
    static func alphaModulation(_ alpha: Double) -> UInt8 {
        UInt8((max(0, min(1, alpha)) * 255).rounded())
    }

    /// Alpha blending on (the default) or off: an opaque image drawn without blending is a plain copy.
    public func setBlending(_ on: Bool) {
        SDL_SetTextureBlendMode(pointer, on ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
    }

    public var isBlending: Bool {
        var mode = SDL_BLENDMODE_NONE
        SDL_GetTextureBlendMode(pointer, &mode)
        return mode != SDL_BLENDMODE_NONE
    }

    /// Nearest-neighbour filtering when drawn scaled (cheap, while moving) or linear (smooth, at rest).
    public func setScaleFilter(nearest: Bool) {
        SDL_SetTextureScaleMode(pointer, nearest ? SDL_ScaleModeNearest : SDL_ScaleModeLinear)
    }

    public func setColorMod(r: UInt8, g: UInt8, b: UInt8) {
        SDL_SetTextureColorMod(pointer, r, g, b)
    }
}
