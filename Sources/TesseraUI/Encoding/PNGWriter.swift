import TesseraCore
import TesseraSDL

/// Writes pixel buffers as PNG (screenshots).
public enum PNGWriter {
    public static func write(_ buffer: PixelBuffer, to path: String) throws {
        try SDLImageFile.writePNG(buffer, to: path)
    }
}
