import TesseraImaging
import TesseraSDL

/// The one place the display's colour profile is read: from the window, once, at start (on the main
/// thread, which owns SDL). The loaders get the conversion it gives, or nil when colour management is
/// turned off (`--no-colour-management`).
enum DisplayColour {
    static func conversion(for display: DisplayFacts, enabled: Bool) -> ColourConversion? {
        guard enabled else { return nil }
        return ColourConversion(displayProfile: display.colourProfile)
    }
}
