import TesseraCore
import TesseraImaging

/// Writes pixel buffers as PNG files (screenshots of what SDL read back), through Imaging's one PNG writer.
package enum PNGWriter {
    package static func write(_ buffer: PixelBuffer, to path: String) throws {
        try PNGEncoder.write(buffer, to: path)
    }
}
