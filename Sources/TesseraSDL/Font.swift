import CSDL2
import Foundation
import TesseraCore

/// A TrueType font at one pixel size (SDL2_ttf).
package final class Font {
    let pointer: OpaquePointer
    let pointSize: Int
    /// TTF_CloseFont after TTF_Quit crashes inside FreeType; the font keeps SDL_ttf alive.
    private let system: SDLSystem

    package init(system: SDLSystem, path: String, size: Int) throws {
        self.system = system
        guard let font = TTF_OpenFont(path, Int32(size)) else { throw SDLError("TTF_OpenFont \(path)") }
        pointer = font
        pointSize = size
    }

    deinit { TTF_CloseFont(pointer) }

    /// The width in pixels `text` would take, without rendering it.
    package func width(of text: String) throws -> Int {
        var w: Int32 = 0, h: Int32 = 0
        guard TTF_SizeUTF8(pointer, text, &w, &h) == 0 else { throw SDLError("TTF_SizeUTF8") }
        return Int(w)
    }

    /// Renders `text` anti-aliased into a new texture. Called for text that changed, not every frame.
    package func render(_ text: String, color: RGBA, renderer: Renderer) throws -> Texture {
        let sdlColor = SDL_Color(r: color.r, g: color.g, b: color.b, a: color.a)
        guard let surface = TTF_RenderUTF8_Blended(pointer, text.isEmpty ? " " : text, sdlColor) else {
            throw SDLError("TTF_RenderUTF8_Blended")
        }
        defer { SDL_FreeSurface(surface) }
        guard let texture = SDL_CreateTextureFromSurface(renderer.pointer, surface) else {
            throw renderer.failures.recorded(SDLError("SDL_CreateTextureFromSurface"), of: "SDL_CreateTextureFromSurface")
        }
        return try Texture(owning: texture, renderer: renderer)
    }

    /// Where the font comes from: the DejaVu Sans that `fonts-dejavu-core` installs (the Makefile installs
    /// it), or any path in TESSERA_FONT.
    package static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        var candidates: [String] = []
        if let custom = environment["TESSERA_FONT"] { candidates.append(custom) }
        candidates += [
            "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
            "/usr/share/fonts/TTF/DejaVuSans.ttf",
            "/usr/share/fonts/dejavu/DejaVuSans.ttf",
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
