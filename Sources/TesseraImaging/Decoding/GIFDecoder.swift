import Foundation
import TesseraCore

/// GIF through giflib: the first frame, on a transparent canvas of the file's screen size, its
/// transparent colour see-through: the still that cells, thumbnails and the single view show first.
/// `GIFAnimationReader` reads the frames after it from the same `GIFFile` and plays them.
package struct GIFDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .gif }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            let file = try GIFFile(raw)
            guard let first = try file.nextFrame() else { throw .decodeFailed("GIF without an image") }
            var pixels = first.pixels
            pixels.damage = first.damage
            return pixels
        }
    }
}
