import CSDL2
import TesseraCore

/// Reads SDL's event queue into `InputEvent`s, one reader for the life of a window (key presses and the
/// text they type arrive as two events; the reader pairs them).
package final class InputReader {
    private let wakeType: UInt32
    private var keys = KeyTranslator()

    /// `wakeType` is `SDLSystem.wakeEventType`, which becomes `.wake`.
    package init(wakeType: UInt32) {
        self.wakeType = wakeType
        // SDL starts text input by default on desktops; printable keys depend on it, so it is asked for.
        SDL_StartTextInput()
    }

    /// Drains SDL's queue, waiting up to `waitMs` for the first event when asked to.
    package func poll(waitMs: Int32?) -> [InputEvent] {
        var events: [InputEvent] = []
        var event = SDL_Event()
        if let waitMs, SDL_WaitEventTimeout(&event, waitMs) == 1 { read(event, into: &events) }
        while SDL_PollEvent(&event) == 1 { read(event, into: &events) }
        return events
    }

    private func read(_ event: SDL_Event, into events: inout [InputEvent]) {
        switch event.type {
        case SDL_KEYDOWN.rawValue:
            let key = event.key
            if let press = keys.keyDown(code: key.keysym.sym, modifiers: KeyTranslator.Modifiers(sdl: key.keysym.mod),
                                        isRepeat: key.repeat != 0) {
                events.append(press)
            }
        case SDL_TEXTINPUT.rawValue:
            var text = event.text.text
            let typed = withUnsafeBytes(of: &text) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            events += keys.typed(typed)
        default:
            if let translated = InputEvent(event, wakeType: wakeType) { events.append(translated) }
        }
    }
}

/// Turns SDL's key presses and typed text into key combos as X spells them, so that a key means what it
/// typed on the user's layout (`>` is `>` on a German keyboard too) as nsxiv's bindings do.
///
/// SDL reports a key press (the unshifted key, with modifiers) and then, for a key that types something,
/// the text it typed (Shift and the layout applied). A printable key pressed without Ctrl or Alt is taken
/// from its text; a named key (arrows, Return, Delete, F5, space) and any key with Ctrl or Alt from the
/// press, a letter with Shift as its capital. The text a press with Ctrl or Alt still types is dropped,
/// so no key counts twice.
struct KeyTranslator {
    struct Modifiers: Equatable {
        var control = false, alt = false, shift = false

        init(control: Bool = false, alt: Bool = false, shift: Bool = false) {
            self.control = control
            self.alt = alt
            self.shift = shift
        }

        init(sdl mod: UInt16) {
            let mod = UInt32(mod)
            control = mod & KMOD_CTRL.rawValue != 0
            alt = mod & KMOD_ALT.rawValue != 0
            shift = mod & KMOD_SHIFT.rawValue != 0
        }
    }

    /// The last press already counted for what it types.
    private var swallowsText = false
    /// Whether the press whose text is awaited is a key repeat.
    private var pendingRepeat = false

    /// The event for a key press; nil when its text will say what it typed, or it is a key Tessera does
    /// not name (a modifier alone, a media key).
    mutating func keyDown(code: Int32, modifiers: Modifiers, isRepeat: Bool) -> InputEvent? {
        swallowsText = false
        if let name = Self.namedKeys[code] {
            // The space bar types a space too.
            swallowsText = true
            return .keyDown(KeyCombo(key: name, control: modifiers.control, alt: modifiers.alt, shift: modifiers.shift),
                            isRepeat: isRepeat)
        }
        guard (33...126).contains(code), modifiers.control || modifiers.alt else {
            pendingRepeat = isRepeat
            return nil
        }
        var character = Character(Unicode.Scalar(UInt8(code)))
        if modifiers.shift, character.isLetter { character = Character(character.uppercased()) }
        guard let combo = KeyCombo(typed: character, control: modifiers.control, alt: modifiers.alt,
                                   shift: modifiers.shift) else { return nil }
        swallowsText = true
        return .keyDown(combo, isRepeat: isRepeat)
    }

    /// The events for text typed: one per printable ASCII character, unless its press already counted.
    mutating func typed(_ text: String) -> [InputEvent] {
        guard !swallowsText else {
            swallowsText = false
            return []
        }
        return text.compactMap { character in
            guard character != " ", let combo = KeyCombo(typed: character) else { return nil }
            return .keyDown(combo, isRepeat: pendingRepeat)
        }
    }

    /// Keys that type nothing (or, the space bar, only a space), by SDL key code.
    private static let namedKeys: [Int32: String] = {
        var names: [Int32: String] = [
            Int32(SDLK_RETURN.rawValue): "Return", Int32(SDLK_KP_ENTER.rawValue): "Return",
            Int32(SDLK_ESCAPE.rawValue): "Escape", Int32(SDLK_BACKSPACE.rawValue): "BackSpace",
            Int32(SDLK_TAB.rawValue): "Tab", Int32(SDLK_DELETE.rawValue): "Delete", Int32(SDLK_INSERT.rawValue): "Insert",
            Int32(SDLK_HOME.rawValue): "Home", Int32(SDLK_END.rawValue): "End",
            Int32(SDLK_PAGEUP.rawValue): "Prior", Int32(SDLK_PAGEDOWN.rawValue): "Next",
            Int32(SDLK_LEFT.rawValue): "Left", Int32(SDLK_RIGHT.rawValue): "Right",
            Int32(SDLK_UP.rawValue): "Up", Int32(SDLK_DOWN.rawValue): "Down", Int32(SDLK_SPACE.rawValue): "space",
        ]
        let functionKeys = [SDLK_F1, SDLK_F2, SDLK_F3, SDLK_F4, SDLK_F5, SDLK_F6, SDLK_F7, SDLK_F8, SDLK_F9, SDLK_F10,
                            SDLK_F11, SDLK_F12]
        for (number, key) in functionKeys.enumerated() { names[Int32(key.rawValue)] = "F\(number + 1)" }
        return names
    }()
}
