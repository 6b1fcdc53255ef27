import CSDL2

/// The C macros Tessera needs that SDL defines as expressions, which Swift cannot import, as named
/// constants built from the parts Swift does import.
enum SDLMacros {
    /// `SDL_WINDOWPOS_CENTERED`: centred on the first display.
    static let windowPositionCentered = Int32(bitPattern: SDL_WINDOWPOS_CENTERED_MASK)

    /// `SDL_BUTTON_LMASK`: the left button's bit in a mouse motion event's button state.
    static let leftButtonMask = UInt32(1) << (UInt32(SDL_BUTTON_LEFT) - 1)
}
