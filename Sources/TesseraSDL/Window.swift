import CSDL2
import Foundation

/// An SDL window. Its size is in logical points; the renderer's output size is in pixels (HiDPI).
package final class Window {
    let pointer: OpaquePointer
    /// Kept alive so SDL is not shut down under a live window.
    package let system: SDLSystem

    /// - Parameter fullscreen: made filling the desktop, rather than made and then switched: the window
    ///   comes up once, at its final size, even with no window manager to ask.
    package init(system: SDLSystem, title: String, width: Int, height: Int, resizable: Bool = true, hidden: Bool = false,
                 fullscreen: Bool = false) throws {
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
        guard let window = SDL_CreateWindow(title, SDLMacros.windowPositionCentered, SDLMacros.windowPositionCentered,
                                            Int32(width), Int32(height), flags) else {
            throw SDLError("SDL_CreateWindow")
        }
        pointer = window
        self.system = system
    }

    deinit { SDL_DestroyWindow(pointer) }

    /// The window's size in logical points.
    package var size: (width: Int, height: Int) {
        var w: Int32 = 0, h: Int32 = 0
        SDL_GetWindowSize(pointer, &w, &h)
        return (Int(w), Int(h))
    }

    package var isFullscreen: Bool {
        SDL_GetWindowFlags(pointer) & SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue != 0
    }

    /// Fills the desktop with the window, or puts it back. Throws if the window manager refuses; the window
    /// then stays as it was.
    package func setFullscreen(_ on: Bool) throws {
        guard SDL_SetWindowFullscreen(pointer, on ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0) == 0 else {
            throw SDLError("SDL_SetWindowFullscreen")
        }
    }

    package func setTitle(_ title: String) { SDL_SetWindowTitle(pointer, title) }
}
