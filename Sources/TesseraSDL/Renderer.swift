import CSDL2
import Logging
import TesseraCore

/// Integer pixel rectangle for drawing, in output pixels: the core's pixel rectangle.
package typealias PixelRect = PixelRegion

extension PixelRect {
    var sdl: SDL_Rect { SDL_Rect(x: Int32(x), y: Int32(y), w: Int32(width), h: Int32(height)) }
}

/// An SDL renderer bound to a window. All drawing is in output pixels.
///
/// Drawing calls do not throw: a failed one is counted and logged once in `failures`, which also counts
/// the failures of this renderer's textures.
package final class Renderer {
    let pointer: OpaquePointer
    /// The renderer must go before its window; holding it guarantees that.
    package let window: Window
    package let isSoftware: Bool
    /// The largest texture the renderer accepts; 0 means no limit (the software renderer).
    package let maxTextureSize: PixelSize
    let failures: SDLFailureLog

    /// A renderer for `window`: the software one when asked, else an accelerated one, falling back to
    /// software when the accelerated one cannot be made.
    package init(window: Window, software: Bool, vsync: Bool, logger: Logger = Logger(label: "tessera.sdl")) throws {
        var flags = software ? SDL_RENDERER_SOFTWARE.rawValue : SDL_RENDERER_ACCELERATED.rawValue
        if vsync && !software { flags |= SDL_RENDERER_PRESENTVSYNC.rawValue }
        var created = SDL_CreateRenderer(window.pointer, -1, flags)
        if created == nil && !software {
            created = SDL_CreateRenderer(window.pointer, -1, SDL_RENDERER_SOFTWARE.rawValue)
        }
        guard let renderer = created else { throw SDLError("SDL_CreateRenderer") }
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND) == 0 else {
            let error = SDLError("SDL_GetRendererInfo or SDL_SetRenderDrawBlendMode")
            SDL_DestroyRenderer(renderer)
            throw error
        }
        pointer = renderer
        self.window = window
        isSoftware = info.flags & SDL_RENDERER_SOFTWARE.rawValue != 0
        maxTextureSize = PixelSize(width: Int(info.max_texture_width), height: Int(info.max_texture_height))
        failures = SDLFailureLog(logger: logger)
    }

    deinit { SDL_DestroyRenderer(pointer) }

    /// The drawable size in pixels (larger than the window's point size on HiDPI); zero if SDL cannot say.
    package var outputSize: PixelSize {
        var w: Int32 = 0, h: Int32 = 0
        failures.check(SDL_GetRendererOutputSize(pointer, &w, &h), "SDL_GetRendererOutputSize")
        return PixelSize(width: Int(w), height: Int(h))
    }

    /// A texture of `width` by `height` pixels: ARGB8888, or without an alpha channel when `opaque`
    /// (XRGB8888, the same bytes as ARGB8888: for opaque images, whose fades SDL then blends with one
    /// constant alpha instead of per pixel).
    package func makeTexture(width: Int, height: Int, opaque: Bool = false,
                            access: Texture.Access = .streaming) throws -> Texture {
        let limit = maxTextureSize
        if (limit.width > 0 && width > limit.width) || (limit.height > 0 && height > limit.height) {
            throw SDLError("SDL_CreateTexture \(width)x\(height)", message: "larger than the renderer's limit \(limit)")
        }
        return try Texture(renderer: self, width: width, height: height, opaque: opaque, access: access)
    }

    /// `makeTexture(width:height:opaque: true)`.
    package func makeOpaqueTexture(width: Int, height: Int) throws -> Texture {
        try makeTexture(width: width, height: height, opaque: true)
    }

    /// A straight line in output pixels.
    package func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), _ color: RGBA) {
        setColor(color)
        failures.check(SDL_RenderDrawLine(pointer, Int32(start.x), Int32(start.y), Int32(end.x), Int32(end.y)),
                       "SDL_RenderDrawLine")
    }

    /// Sets the colour of fills and lines. Only translucent colours blend: SDL's software renderer fills
    /// with a blend mode pixel by pixel even at full alpha, but an opaque fill without one is a row fill,
    /// much the cheaper of the two over a whole window.
    package func setColor(_ c: RGBA) {
        failures.check(SDL_SetRenderDrawColor(pointer, c.r, c.g, c.b, c.a), "SDL_SetRenderDrawColor")
        let blends = c.a < 255
        if blends != drawColorBlends {
            let status = SDL_SetRenderDrawBlendMode(pointer, blends ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE)
            failures.check(status, "SDL_SetRenderDrawBlendMode")
            if status == 0 { drawColorBlends = blends }
        }
    }

    /// Whether the renderer's draw blend mode is currently `SDL_BLENDMODE_BLEND`.
    private var drawColorBlends = true

    package func clear(_ c: RGBA) {
        setColor(c)
        failures.check(SDL_RenderClear(pointer), "SDL_RenderClear")
    }

    package func fill(_ rect: PixelRect, _ c: RGBA) {
        setColor(c)
        var r = rect.sdl
        failures.check(SDL_RenderFillRect(pointer, &r), "SDL_RenderFillRect")
    }

    package func outline(_ rect: PixelRect, _ c: RGBA, thickness: Int = 1) {
        guard thickness > 0 else { return }
        fill(PixelRect(x: rect.x, y: rect.y, width: rect.width, height: thickness), c)
        fill(PixelRect(x: rect.x, y: rect.y + rect.height - thickness, width: rect.width, height: thickness), c)
        fill(PixelRect(x: rect.x, y: rect.y + thickness, width: thickness, height: rect.height - 2 * thickness), c)
        fill(PixelRect(x: rect.x + rect.width - thickness, y: rect.y + thickness, width: thickness,
                       height: rect.height - 2 * thickness), c)
    }

    /// Draws `source` (a part of the texture, whole texture if nil) into `destination`.
    package func draw(_ texture: Texture, source: PixelRect? = nil, destination: PixelRect) {
        var dst = destination.sdl
        let status: Int32
        if var src = source?.sdl {
            status = SDL_RenderCopy(pointer, texture.pointer, &src, &dst)
        } else {
            status = SDL_RenderCopy(pointer, texture.pointer, nil, &dst)
        }
        failures.check(status, "SDL_RenderCopy")
    }

    /// Limits drawing to `rect`, or lifts the limit (nil).
    package func setClip(_ rect: PixelRect?) {
        let status: Int32
        if var r = rect?.sdl { status = SDL_RenderSetClipRect(pointer, &r) } else { status = SDL_RenderSetClipRect(pointer, nil) }
        failures.check(status, "SDL_RenderSetClipRect")
    }

    /// Draws into `rect` of the output (nil: all of it) as if it were the whole output: coordinates and
    /// clip rectangles are relative to it, and nothing is drawn outside it. The compare view's panes.
    package func setViewport(_ rect: PixelRect?) {
        let status: Int32
        if var r = rect?.sdl { status = SDL_RenderSetViewport(pointer, &r) } else { status = SDL_RenderSetViewport(pointer, nil) }
        failures.check(status, "SDL_RenderSetViewport")
    }

    package func present() { SDL_RenderPresent(pointer) }

    /// Reads back the current frame (call before `present`, as SDL requires for some renderers).
    package func readPixels() throws -> PixelBuffer {
        let size = outputSize
        var bytes = [UInt8](repeating: 0, count: size.width * size.height * 4)
        let status = bytes.withUnsafeMutableBytes { raw in
            SDL_RenderReadPixels(pointer, nil, SDL_PIXELFORMAT_ARGB8888.rawValue, raw.baseAddress, Int32(size.width * 4))
        }
        guard status == 0 else { throw failures.recorded(SDLError("SDL_RenderReadPixels"), of: "SDL_RenderReadPixels") }
        return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
    }
}
