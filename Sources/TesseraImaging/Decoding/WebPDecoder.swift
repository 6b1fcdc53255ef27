import CWebP
import Foundation
import TesseraCore

/// WebP through libwebp with its built-in scaler: rows are downscaled (area-averaged) as they are decoded,
/// so a 5120x2880 WebP shown in a 400x300 cell never holds its 59 MB of full-size pixels. The ICC profile
/// of an ICCP chunk goes out with the pixels.
///
/// With a cancellation signal the file is fed to libwebp's incremental decoder in slices of `sliceBytes`
/// (the same decoder, suspended between slices: the pixels are the same as a one-shot decode), and the
/// signal is looked at before each slice, so a decode nobody wants any more stops part way through.
package struct WebPDecoder: ImageDecoding {
    /// Bytes of the file handed to the incremental decoder between two looks at the cancellation signal.
    package static let sliceBytes = 64 << 10

    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .webp }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try decode(data, format: format, targetSize: targetSize, cancellation: nil)
    }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                       cancellation: DecodeCancellation?) throws -> PixelBuffer {
        try cancellation.check()
        return try data.withUnsafeBytes { raw -> PixelBuffer in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress else { throw ImageLoadError.Reason.empty }
            // On the heap: the incremental decoder keeps pointers to the options and the output buffer.
            let config = UnsafeMutablePointer<WebPDecoderConfig>.allocate(capacity: 1)
            defer { config.deallocate() }
            guard WebPInitDecoderConfig(config) != 0 else {
                throw ImageLoadError.Reason.decodeFailed("libwebp version mismatch")
            }
            let featureStatus = WebPGetFeatures(base, raw.count, &config.pointee.input)
            guard featureStatus == VP8_STATUS_OK else { throw Self.reason(for: featureStatus) }
            if config.pointee.input.has_animation != 0 {
                // WebPDecode reads no animation: an animated file's still is its first frame, composited
                // on the canvas by libwebp's animation decoder, as a browser shows it before it plays.
                guard let first = try WebPAnimationReader(data).nextFrame()?.pixels else {
                    throw ImageLoadError.Reason.truncated
                }
                return targetSize.map { PixelScaler.fit(first, in: $0) } ?? first
            }
            let full = PixelSize(width: Int(config.pointee.input.width), height: Int(config.pointee.input.height))
            let output = targetSize.map { full.aspectFit(in: $0) } ?? full
            if output != full {
                config.pointee.options.use_scaling = 1
                config.pointee.options.scaled_width = Int32(output.width)
                config.pointee.options.scaled_height = Int32(output.height)
            }
            // Decode straight into our buffer: BGRA bytes are ARGB8888 on little-endian. It starts
            // transparent, which is what rows a damaged file never reaches stay.
            var bytes = [UInt8](repeating: 0, count: output.area * 4)
            let (status, rows) = try bytes.withUnsafeMutableBufferPointer { pixels -> (VP8StatusCode, Int) in
                config.pointee.output.colorspace = MODE_BGRA
                config.pointee.output.is_external_memory = 1
                config.pointee.output.u.RGBA.rgba = pixels.baseAddress
                config.pointee.output.u.RGBA.stride = Int32(output.width * 4)
                config.pointee.output.u.RGBA.size = pixels.count
                defer { WebPFreeDecBuffer(&config.pointee.output) }
                return try Self.decodeIncrementally(base, count: raw.count, config: config, cancellation: cancellation)
            }
            var pixels = PixelBuffer(width: output.width, height: output.height, bytes: bytes)
            if status != VP8_STATUS_OK {
                // Rows decoded before the data ran out or went bad are shown, with why they stop.
                guard rows > 0, let damage = Self.damage(for: status) else { throw Self.reason(for: status) }
                pixels.damage = damage
            }
            pixels.colourProfile = Self.iccProfile(raw)
            return pixels
        }
    }

    /// The ICCP chunk's profile, through libwebp's demuxer: only an extended (VP8X) file whose header
    /// says it has one carries it, as browsers read it. Parsed as a partial file, so one cut short after
    /// the chunk still names it in the information overlay.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard !bytes.isEmpty, let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
        var data = WebPData(bytes: base, size: bytes.count)
        guard let demuxer = WebPDemuxPartial(&data, nil) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        guard WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS) & UInt32(ICCP_FLAG.rawValue) != 0 else { return nil }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demuxer, "ICCP", 1, &chunk) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard let bytes = chunk.chunk.bytes, chunk.chunk.size > 0 else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: chunk.chunk.size))
    }

    /// Feeds `count` bytes at `base` to an incremental decoder, `sliceBytes` at a time when there is a
    /// `cancellation` to check before each slice, else all at once; returns how it ended and how many
    /// output rows it finished (all of them when it succeeds, some when the data ends or goes bad).
    private static func decodeIncrementally(_ base: UnsafePointer<UInt8>, count: Int,
                                            config: UnsafeMutablePointer<WebPDecoderConfig>,
                                            cancellation: DecodeCancellation?) throws -> (VP8StatusCode, Int) {
        guard let decoder = WebPIDecode(nil, 0, config) else { return (VP8_STATUS_OUT_OF_MEMORY, 0) }
        defer { WebPIDelete(decoder) }
        let slice = cancellation == nil ? count : sliceBytes
        var fed = 0
        while true {
            try cancellation.check()
            fed = min(count, fed + slice)
            // The whole file is in memory: each call sees the buffer from its start, nothing is copied.
            var status = WebPIUpdate(decoder, base, fed)
            if status == VP8_STATUS_SUSPENDED && fed < count { continue }
            if status == VP8_STATUS_SUSPENDED { status = VP8_STATUS_NOT_ENOUGH_DATA }
            var rows: Int32 = 0
            if status != VP8_STATUS_OK { _ = WebPIDecGetRGB(decoder, &rows, nil, nil, nil) }
            return (status, status == VP8_STATUS_OK ? Int(config.pointee.output.height) : Int(rows))
        }
    }

    /// Why a file whose first rows decoded stops part way, in the loader's words.
    private static func damage(for status: VP8StatusCode) -> String? {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: "the file ends inside the image data: it is truncated"
        case VP8_STATUS_BITSTREAM_ERROR: "corrupt WebP data"
        default: nil
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
