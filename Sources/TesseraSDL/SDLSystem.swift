import CSDL2
import Logging

/// Owns SDL, SDL_image and SDL_ttf initialisation for the life of the app. Create exactly one, on the
/// main thread, before any worker calls into SDL_image (the anchors' rule: IMG_Init once, first).
public final class SDLSystem {
    /// The user event type that workers push to wake the main loop (SDL_PushEvent is thread-safe).
    public let wakeEventType: UInt32

    /// - Parameters:
    ///   - headless: use SDL's dummy video driver (no display needed), without vsync.
    ///   - logger: where the image formats SDL_image cannot load are reported.
    public init(headless: Bool, logger: Logger = Logger(label: "tessera.sdl")) throws {
        // SDL_SetHint is false only when the environment already sets the hint (SDL_VIDEODRIVER, ...):
        // the user's choice, which stands.
        if headless {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy")
            SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0")
        }
        // Smooth (linear) texture filtering when a texture is drawn scaled.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else { throw SDLError("SDL_Init") }
        // A format SDL_image cannot load stays unsupported: its files fail to decode with SDL_image's reason.
        let wanted: [(flag: IMG_InitFlags, name: String)] = [(IMG_INIT_JPG, "JPEG"), (IMG_INIT_PNG, "PNG"),
                                                             (IMG_INIT_WEBP, "WebP"), (IMG_INIT_TIF, "TIFF")]
        let loaded = IMG_Init(Int32(wanted.reduce(0) { $0 | $1.flag.rawValue }))
        let missing = wanted.filter { Int32($0.flag.rawValue) & loaded == 0 }.map(\.name)
        if !missing.isEmpty {
            logger.notice("SDL_image cannot decode \(missing.joined(separator: ", ")): \(String(cString: SDL_GetError()))")
        }
        guard TTF_Init() == 0 else {
            let error = SDLError("TTF_Init")
            IMG_Quit()
            SDL_Quit()
            throw error
        }
        // (Uint32)-1 when SDL has no user event types left.
        let wakeEventType = SDL_RegisterEvents(1)
        guard wakeEventType != UInt32.max else {
            TTF_Quit()
            IMG_Quit()
            SDL_Quit()
            throw SDLError("SDL_RegisterEvents", message: "no user event types left")
        }
        self.wakeEventType = wakeEventType
    }

    deinit {
        TTF_Quit()
        IMG_Quit()
        SDL_Quit()
    }

    public var waker: EventLoopWaker { EventLoopWaker(eventType: wakeEventType) }
}
