import TesseraImaging
import TesseraSDL

/// The one place the display's colour profile becomes a conversion: from what the display said before SDL
/// started (`DisplayFacts`), once. The loaders get the conversion it gives, or nil when colour management
/// is turned off (`--no-colour-management`).
enum DisplayColour {
    static func conversion(for display: DisplayFacts, enabled: Bool) -> ColourConversion? {
        guard enabled else { return nil }
        return ColourConversion(displayProfile: display.colourProfile)
    }
}
