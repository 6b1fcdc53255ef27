import CJXL
import Foundation
import TesseraCore

/// JPEG XL through libjxl: the first frame of an animation, turned upright as the file says.
///
/// Shrinks on load with the 1/8 resolution (DC) image that lossy frames code before their detail: when
/// that image is at least the target size, decoding stops there, skipping the detail that a thumbnail
/// cannot show. The DC image holds each 8 x 8 block's average, an area average itself, so the final
/// scaling from it needs none of the margin a DCT-scaled JPEG does. libjxl gives even that image at full
/// size (upsampled), so this saves time, not memory.
public struct JXLDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .jxl }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            let session = try JXLDecodeSession(raw, events: JXL_DEC_COLOR_ENCODING, JXL_DEC_FRAME_PROGRESSION, JXL_DEC_FULL_IMAGE)
            try session.readBasicInfo()
            let stopAtDC = targetSize.map { Self.dcCovers($0, full: session.uprightSize) } ?? false
            return try session.decodeFirstFrame(stoppingAtDC: stopAtDC).pixels
        }
    }

    /// Whether the 1/8 resolution image of a `full`-size picture is enough for `target`.
    static func dcCovers(_ target: PixelSize, full: PixelSize) -> Bool {
        let wanted = full.aspectFit(in: target)
        let dc = PixelSize(width: (full.width + 7) / 8, height: (full.height + 7) / 8)
        return dc.width >= wanted.width && dc.height >= wanted.height
    }
}
