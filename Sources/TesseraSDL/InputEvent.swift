import CSDL2

/// The keys Tessera responds to, named; SDL key codes stay inside this file.
public enum Key: Equatable, Sendable {
    case left, right, up, down, pageUp, pageDown, home, end, enter, escape, space
    case character(Character)
    case other(Int32)
}

public enum MouseButton: Equatable, Sendable { case left, middle, right, other }

/// The SDL_Event union as a Swift enum: the one place that reads it. Coordinates are in logical points.
public enum InputEvent: Equatable, Sendable {
    case quit
    case keyDown(Key, isRepeat: Bool)
    case mouseDown(MouseButton, x: Double, y: Double, clicks: Int)
    case mouseUp(MouseButton, x: Double, y: Double)
    case mouseMotion(x: Double, y: Double, isLeftDown: Bool)
    /// Wheel or touchpad: `dx`, `dy` in wheel units (touchpads give fractions; positive dy scrolls up).
    case wheel(dx: Double, dy: Double, x: Double, y: Double)
    case resized
    /// A worker finished something; nothing else to do but run a frame.
    case wake
}

extension InputEvent {
    /// Translates one SDL event; nil for events Tessera ignores.
    init?(_ event: SDL_Event, wakeType: UInt32) {
        switch event.type {
        case SDL_QUIT.rawValue:
            self = .quit
        case SDL_KEYDOWN.rawValue:
            self = .keyDown(Key(sdl: event.key.keysym.sym), isRepeat: event.key.repeat != 0)
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
            guard id == SDL_WINDOWEVENT_SIZE_CHANGED || id == SDL_WINDOWEVENT_RESIZED else { return nil }
            self = .resized
        case wakeType:
            self = .wake
        default:
            return nil
        }
    }

    /// Drains SDL's queue, waiting up to `waitMs` for the first event when asked to. `wakeType` is
    /// `SDLSystem.wakeEventType`, which becomes `.wake`.
    public static func poll(wakeType: UInt32, waitMs: Int32?) -> [InputEvent] {
        var events: [InputEvent] = []
        var event = SDL_Event()
        if let waitMs, SDL_WaitEventTimeout(&event, waitMs) == 1 {
            if let e = InputEvent(event, wakeType: wakeType) { events.append(e) }
        }
        while SDL_PollEvent(&event) == 1 {
            if let e = InputEvent(event, wakeType: wakeType) { events.append(e) }
        }
        return events
    }
}

extension Key {
    init(sdl code: SDL_Keycode) {
        switch code {
        case Int32(SDLK_LEFT.rawValue): self = .left
        case Int32(SDLK_RIGHT.rawValue): self = .right
        case Int32(SDLK_UP.rawValue): self = .up
        case Int32(SDLK_DOWN.rawValue): self = .down
        case Int32(SDLK_PAGEUP.rawValue): self = .pageUp
        case Int32(SDLK_PAGEDOWN.rawValue): self = .pageDown
        case Int32(SDLK_HOME.rawValue): self = .home
        case Int32(SDLK_END.rawValue): self = .end
        case Int32(SDLK_RETURN.rawValue), Int32(SDLK_KP_ENTER.rawValue): self = .enter
        case Int32(SDLK_ESCAPE.rawValue): self = .escape
        case Int32(SDLK_SPACE.rawValue): self = .space
        case Int32(SDLK_PLUS.rawValue), Int32(SDLK_KP_PLUS.rawValue), Int32(SDLK_EQUALS.rawValue): self = .character("+")
        case Int32(SDLK_MINUS.rawValue), Int32(SDLK_KP_MINUS.rawValue): self = .character("-")
        case 32..<127:
            self = .character(Character(UnicodeScalar(UInt8(code))))
        default:
            self = .other(code)
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
