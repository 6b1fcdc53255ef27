import CSDL2
import TesseraCore

package enum MouseButton: Equatable, Sendable { case left, middle, right, other }

/// The SDL_Event union as a Swift enum: the one place that reads it. Coordinates are in logical points.
package enum InputEvent: Equatable, Sendable {
    case quit
    /// A key with its modifiers, spelt as X (and nsxiv's key-handler) name it: a printable key as the
    /// character it typed, Shift and the keyboard layout applied (`M`, `<`); see `InputReader`.
    case keyDown(KeyCombo, isRepeat: Bool)
    case mouseDown(MouseButton, x: Double, y: Double, clicks: Int)
    case mouseUp(MouseButton, x: Double, y: Double)
    case mouseMotion(x: Double, y: Double, isLeftDown: Bool)
    /// Wheel or touchpad: `dx`, `dy` in wheel units (touchpads give fractions; positive dy scrolls up).
    case wheel(dx: Double, dy: Double, x: Double, y: Double)
    /// The window's size in points or in pixels changed (a resize, or a move to an output of another
    /// scale): the viewport and the pixel scale are to be read again.
    case resized
    /// A worker finished something; nothing else to do but run a frame.
    case wake
    /// A file or folder dragged from a file manager and dropped on the window (its byte path as
    /// `PathText` holds it).
    case dropped(path: String)
}

extension InputEvent {
    /// Translates one SDL event other than a key press or typed text (`KeyTranslator` reads those); nil
    /// for events Tessera ignores.
    init?(_ event: SDL_Event, wakeType: UInt32) {
        switch event.type {
        case SDL_QUIT.rawValue:
            self = .quit
        case SDL_MOUSEBUTTONDOWN.rawValue:
            let b = event.button
            self = .mouseDown(MouseButton(sdl: b.button), x: Double(b.x), y: Double(b.y), clicks: Int(b.clicks))
        case SDL_MOUSEBUTTONUP.rawValue:
            let b = event.button
            self = .mouseUp(MouseButton(sdl: b.button), x: Double(b.x), y: Double(b.y))
        case SDL_MOUSEMOTION.rawValue:
            let m = event.motion
            self = .mouseMotion(x: Double(m.x), y: Double(m.y), isLeftDown: m.state & SDLMacros.leftButtonMask != 0)
        case SDL_MOUSEWHEEL.rawValue:
            let w = event.wheel
            var mx: Int32 = 0, my: Int32 = 0
            SDL_GetMouseState(&mx, &my)
            let flipped = w.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1.0 : 1.0
            self = .wheel(dx: Double(w.preciseX) * flipped, dy: Double(w.preciseY) * flipped,
                          x: Double(mx), y: Double(my))
        case SDL_WINDOWEVENT.rawValue:
            let id = SDL_WindowEventID(UInt32(event.window.event))
            // Wayland reports a new output scale as a resize with the same size in points; the display
            // change covers drivers that move a window to another display without one.
            guard id == SDL_WINDOWEVENT_SIZE_CHANGED || id == SDL_WINDOWEVENT_RESIZED
                || id == SDL_WINDOWEVENT_DISPLAY_CHANGED else { return nil }
            self = .resized
        case wakeType:
            self = .wake
        case SDL_DROPFILE.rawValue:
            guard let file = event.drop.file else { return nil }
            defer { SDL_free(file) }
            self = .dropped(path: PathText.text(ofCString: file))
        default:
            return nil
        }
    }
}

extension MouseButton {
    init(sdl button: UInt8) {
        switch Int32(button) {
        case SDL_BUTTON_LEFT: self = .left
        case SDL_BUTTON_MIDDLE: self = .middle
        case SDL_BUTTON_RIGHT: self = .right
        default: self = .other
        }
    }
}
