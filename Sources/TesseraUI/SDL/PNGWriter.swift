import CSDL2
import TesseraCore

/// Writes pixel buffers as PNG through SDL_image (screenshots).
public enum PNGWriter {
    public static func write(_ buffer: PixelBuffer, to path: String) throws {
        var bytes = buffer.bytes
        try bytes.withUnsafeMutableBytes { raw in
            guard let surface = SDL_CreateRGBSurfaceWithFormatFrom(
                raw.baseAddress, Int32(buffer.width), Int32(buffer.height), 32, Int32(buffer.bytesPerRow),
                SDL_PIXELFORMAT_ARGB8888.rawValue) else { throw SDLError("SDL_CreateRGBSurfaceWithFormatFrom") }
            defer { SDL_FreeSurface(surface) }
            guard IMG_SavePNG(surface, path) == 0 else { throw SDLError("IMG_SavePNG \(path)") }
        }
    }
}
