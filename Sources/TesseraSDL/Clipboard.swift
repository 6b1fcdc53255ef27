import CSDL2

/// The desktop's clipboard, through SDL: text only (SDL 2 has no image clipboard). Main thread only.
package enum Clipboard {
    package static func setText(_ text: String) throws {
        guard SDL_SetClipboardText(text) == 0 else { throw SDLError("SDL_SetClipboardText") }
    }

    /// What the clipboard holds as text; nil when it holds none.
    package static var text: String? {
        guard SDL_HasClipboardText() == SDL_TRUE, let pointer = SDL_GetClipboardText() else { return nil }
        defer { SDL_free(pointer) }
        return String(cString: pointer)
    }
}
