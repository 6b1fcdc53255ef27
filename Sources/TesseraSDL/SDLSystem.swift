import CSDL2
import Foundation

/// Owns SDL and SDL_ttf initialisation for the life of the app. Create exactly one, on the main thread.
/// No image is decoded through SDL: TesseraImaging's decoders need none.
package final class SDLSystem {
    /// The user event type that workers push to wake the main loop (SDL_PushEvent is thread-safe).
    package let wakeEventType: UInt32
    /// The video driver SDL started (`wayland`, `x11`, `dummy`).
    package let videoDriver: String

    /// - Parameter headless: use SDL's dummy video driver (no display needed), without vsync.
    package init(headless: Bool) throws {
        // The environment's SDL_VIDEODRIVER and SDL_RENDER_VSYNC win over these: SDL_SetHint is false
        // when the environment already sets a hint, the user's choice, which stands.
        if let drivers = VideoDriverChoice.hint(headless: headless, environment: ProcessInfo.processInfo.environment) {
            SDL_SetHint(SDL_HINT_VIDEODRIVER, drivers)
        }
        if headless { SDL_SetHint(SDL_HINT_RENDER_VSYNC, "0") }
        // Window decorations on Wayland stay SDL's: the compositor's where it draws them (KDE, sway), and
        // libdecor's where it draws none (GNOME). SDL loads libdecor at run time; without it a GNOME
        // window has no title bar, so libdecor-0-0 and a plugin are part of the install.
        // Smooth (linear) texture filtering when a texture is drawn scaled.
        SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "1")
        SDL_SetHint(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        guard SDL_Init(SDL_INIT_VIDEO | SDL_INIT_EVENTS) == 0 else { throw SDLError("SDL_Init") }
        videoDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        guard TTF_Init() == 0 else {
            let error = SDLError("TTF_Init")
            SDL_Quit()
            throw error
        }
        // (Uint32)-1 when SDL has no user event types left.
        let wakeEventType = SDL_RegisterEvents(1)
        guard wakeEventType != UInt32.max else {
            TTF_Quit()
            SDL_Quit()
            throw SDLError("SDL_RegisterEvents", message: "no user event types left")
        }
        self.wakeEventType = wakeEventType
    }

    deinit {
        TTF_Quit()
        SDL_Quit()
    }

    package var waker: EventLoopWaker { EventLoopWaker(eventType: wakeEventType) }

    /// What the window's user did while the app waits before its frame loop: asked to quit (closed the
    /// window, or SIGINT or SIGTERM, which SDL turns into a quit), or uncovered part of the window, which
    /// is then to be drawn again. Takes those events and the pointer's moves (which mean nothing after the
    /// wait) from SDL's queue; the rest, resizes and keys among them, stays there for the frame loop.
    package func windowEventsWhileWaiting() -> (quit: Bool, exposed: Bool) {
        SDL_PumpEvents()
        var event = SDL_Event()
        let quit = SDL_PeepEvents(&event, 1, SDL_GETEVENT, SDL_QUIT.rawValue, SDL_QUIT.rawValue) == 1
        SDL_FlushEvent(SDL_MOUSEMOTION.rawValue)
        var exposed = false
        withUnsafeMutablePointer(to: &exposed) { flag in
            SDL_FilterEvents({ flag, event in
                guard let flag, let event, event.pointee.type == SDL_WINDOWEVENT.rawValue,
                      SDL_WindowEventID(UInt32(event.pointee.window.event)) == SDL_WINDOWEVENT_EXPOSED else { return 1 }
                flag.assumingMemoryBound(to: Bool.self).pointee = true
                return 0
            }, flag)
        }
        return (quit, exposed)
    }
}
