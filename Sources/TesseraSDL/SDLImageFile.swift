import CSDL2
import Foundation
import TesseraCore

/// Image files through SDL_image: decoding whatever it reads (PNG, WebP, GIF's first frame, BMP, TIFF, ...).
/// PNG files are written by TesseraImaging's `PNGEncoder`, the one PNG writer. Safe on worker threads once
/// `SDLSystem` exists (it calls IMG_Init first).
public enum SDLImageFile {
    /// Decodes a whole image file held in memory into ARGB8888 pixels.
    public static func decodeARGB8888(_ bytes: Data) throws(SDLError) -> PixelBuffer {
        let surface = bytes.withUnsafeBytes { raw -> UnsafeMutablePointer<SDL_Surface>? in
            guard let rw = SDL_RWFromConstMem(raw.baseAddress, Int32(raw.count)) else { return nil }
            return IMG_Load_RW(rw, 1)  // frees `rw` (the 1), decoded or not
        }
        guard let decoded = surface else { throw SDLError("IMG_Load_RW") }
        defer { SDL_FreeSurface(decoded) }
        return try argb8888(of: decoded)
    }

    /// The pixels of `surface` as ARGB8888, converted straight into the buffer returned: one full-size copy
    /// fewer than converting the surface first.
    private static func argb8888(of surface: UnsafeMutablePointer<SDL_Surface>) throws(SDLError) -> PixelBuffer {
        let width = Int(surface.pointee.w), height = Int(surface.pointee.h)
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        guard SDL_LockSurface(surface) == 0 else { throw SDLError("SDL_LockSurface") }
        let status = bytes.withUnsafeMutableBytes { dest in
            SDL_ConvertPixels(Int32(width), Int32(height), surface.pointee.format.pointee.format,
                              surface.pointee.pixels, surface.pointee.pitch,
                              SDL_PIXELFORMAT_ARGB8888.rawValue, dest.baseAddress, Int32(width * 4))
        }
        SDL_UnlockSurface(surface)
        if status != 0 {
            // Palette and other formats SDL_ConvertPixels cannot take go through a converted surface.
            guard let converted = SDL_ConvertSurfaceFormat(surface, SDL_PIXELFORMAT_ARGB8888.rawValue, 0) else {
                throw SDLError("SDL_ConvertSurfaceFormat")
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
