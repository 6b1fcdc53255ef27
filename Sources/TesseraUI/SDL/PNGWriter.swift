import TesseraCore
import TesseraImaging

/// Writes pixels SDL read back from the renderer (screenshots) as a PNG file, through Imaging's one PNG
/// writer.
public enum PNGWriter {
    public static func write(_ buffer: PixelBuffer, to path: String) throws {
        try PNGEncoder.write(buffer, to: path)
    }
}
