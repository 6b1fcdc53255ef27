import CSDL2
import CTesseraX11
import Foundation
import TesseraCore

/// An SDL window. Its size is in logical points; the renderer's output size is in pixels (HiDPI).
package final class Window {
    let pointer: OpaquePointer
    /// Kept alive so SDL is not shut down under a live window.
    package let system: SDLSystem

    /// - Parameters:
    ///   - fullscreen: made filling the desktop, rather than made and then switched: the window comes up
    ///     once, at its final size, even with no window manager to ask.
    ///   - openGL: made for a GL renderer, which SDL would otherwise make by destroying the window and making
    ///     it again, a window the user has seen come and go; without it when GL cannot be had.
    package init(system: SDLSystem, title: String, width: Int, height: Int, resizable: Bool = true, hidden: Bool = false,
                 fullscreen: Bool = false, openGL: Bool = false) throws {
        var flags = SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        if resizable { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if fullscreen { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if hidden { flags |= SDL_WINDOW_HIDDEN.rawValue }
        let create = { (flags: UInt32) in
            SDL_CreateWindow(title, SDLMacros.windowPositionCentered, SDLMacros.windowPositionCentered,
                             Int32(width), Int32(height), flags)
        }
        guard let window = (openGL ? create(flags | SDL_WINDOW_OPENGL.rawValue) : nil) ?? create(flags) else {
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

    /// Has the X server fill the window with `colour` now, before anything is drawn into it, or stops it
    /// (nil) once frames are drawn. Making the renderer (a GL context, on a software GL renderer with its
    /// shaders compiled) takes longer than making the window, and a window without a background shows
    /// nothing of itself until then. False where the window is not an X11 one.
    @discardableResult
    package func showBackground(_ colour: RGBA?) -> Bool {
        let rgb = colour.map { UInt32($0.r) << 16 | UInt32($0.g) << 8 | UInt32($0.b) } ?? 0
        return tessera_x11_window_background(UnsafeMutableRawPointer(pointer), colour == nil ? 0 : 1, rgb) == 0
    }
}
