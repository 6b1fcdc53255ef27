import CSDL2

/// Owns SDL, SDL_image and SDL_ttf initialisation for the life of the app. Create exactly one, on the
/// main thread, before any worker calls into SDL_image (the anchors' rule: IMG_Init once, first).
public final class SDLSystem {
    public let headless: Bool

    /// - Parameter headless: use SDL's dummy video driver (no display needed) and the software renderer.
    public init(headless: Bool) throws {
        self.headless = headless
        if headless {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, "dummy")
            SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0")
        }
        // Smooth (linear) texture filtering when a texture is drawn scaled.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else { throw SDLError("SDL_Init") }
        let wanted = Int32(IMG_INIT_JPG.rawValue | IMG_INIT_PNG.rawValue | IMG_INIT_WEBP.rawValue | IMG_INIT_TIF.rawValue)
        _ = IMG_Init(wanted)  // formats that fail to load simply stay unsupported
        guard TTF_Init() == 0 else {
            SDL_Quit()
            throw SDLError("TTF_Init")
        }
        wakeEventType = SDL_RegisterEvents(1)
    }

    /// The user event type that workers push to wake the main loop (SDL_PushEvent is thread-safe).
    public private(set) var wakeEventType: UInt32 = 0

    deinit {
        TTF_Quit()
        IMG_Quit()
        SDL_Quit()
    }
}

/// Wakes a main loop blocked in `SDL_WaitEventTimeout` from any thread.
public struct EventLoopWaker: Sendable {
    let eventType: UInt32

    public func wake() {
        guard eventType != UInt32.max, eventType != 0 else { return }
        var event = SDL_Event()
        event.type = eventType
        _ = SDL_PushEvent(&event)
    }
}

extension SDLSystem {
    public var waker: EventLoopWaker { EventLoopWaker(eventType: wakeEventType) }
}
