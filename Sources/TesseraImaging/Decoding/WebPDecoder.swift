import CWebP
import Foundation
import TesseraCore

/// WebP through libwebp with its built-in scaler: rows are downscaled (area-averaged) as they are decoded,
/// so a 5120x2880 WebP shown in a 400x300 cell never holds its 59 MB of full-size pixels.
public struct WebPDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .webp }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { throw ImageLoadError.Reason.empty }
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                throw ImageLoadError.Reason.decodeFailed("libwebp version mismatch")
            }
            let featureStatus = WebPGetFeatures(base, raw.count, &config.input)
            guard featureStatus == VP8_STATUS_OK else { throw Self.reason(for: featureStatus) }
            let full = PixelSize(width: Int(config.input.width), height: Int(config.input.height))
            let output = targetSize.map { full.aspectFit(in: $0) } ?? full
            if output != full {
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(output.width)
                config.options.scaled_height = Int32(output.height)
            }
            // Decode straight into our buffer: BGRA bytes are ARGB8888 on little-endian.
            var bytes = [UInt8](repeating: 0, count: output.area * 4)
            let status = bytes.withUnsafeMutableBufferPointer { pixels -> VP8StatusCode in
                config.output.colorspace = MODE_BGRA
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = pixels.baseAddress
                config.output.u.RGBA.stride = Int32(output.width * 4)
                config.output.u.RGBA.size = pixels.count
                defer { WebPFreeDecBuffer(&config.output) }
                return WebPDecode(base, raw.count, &config)
            }
            guard status == VP8_STATUS_OK else { throw Self.reason(for: status) }
            return PixelBuffer(width: output.width, height: output.height, bytes: bytes)
        }
    }

    private static func reason(for status: VP8StatusCode) -> ImageLoadError.Reason {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: return .truncated
        case VP8_STATUS_UNSUPPORTED_FEATURE: return .unsupportedFormat("WebP feature")
        case VP8_STATUS_BITSTREAM_ERROR: return .decodeFailed("corrupt WebP data")
        case VP8_STATUS_OUT_OF_MEMORY: return .decodeFailed("out of memory")
        default: return .decodeFailed("libwebp status \(status.rawValue)")
        }
    }
}
