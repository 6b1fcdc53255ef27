import CSDL2
import Foundation
import TesseraCore
import TesseraImaging

/// Decodes the formats SDL_image reads (PNG, WebP, GIF's first frame, BMP, TIFF, ...) on a worker thread
/// into ARGB8888 pixels. JPEG goes to TurboJPEG instead, which can shrink while it decodes.
/// Requires `SDLSystem` (IMG_Init) to exist first.
public struct SDLImageDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool {
        switch format {
        // JPEG and WebP have decoders of their own that shrink while decoding; SDL_image is the fallback.
        case .png, .gif, .webp, .bmp, .tiff, .jpeg: return true
        case .unknown: return false
        }
    }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else {
                throw ImageLoadError.Reason.decodeFailed(String(cString: SDL_GetError()))
            }
            guard let decoded = IMG_Load_RW(rw, 1) else {
                throw ImageLoadError.Reason.decodeFailed(String(cString: SDL_GetError()))
            }
            defer { SDL_FreeSurface(decoded) }
            // Convert straight into the buffer we return: one full-size copy fewer than converting the
            // surface first (a 5120x2880 PNG is 59 MB a copy).
            let width = Int(decoded.pointee.w), height = Int(decoded.pointee.h)
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            SDL_LockSurface(decoded)
            defer { SDL_UnlockSurface(decoded) }
            let status = bytes.withUnsafeMutableBytes { dest in
                SDL_ConvertPixels(Int32(width), Int32(height), decoded.pointee.format.pointee.format,
                                  decoded.pointee.pixels, decoded.pointee.pitch,
                                  SDL_PIXELFORMAT_ARGB8888.rawValue, dest.baseAddress, Int32(width * 4))
            }
            if status != 0 {
                // Palette and other formats SDL_ConvertPixels cannot take go through a converted surface.
                guard let converted = SDL_ConvertSurfaceFormat(decoded, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
                    throw ImageLoadError.Reason.decodeFailed(String(cString: SDL_GetError()))
                }
                defer { SDL_FreeSurface(converted) }
                let pitch = Int(converted.pointee.pitch)
                let source = converted.pointee.pixels.assumingMemoryBound(to: UInt8.self)
                bytes.withUnsafeMutableBytes { dest in
                    for row in 0..<height {
                        memcpy(dest.baseAddress! + row * width * 4, source + row * pitch, width * 4)
                    }
                }
            }
            return PixelBuffer(width: width, height: height, bytes: bytes)
        }
    }
}

extension ImageDecoders {
    /// Every decoder the viewer uses: the shrinking ones, then SDL_image for GIF, BMP, TIFF and the rest.
    public static var viewer: [any ImageDecoding] { standard(fallback: [SDLImageDecoder()]) }
}
