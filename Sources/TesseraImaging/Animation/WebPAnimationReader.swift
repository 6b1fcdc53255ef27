import CWebP
import Foundation
import TesseraCore

/// An animated WebP's frames through libwebp's `WebPAnimDecoder`, which composites them itself (each
/// frame's blend and dispose methods) onto the canvas; its ICC profile, if any, goes with every frame.
final class WebPAnimationReader: AnimationReading {
    private let bytes: OwnedBytes
    private let decoder: OpaquePointer
    let canvasSize: PixelSize
    let plays: Int
    private let profile: [UInt8]?
    /// libwebp gives each frame's end time; a frame's delay is the difference from the one before.
    private var lastTimestamp: Int32 = 0

    init(_ data: Data) throws(ImageLoadError.Reason) {
        bytes = OwnedBytes(data)
        guard let base = bytes.bytes.bindMemory(to: UInt8.self).baseAddress else { throw .empty }
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .decodeFailed("libwebp version mismatch") }
        options.color_mode = MODE_BGRA
        options.use_threads = 0
        var webpData = WebPData(bytes: base, size: bytes.count)
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            throw .decodeFailed("libwebp cannot read the animation")
        }
        self.decoder = decoder
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            throw .decodeFailed("libwebp cannot read the animation")
        }
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        plays = Int(info.loop_count)
        profile = WebPDecoder.iccProfile(bytes.bytes)
    }

    deinit { WebPAnimDecoderDelete(decoder) }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var buffer: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &buffer, &timestamp) != 0, let buffer else { throw .truncated }
        let count = canvasSize.area * 4
        var pixels = PixelBuffer(width: canvasSize.width, height: canvasSize.height,
                                 bytes: Array(UnsafeBufferPointer(start: buffer, count: count)))
        pixels.colourProfile = profile
        let delay = Duration.milliseconds(Int(max(0, timestamp - lastTimestamp)))
        lastTimestamp = timestamp
        return (pixels, delay)
    }
}
