import CJXL
import Foundation
import TesseraCore

/// One pass of libjxl's decoder over a JPEG XL file held in memory: the per-file state a decoder holds,
/// stepped through libjxl's events (basic info, colour encoding, frames). Not shared between threads:
/// every decode makes its own. Without a parallel runner: Tessera decodes several files at once on its
/// workers, one thread each.
///
/// The input is given whole and never closed, so libjxl asking for more input means the file is cut short.
final class JXLDecodeSession {
    private let decoder: OpaquePointer
    private let input: UnsafeRawBufferPointer

    /// The image's size and metadata, once `readBasicInfo` has run.
    private(set) var info = JxlBasicInfo()

    /// `bytes` must outlive the session.
    init(_ bytes: UnsafeRawBufferPointer, events: JxlDecoderStatus...) throws(ImageLoadError.Reason) {
        guard let decoder = JxlDecoderCreate(nil) else { throw .decodeFailed("out of memory") }
        self.decoder = decoder
        input = bytes
        let mask = events.reduce(Int32(JXL_DEC_BASIC_INFO.rawValue)) { $0 | Int32($1.rawValue) }
        guard JxlDecoderSubscribeEvents(decoder, mask) == JXL_DEC_SUCCESS,
              JxlDecoderSetInput(decoder, bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count) == JXL_DEC_SUCCESS
        else { throw .decodeFailed("libjxl refused the decoder's settings") }
    }

    deinit { JxlDecoderDestroy(decoder) }

    /// The size of the image as shown: libjxl turns the pixels upright as the file's orientation says
    /// (5 to 8 swap width and height).
    var uprightSize: PixelSize {
        let swaps = info.orientation.rawValue >= JXL_ORIENT_TRANSPOSE.rawValue
        return swaps ? PixelSize(width: Int(info.ysize), height: Int(info.xsize))
                     : PixelSize(width: Int(info.xsize), height: Int(info.ysize))
    }

    /// Runs to the basic info (size, orientation, alpha, animation).
    func readBasicInfo() throws(ImageLoadError.Reason) {
        let status = try next()
        guard status == JXL_DEC_BASIC_INFO, JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
            throw .decodeFailed("no JPEG XL header")
        }
    }

    /// The first frame's pixels, as 8-bit B, G, R, A, upright. Call after `readBasicInfo`.
    func decodeFirstFrame() throws -> PixelBuffer {
        guard let frame = try decodeNextFrame() else { throw ImageLoadError.Reason.decodeFailed("JPEG XL file without a frame") }
        return frame.pixels
    }

    /// The colour profile of the frames, once the colour encoding event has passed.
    private var profile: [UInt8]?

    /// The next frame's pixels (libjxl composites an animation's frames onto the full canvas), with its
    /// duration in the animation's ticks when the session subscribes to `JXL_DEC_FRAME`; nil after the last.
    /// Call after `readBasicInfo`.
    func decodeNextFrame() throws -> (pixels: PixelBuffer, ticks: UInt32)? {
        var format = JxlPixelFormat(num_channels: 4, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let size = uprightSize
        var ticks: UInt32 = 0
        var ended = false
        // libjxl writes every byte of the buffer it is given, so it starts uninitialised; R, G, B, A become
        // B, G, R, A in place.
        let bgra = try [UInt8](unsafeUninitializedCapacity: size.area * 4) { storage, initialised in
            let buffer = UnsafeMutableRawBufferPointer(storage)
            loop: while true {
                switch try next() {
                case JXL_DEC_COLOR_ENCODING:
                    profile = dataProfile()
                case JXL_DEC_FRAME:
                    var header = JxlFrameHeader()
                    if JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS { ticks = header.duration }
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var needed = 0
                    guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS, needed == buffer.count,
                          JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS
                    else { throw ImageLoadError.Reason.decodeFailed("unexpected JPEG XL output size") }
                case JXL_DEC_FULL_IMAGE:
                    break loop
                case JXL_DEC_SUCCESS:
                    ended = true
                    break loop
                default:
                    continue
                }
            }
            if ended {
                initialised = 0
                return
            }
            PixelConversion.swapRedAndBlue(storage)
            initialised = storage.count
        }
        if ended { return nil }
        var pixels = PixelBuffer(width: size.width, height: size.height, bytes: bgra)
        pixels.colourProfile = profile
        return (pixels, ticks)
    }

    /// Runs to the colour encoding (the session must subscribe to `JXL_DEC_COLOR_ENCODING`) and returns
    /// the profile `decodeFirstFrame` gives its pixels; call after `readBasicInfo`.
    func readColourProfile() throws(ImageLoadError.Reason) -> [UInt8]? {
        while true {
            switch try next() {
            case JXL_DEC_COLOR_ENCODING: return dataProfile()
            case JXL_DEC_SUCCESS: return nil
            default: continue
            }
        }
    }

    /// The next event; libjxl's failures in the loader's words.
    private func next() throws(ImageLoadError.Reason) -> JxlDecoderStatus {
        let status = JxlDecoderProcessInput(decoder)
        switch status {
        case JXL_DEC_ERROR: throw .decodeFailed("corrupt JPEG XL data")
        case JXL_DEC_NEED_MORE_INPUT: throw .truncated
        default: return status
        }
    }

    /// The ICC profile of the pixels as decoded, nil when they are sRGB. Lossy (XYB) images whose original
    /// colour is an ICC profile would come out in linear light, which 8 bits band badly; they are asked
    /// for in sRGB instead (libjxl converts), and need no profile.
    private func dataProfile() -> [UInt8]? {
        var original = JxlColorEncoding()
        if info.uses_original_profile == 0,
           JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &original) != JXL_DEC_SUCCESS {
            var sRGB = JxlColorEncoding()
            sRGB.color_space = info.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
            sRGB.white_point = JXL_WHITE_POINT_D65
            sRGB.primaries = JXL_PRIMARIES_SRGB
            sRGB.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
            sRGB.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
            if JxlDecoderSetPreferredColorProfile(decoder, &sRGB) == JXL_DEC_SUCCESS { return nil }
        }
        var encoding = JxlColorEncoding()
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS,
           Self.isSRGB(encoding) {
            return nil
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0
        else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS
        else { return nil }
        return profile
    }

    private static func isSRGB(_ e: JxlColorEncoding) -> Bool {
        e.white_point == JXL_WHITE_POINT_D65 && e.transfer_function == JXL_TRANSFER_FUNCTION_SRGB
            && (e.color_space == JXL_COLOR_SPACE_GRAY || (e.color_space == JXL_COLOR_SPACE_RGB && e.primaries == JXL_PRIMARIES_SRGB))
    }

    /// The upright size from the header alone (any prefix that holds it); nil when it is not there.
    static func uprightSize(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard let session = try? JXLDecodeSession(bytes), (try? session.readBasicInfo()) != nil else { return nil }
        return (session.uprightSize.width, session.uprightSize.height)
    }
}
