import CAVIF
import Foundation
import TesseraCore

/// An AVIF image sequence's frames through libavif (libheif 1.15 reads only the still item). Every frame
/// of a sequence is a whole picture, so there is nothing to composite; YUV becomes 8-bit B, G, R, A
/// through libavif's own conversion. libavif 0.11 does not read a sequence's repetition count: it plays
/// forever.
final class AVIFAnimationReader: AnimationReading {
    private let bytes: OwnedBytes
    private let decoder: UnsafeMutablePointer<avifDecoder>
    let canvasSize: PixelSize
    let plays = 0

    init(_ data: Data, pixelLimit: Int) throws(ImageLoadError.Reason) {
        bytes = OwnedBytes(data)
        guard let decoder = avifDecoderCreate() else { throw .decodeFailed("out of memory") }
        self.decoder = decoder
        decoder.pointee.maxThreads = 1
        decoder.pointee.imageSizeLimit = UInt32(clamping: pixelLimit)
        guard let base = bytes.bytes.bindMemory(to: UInt8.self).baseAddress,
              avifDecoderSetIOMemory(decoder, base, bytes.count) == AVIF_RESULT_OK else {
            avifDecoderDestroy(decoder)
            throw .empty
        }
        let parsed = avifDecoderParse(decoder)
        guard parsed == AVIF_RESULT_OK, let image = decoder.pointee.image else {
            avifDecoderDestroy(decoder)
            throw Self.reason(parsed)
        }
        canvasSize = PixelSize(width: Int(image.pointee.width), height: Int(image.pointee.height))
    }

    deinit { avifDecoderDestroy(decoder) }

    func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
        let result = avifDecoderNextImage(decoder)
        if result == AVIF_RESULT_NO_IMAGES_REMAINING { return nil }
        guard result == AVIF_RESULT_OK, let image = decoder.pointee.image else { throw Self.reason(result) }
        let width = Int(image.pointee.width), height = Int(image.pointee.height)
        guard width == canvasSize.width, height == canvasSize.height else {
            throw .decodeFailed("AVIF frames of different sizes")
        }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_BGRA
        rgb.depth = 8
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let converted = bytes.withUnsafeMutableBufferPointer { buffer -> avifResult in
            rgb.pixels = buffer.baseAddress
            rgb.rowBytes = UInt32(width * 4)
            return avifImageYUVToRGB(image, &rgb)
        }
        guard converted == AVIF_RESULT_OK else { throw Self.reason(converted) }
        var pixels = PixelBuffer(width: width, height: height, bytes: bytes)
        let icc = image.pointee.icc
        if icc.size > 0, let data = icc.data {
            pixels.colourProfile = Array(UnsafeBufferPointer(start: data, count: icc.size))
        } else {
            let points = ColourCodePoints(primaries: UInt16(image.pointee.colorPrimaries),
                                          transfer: UInt16(image.pointee.transferCharacteristics),
                                          matrix: UInt16(image.pointee.matrixCoefficients),
                                          fullRange: image.pointee.yuvRange == AVIF_RANGE_FULL)
            // H.273: primaries 1 (sRGB's) or 2 (unspecified), transfer 13 (sRGB) or 2: nothing to convert.
            if ![1, 2].contains(points.primaries) || ![13, 2].contains(points.transfer) { pixels.colourCodePoints = points }
        }
        let delay = Duration.milliseconds(Int((decoder.pointee.imageTiming.duration * 1000).rounded()))
        return (pixels, delay)
    }

    private static func reason(_ result: avifResult) -> ImageLoadError.Reason {
        if result == AVIF_RESULT_TRUNCATED_DATA { return .truncated }
        return .decodeFailed(String(cString: avifResultToString(result)))
    }

    /// Whether an AVIF file is a sequence of more than one frame: libavif reads its boxes (no frame is
    /// decoded) and counts the images.
    static func isAnimated(_ data: Data) -> Bool {
        guard let decoder = avifDecoderCreate() else { return false }
        defer { avifDecoderDestroy(decoder) }
        return data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress,
                  avifDecoderSetIOMemory(decoder, base, raw.count) == AVIF_RESULT_OK,
                  avifDecoderParse(decoder) == AVIF_RESULT_OK else { return false }
            return decoder.pointee.imageCount > 1
        }
    }
}
