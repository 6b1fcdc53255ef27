import CTesseraJPEG
import Foundation
import TesseraCore

/// Parts of a JPEG decoded at 1/1, 1/2, 1/4 or 1/8 of its size through libjpeg's scaled IDCT, cropping and
/// row skipping (`tessera_jpeg_read_region`): a tile of a large photo without the rest of the photo in
/// memory. The same code runs in this process and in a decode helper. CMYK is turned into sRGB here; an RGB
/// or grey JPEG's embedded profile goes with the pixels, for the caller's colour stage.
package enum JPEGRegionReader {
    /// The scales libjpeg decodes at directly: 1/`denominator`.
    static let denominators = [1, 2, 4, 8]

    /// `region` of the JPEG on `fd` as it is at 1/`denominator` of its size (`fd` stays open and is read
    /// with pread, so threads may share it); `name` is the file, for the CMYK transform's log.
    package static func read(fd: Int32, name: String, denominator: Int,
                     region: PixelRegion) throws(ImageLoadError.Reason) -> PixelBuffer {
        guard denominators.contains(denominator), region.x >= 0, region.y >= 0, !region.isEmpty else {
            throw .decodeFailed("no such part of the image")
        }
        let (count, overflow) = region.width.multipliedReportingOverflow(by: region.height)
        guard !overflow, count <= Int(Int32.max) / 4 else { throw .decodeFailed("part too large") }
        var bytes = [UInt8](repeating: 0, count: count * 4)
        var colour = tessera_jpeg_colour()
        var message = [CChar](repeating: 0, count: 256)
        let length = message.count
        let status = bytes.withUnsafeMutableBufferPointer { pixels in
            message.withUnsafeMutableBufferPointer {
                tessera_jpeg_read_region(fd, Int32(denominator), Int32(region.x), Int32(region.y), Int32(region.width),
                                         Int32(region.height), pixels.baseAddress, &colour, $0.baseAddress, length)
            }
        }
        defer { free(colour.icc) }
        // A file that ends before the part does is read as libjpeg reads it, the rest grey, and says so.
        let endedEarly = status == TESSERA_IMAGE_PADDED
        switch status {
        case TESSERA_IMAGE_OK, TESSERA_IMAGE_PADDED: break
        case TESSERA_IMAGE_TRUNCATED: throw .truncated
        case TESSERA_IMAGE_SYSTEM: throw .unreadable(CText.string(message))
        default: throw .decodeFailed(CText.string(message))
        }
        let description = JPEGColour(colour)
        var pixels = PixelBuffer(width: region.width, height: region.height, bytes: bytes)
        if description.isCMYK {
            let cmyk = description.cmykConversion(name: name)
            pixels.bytes.withUnsafeMutableBytes { cmyk.apply($0.baseAddress!, count: count) }
        } else {
            pixels.colourProfile = description.profile
        }
        pixels.knownOpaque = true
        if endedEarly { pixels.damage = Self.endedEarly }
        return pixels
    }

    /// libjpeg's words for a part read through its padding, as `TurboJPEGDecoder` reports them.
    static let endedEarly = "Premature end of JPEG file"
}
