import CJXL
import Foundation
import TesseraCore

/// JPEG XL through libjxl: the first frame of an animation, turned upright as the file says, at full size
/// (an HDR frame, rendered for the screen, at the power-of-two reduction the target allows).
///
/// No shrinking in libjxl: libjxl 0.7 can stop at the 1/8 resolution (DC) image that lossy frames code
/// first, but it hands that image out only upsampled to full size, and rendering it so costs more than
/// decoding the whole frame (docs/FORMATS.md has the count).
package struct JXLDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .jxl }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            let session = try JXLDecodeSession(raw, events: JXL_DEC_COLOR_ENCODING, JXL_DEC_FULL_IMAGE)
            try session.readBasicInfo()
            return try session.decodeFirstFrame(target: targetSize)
        }
    }

    /// The colour encoding of the file as H.273 code points, from the headers alone; nil when it is an ICC
    /// profile libjxl does not name, or the file cannot be read.
    static func colourCodePoints(_ bytes: UnsafeRawBufferPointer) -> ColourCodePoints? {
        guard let session = try? JXLDecodeSession(bytes, events: JXL_DEC_COLOR_ENCODING),
              (try? session.readBasicInfo()) != nil else { return nil }
        return try? session.readColourCodePoints()
    }

    /// The ICC profile `decode` hands on with the pixels (see `JXLDecodeSession.readColourProfile`),
    /// from the headers alone; nil for sRGB or a file libjxl cannot read.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let session = try? JXLDecodeSession(bytes, events: JXL_DEC_COLOR_ENCODING),
              (try? session.readBasicInfo()) != nil else { return nil }
        return (try? session.readColourProfile()) ?? nil
    }
}
