import CTesseraX11
import Foundation

/// What the display says of itself before SDL starts: its size and colour profile. Read this early, the
/// image named at start can be opened for its window while SDL and the renderer are made.
package struct DisplayFacts: Sendable {
    /// The screen's size in pixels; nil when unknown (Wayland, headless).
    package var screenSize: (width: Int, height: Int)?
    /// The display's ICC profile (X11's `_ICC_PROFILE`); nil when none is set or the window system has no
    /// such thing (Wayland, SDL's dummy driver).
    package var colourProfile: [UInt8]?

    /// The facts of the display SDL will use: X11's, read on a connection of its own, when SDL will draw
    /// through X11; none otherwise.
    package static func beforeSDL(headless: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> DisplayFacts {
        guard VideoDriverChoice.usesX11(headless: headless, environment: environment) else { return DisplayFacts() }
        var data: UnsafeMutablePointer<UInt8>?
        var size = 0
        var width: Int32 = 0, height: Int32 = 0
        guard tessera_x11_display_facts(&data, &size, &width, &height) != 0 else { return DisplayFacts() }
        defer { free(data) }
        return DisplayFacts(screenSize: (Int(width), Int(height)),
                            colourProfile: data.map { Array(UnsafeBufferPointer(start: $0, count: size)) })
    }

    package init(screenSize: (width: Int, height: Int)? = nil, colourProfile: [UInt8]? = nil) {
        self.screenSize = screenSize
        self.colourProfile = colourProfile
    }
}
