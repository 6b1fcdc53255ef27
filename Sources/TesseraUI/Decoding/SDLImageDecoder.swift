import Foundation
import TesseraCore
import TesseraImaging
import TesseraSDL

/// Decodes the formats SDL_image reads (PNG, WebP, GIF's first frame, BMP, TIFF, ...) on a worker thread
/// into ARGB8888 pixels (`SDLImageFile`): the decoders' fallback, for the formats that have no decoder of
/// their own. Requires `SDLSystem` (IMG_Init) to exist first.
public struct SDLImageDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool {
        switch format {
        case .png, .gif, .webp, .bmp, .tiff, .jpeg: return true
        case .unknown: return false
        }
    }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        do {
            return try SDLImageFile.decodeARGB8888(data)
        } catch {
            throw ImageLoadError.Reason.decodeFailed(error.message)
        }
    }
}

extension ImageDecoders {
    /// Every decoder the viewer uses: the shrinking ones, then SDL_image for GIF, BMP, TIFF and the rest.
    public static var viewer: [any ImageDecoding] { standard(fallback: [SDLImageDecoder()]) }
}
