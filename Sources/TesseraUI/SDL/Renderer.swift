import CSDL2
import TesseraCore

/// Integer pixel rectangle for drawing, in output pixels: the core's pixel rectangle.
public typealias PixelRect = PixelRegion

extension PixelRect {
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}

/// An SDL renderer bound to a window. All drawing is in output pixels.
public final class Renderer {
    let pointer: OpaquePointer
    /// The renderer must go before its window; holding it guarantees that.
    public let window: Window
    public let isSoftware: Bool

    public init(window: Window, software: Bool, vsync: Bool) throws {
        var flags = software ? SDL_RENDERER_SOFTWARE.rawValue : SDL_RENDERER_ACCELERATED.rawValue
        if vsync && !software { flags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        var created = SDL_CreateRenderer(window.pointer, -1, flags)
        if created == nil && !software {
            created = SDL_CreateRenderer(window.pointer, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let renderer = created else { throw SDLError("SDL_CreateRenderer") }
        pointer = renderer
        self.window = window
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        isSoftware = info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0
        maxTextureSize = PixelSize(width: Int(info.max_texture_width), height: Int(info.max_texture_height))
        name = info.name.map { String(cString: $0) } ?? "unknown"
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    deinit { SDL_DestroyRenderer(pointer) }

    public let name: String
    /// The largest texture the renderer accepts; 0 means no limit (the software renderer).
    public let maxTextureSize: PixelSize

    /// The drawable size in pixels (larger than the window's point size on HiDPI).
    public var outputSize: PixelSize {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetRendererOutputSize(pointer, &w, &h)
        return PixelSize(width: Int(w), height: Int(h))
    }

    public func makeTexture(width: Int, height: Int) throws -> Texture {
        let limit = maxTextureSize
        if (limit.width > 0 && width > limit.width) || (limit.height > 0 && height > limit.height) {
            throw SDLError("texture \(width)x\(height) exceeds the renderer limit \(limit)")
        }
        return try Texture(renderer: self, width: width, height: height)
    }

    /// `makeOpaqueTexture` for images known to be opaque, `makeTexture` for the others.
    public func makeTexture(width: Int, height: Int, opaque: Bool) throws -> Texture {
        opaque ? try makeOpaqueTexture(width: width, height: height) : try makeTexture(width: width, height: height)
    }

    /// A streaming texture without an alpha channel (XRGB8888, the same bytes as ARGB8888): for opaque
    /// images, whose fades SDL then blends with one constant alpha instead of per pixel.
    public func makeOpaqueTexture(width: Int, height: Int) throws -> Texture {
        let limit = maxTextureSize
        if (limit.width > 0 && width > limit.width) || (limit.height > 0 && height > limit.height) {
            throw SDLError("texture \(width)x\(height) exceeds the renderer limit \(limit)")
        }
        guard let texture = SDL_CreateTexture(pointer, SDL_PIXELFORMAT_RGB888.rawValue,
                                              Int32(SDL_TEXTUREACCESS_STREAMING.rawValue), Int32(width), Int32(height)) else {
            throw SDLError("SDL_CreateTexture \(width)x\(height)")
        }
        return Texture(owning: texture, renderer: self)
    }

    /// A straight line in output pixels.
    public func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), _ color: RGBA) {
        setColor(color)
        SDL_RenderDrawLine(pointer, Int32(start.x), Int32(start.y), Int32(end.x), Int32(end.y))
    }

    /// Sets the colour of fills and lines. Only translucent colours blend: SDL's software renderer fills
    /// with a blend mode pixel by pixel even at full alpha, but an opaque fill without one is a row fill
    /// (on the 2-core build machine, the strip's frames took about 40 % less time; docs/PERFORMANCE.md).
    public func setColor(_ c: RGBA) {
        SDL_SetRenderDrawColor(pointer, c.r, c.g, c.b, c.a)
        let blends = c.a < 255
        if blends != drawColorBlends {
            SDL_SetRenderDrawBlendMode(pointer, blends ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
            drawColorBlends = blends
        }
    }

    /// Whether the renderer's draw blend mode is currently `SDL_BLENDMODE_BLEND`.
    private var drawColorBlends = true

    public func clear(_ c: RGBA) {
        setColor(c)
        SDL_RenderClear(pointer)
    }

    public func fill(_ rect: PixelRect, _ c: RGBA) {
        setColor(c)
        var r = rect.sdl
        SDL_RenderFillRect(pointer, &r)
    }

    public func outline(_ rect: PixelRect, _ c: RGBA, thickness: Int = 1) {
        guard thickness > 0 else { return }
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: thickness), c)
        fill(PixelRect(x: rect.x, y: rect.y + rect.height - thickness, width: rect.width, height: thickness), c)
        fill(PixelRect(x: rect.x, y: rect.y + thickness, width: thickness, height: rect.height - 2 * thickness), c)
        fill(PixelRect(x: rect.x + rect.width - thickness, y: rect.y + thickness, width: thickness,
                       height: rect.height - 2 * thickness), c)
    }

    /// Draws `source` (a part of the texture, whole texture if nil) into `destination`.
    public func draw(_ texture: Texture, source: PixelRect? = nil, destination: PixelRect) {
        var dst = destination.sdl
        if var src = source?.sdl {
            SDL_RenderCopy(pointer, texture.pointer, &src, &dst)
        } else {
            SDL_RenderCopy(pointer, texture.pointer, nil, &dst)
        }
    }

    public func setClip(_ rect: PixelRect?) {
        if var r = rect?.sdl { SDL_RenderSetClipRect(pointer, &r) } else { SDL_RenderSetClipRect(pointer, nil) }
    }

    public func present() { SDL_RenderPresent(pointer) }

    /// Reads back the current frame (call before `present`, as SDL requires for some renderers).
    public func readPixels() throws -> PixelBuffer {
        let size = outputSize
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = bytes.withUnsafeMutableBytes { raw in
            SDL_RenderReadPixels(pointer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, raw.baseAddress, Int32(size.width * 4))
        }
        guard status == 0 else { throw SDLError("SDL_RenderReadPixels") }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }
}
