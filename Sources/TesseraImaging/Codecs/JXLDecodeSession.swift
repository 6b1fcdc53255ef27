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
        subscribesToColour = events.contains(JXL_DEC_COLOR_ENCODING)
        // Premultiplied alpha is undone by libjxl: everything after it takes straight alpha.
        guard JxlDecoderSubscribeEvents(decoder, mask) == JXL_DEC_SUCCESS,
              JxlDecoderSetUnpremultiplyAlpha(decoder, JXL_TRUE) == JXL_DEC_SUCCESS,
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
        blackChannel = (0..<info.num_extra_channels).first { index in
            var channel = JxlExtraChannelInfo()
            return JxlDecoderGetExtraChannelInfo(decoder, Int(index), &channel) == JXL_DEC_SUCCESS
                && channel.type == JXL_CHANNEL_BLACK
        }.map(Int.init)
    }

    /// The extra channel holding K when the image is CMYK (its colour channels hold C, M and Y).
    private var blackChannel: Int?
    /// How CMYK frames become sRGB: through their CMYK profile, as CMYK JPEGs and TIFFs do. JPEG XL
    /// stores ink inverted (the maximum value is no ink), as Adobe's JPEGs do.
    private var cmyk: CMYKConversion?

    /// The first frame's pixels, as 8-bit B, G, R, A, upright. Call after `readBasicInfo`. An HDR frame is
    /// rendered at a power-of-two reduction that still covers `target` (`HDRRendering.reduction`).
    func decodeFirstFrame(target: PixelSize? = nil) throws -> PixelBuffer {
        guard let frame = try decodeNextFrame(target: target) else {
            throw ImageLoadError.Reason.decodeFailed("JPEG XL file without a frame")
        }
        return frame.pixels
    }

    /// The colour profile of the frames, once the colour encoding event has passed.
    private var profile: [UInt8]?
    /// How the frames are shown when their colour encoding is an HDR one (PQ or HLG): they are then
    /// decoded to 16 bits and rendered for the screen, in sRGB.
    private var hdr: HDRRendering?
    private var colourEncodingRead = false
    private let subscribesToColour: Bool

    /// The next frame's pixels (libjxl composites an animation's frames onto the full canvas), with its
    /// duration in the animation's ticks when the session subscribes to `JXL_DEC_FRAME`; nil after the last.
    /// Call after `readBasicInfo`.
    func decodeNextFrame(target: PixelSize? = nil) throws -> (pixels: PixelBuffer, ticks: UInt32)? {
        // How a frame is asked for depends on its colour encoding, which comes before the first frame.
        if subscribesToColour && !colourEncodingRead {
            while !colourEncodingRead {
                switch try next() {
                case JXL_DEC_COLOR_ENCODING:
                    readColourEncoding()
                case JXL_DEC_SUCCESS:
                    return nil
                default:
                    continue
                }
            }
        }
        let size = uprightSize
        if let hdr {
            // 16-bit samples, rendered into the frame's bytes.
            let wide = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: size.area * 4)
            defer { wide.deallocate() }
            guard let ticks = try runToFrame(into: UnsafeMutableRawBufferPointer(wide), type: JXL_TYPE_UINT16) else { return nil }
            let factor = HDRRendering.reduction(of: size, covering: target)
            return (hdr.render(wide.baseAddress!, size: size, stride: size.width * 4, channels: 4, reducedBy: factor), ticks)
        }
        var ticks: UInt32?
        // libjxl writes every byte of the buffer it is given, so it starts uninitialised; R, G, B, A become
        // B, G, R, A in place.
        let black = cmyk == nil ? nil : UnsafeMutableRawBufferPointer.allocate(byteCount: size.area, alignment: 1)
        defer { black?.deallocate() }
        let bgra = try [UInt8](unsafeUninitializedCapacity: size.area * 4) { storage, initialised in
            ticks = try runToFrame(into: UnsafeMutableRawBufferPointer(storage), type: JXL_TYPE_UINT8, black: black)
            guard ticks != nil else {
                initialised = 0
                return
            }
            if let cmyk, let black {
                // C, M, Y in the colour samples, K in place of alpha: what the CMYK conversion takes.
                for i in 0..<size.area { storage[i * 4 + 3] = black[i] }
                cmyk.apply(storage.baseAddress!, count: size.area)
            } else {
                PixelConversion.swapRedAndBlue(storage)
            }
            initialised = storage.count
        }
        guard let ticks else { return nil }
        var pixels = PixelBuffer(width: size.width, height: size.height, bytes: bgra)
        pixels.colourProfile = cmyk == nil ? profile : nil
        return (pixels, ticks)
    }

    /// Runs libjxl to the end of the next frame, decoded into `buffer` as R, G, B, A samples of `type` (and
    /// the black channel of a CMYK image into `black`, a byte a pixel); the frame's duration in ticks, or
    /// nil when there are no more frames.
    private func runToFrame(into buffer: UnsafeMutableRawBufferPointer, type: JxlDataType,
                            black: UnsafeMutableRawBufferPointer? = nil) throws -> UInt32? {
        var format = JxlPixelFormat(num_channels: 4, data_type: type, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var ticks: UInt32 = 0
        while true {
            switch try next() {
            case JXL_DEC_COLOR_ENCODING:
                readColourEncoding()
            case JXL_DEC_FRAME:
                var header = JxlFrameHeader()
                if JxlDecoderGetFrameHeader(decoder, &header) == JXL_DEC_SUCCESS { ticks = header.duration }
            case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                var needed = 0
                guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS, needed == buffer.count,
                      JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) == JXL_DEC_SUCCESS
                else { throw ImageLoadError.Reason.decodeFailed("unexpected JPEG XL output size") }
                if let black, let blackChannel {
                    var one = JxlPixelFormat(num_channels: 1, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
                    guard JxlDecoderSetExtraChannelBuffer(decoder, &one, black.baseAddress, black.count,
                                                          UInt32(blackChannel)) == JXL_DEC_SUCCESS
                    else { throw ImageLoadError.Reason.decodeFailed("unexpected JPEG XL black channel") }
                }
            case JXL_DEC_FULL_IMAGE:
                return ticks
            case JXL_DEC_SUCCESS:
                return nil
            default:
                continue
            }
        }
    }

    /// Runs to the colour encoding and returns the original's as code points (see `codePoints`); call
    /// after `readBasicInfo`.
    func readColourCodePoints() throws(ImageLoadError.Reason) -> ColourCodePoints? {
        while true {
            switch try next() {
            case JXL_DEC_COLOR_ENCODING:
                var encoding = JxlColorEncoding()
                guard JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_ORIGINAL, &encoding)
                        == JXL_DEC_SUCCESS else { return nil }
                return Self.codePoints(encoding)
            case JXL_DEC_SUCCESS: return nil
            default: continue
            }
        }
    }

    /// Takes in the colour encoding event: the frames' profile, and whether they are HDR or CMYK.
    private func readColourEncoding() {
        profile = dataProfile()
        colourEncodingRead = true
        if blackChannel != nil, let profile, profile.count >= 20, Array(profile[16..<20]) == Array("CMYK".utf8) {
            cmyk = CMYKConversion(profile: profile, inverted: true, name: "JPEG XL")
        }
    }

    /// Runs to the colour encoding (the session must subscribe to `JXL_DEC_COLOR_ENCODING`) and returns
    /// the profile `decodeFirstFrame` gives its pixels; call after `readBasicInfo`.
    func readColourProfile() throws(ImageLoadError.Reason) -> [UInt8]? {
        while true {
            switch try next() {
            case JXL_DEC_COLOR_ENCODING:
                readColourEncoding()
                return cmyk == nil ? profile : nil
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

    /// The ICC profile of the pixels as decoded, nil when they are sRGB or HDR (PQ or HLG, which `hdr`
    /// renders to sRGB). Lossy (XYB) images whose original
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
        if JxlDecoderGetColorAsEncodedProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) == JXL_DEC_SUCCESS {
            if Self.isSRGB(encoding) { return nil }
            if let points = Self.codePoints(encoding), HDRRendering.isHDR(points) {
                let peak = info.intensity_target > 0 ? info.intensity_target : nil
                hdr = HDRRendering(points: points, bits: 16, contentPeak: peak)
                if hdr != nil { return nil }
            }
        }
        var size = 0
        guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0
        else { return nil }
        var profile = [UInt8](repeating: 0, count: size)
        guard JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &profile, size) == JXL_DEC_SUCCESS
        else { return nil }
        return profile
    }

    /// An RGB encoding with a D65 white as H.273 code points; nil for grey, custom primaries or another
    /// white. libjxl numbers primaries and transfers as H.273 does.
    private static func codePoints(_ e: JxlColorEncoding) -> ColourCodePoints? {
        guard e.color_space == JXL_COLOR_SPACE_RGB, e.white_point == JXL_WHITE_POINT_D65 else { return nil }
        let primaries: UInt16
        switch e.primaries {
        case JXL_PRIMARIES_SRGB: primaries = 1
        case JXL_PRIMARIES_2100: primaries = 9
        case JXL_PRIMARIES_P3: primaries = 12  // with a D65 white: Display P3
        default: return nil
        }
        return ColourCodePoints(primaries: primaries, transfer: UInt16(e.transfer_function.rawValue), matrix: 0, fullRange: true)
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
