import CJXLEncoder
import Foundation
import XCTest

/// Lossless JPEG XL files written with libjxl's encoder, for what cjxl 0.7 cannot be asked to write: CMYK
/// with a black channel. (Premultiplied alpha cannot be written with libjxl 0.7 at all: its encoder stops
/// on an internal check; docs/FORMATS.md has the conformance file that checks it instead.)
enum JXLFixtures {
    /// C, M, Y, K bytes (0 = no ink) with `profile`, a CMYK ICC profile; JPEG XL stores ink inverted.
    static func cmyk(_ values: [UInt8], width: Int, height: Int, profile: [UInt8]) throws -> Data {
        var inks: [UInt8] = [], black: [UInt8] = []
        for i in stride(from: 0, to: values.count, by: 4) {
            inks += [255 - values[i], 255 - values[i + 1], 255 - values[i + 2]]
            black.append(255 - values[i + 3])
        }
        return try encode(width: width, height: height) { encoder, info in
            info.num_extra_channels = 1
            try check(JxlEncoderSetBasicInfo(encoder, &info))
            var channel = JxlExtraChannelInfo()
            JxlEncoderInitExtraChannelInfo(JXL_CHANNEL_BLACK, &channel)
            channel.bits_per_sample = 8
            try check(JxlEncoderSetExtraChannelInfo(encoder, 0, &channel))
            try check(JxlEncoderSetICCProfile(encoder, profile, profile.count))
            return (3, inks, black)
        }
    }

    /// One lossless 8-bit frame: `describe` sets the header and colour and hands back the interleaved
    /// colour samples (3 or 4 a pixel) and, if any, the first extra channel's.
    private static func encode(width: Int, height: Int,
                               _ describe: (OpaquePointer, inout JxlBasicInfo) throws -> (Int, [UInt8], [UInt8]?)) throws -> Data {
        let encoder = try XCTUnwrap(JxlEncoderCreate(nil))
        defer { JxlEncoderDestroy(encoder) }
        var info = JxlBasicInfo()
        JxlEncoderInitBasicInfo(&info)
        info.xsize = UInt32(width)
        info.ysize = UInt32(height)
        info.bits_per_sample = 8
        info.uses_original_profile = JXL_TRUE
        let (channels, samples, extra) = try describe(encoder, &info)
        let settings = try XCTUnwrap(JxlEncoderFrameSettingsCreate(encoder, nil))
        try check(JxlEncoderSetFrameLossless(settings, JXL_TRUE))
        var format = JxlPixelFormat(num_channels: UInt32(channels), data_type: JXL_TYPE_UINT8,
                                    endianness: JXL_NATIVE_ENDIAN, align: 0)
        try check(JxlEncoderAddImageFrame(settings, &format, samples, samples.count))
        if let extra {
            var one = JxlPixelFormat(num_channels: 1, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
            try check(JxlEncoderSetExtraChannelBuffer(settings, &one, extra, extra.count, 0))
        }
        JxlEncoderCloseInput(encoder)
        var output = [UInt8](repeating: 0, count: 1 << 16)
        var written = 0
        while true {
            var available = output.count - written
            let status = output.withUnsafeMutableBufferPointer { buffer -> JxlEncoderStatus in
                var next: UnsafeMutablePointer<UInt8>? = buffer.baseAddress! + written
                let status = JxlEncoderProcessOutput(encoder, &next, &available)
                written = next! - buffer.baseAddress!
                return status
            }
            if status == JXL_ENC_NEED_MORE_OUTPUT {
                output += [UInt8](repeating: 0, count: output.count)
                continue
            }
            try check(status)
            return Data(output.prefix(written))
        }
    }

    struct Refused: Error, CustomStringConvertible {
        let line: UInt
        var description: String { "libjxl's encoder refused the fixture (JXLFixtures.swift:\(line))" }
    }

    private static func check(_ status: JxlEncoderStatus, line: UInt = #line) throws {
        guard status == JXL_ENC_SUCCESS else { throw Refused(line: line) }
    }
}
