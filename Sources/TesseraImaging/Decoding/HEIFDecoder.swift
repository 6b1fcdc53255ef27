import Foundation
import TesseraCore

/// HEIC and AVIF through libheif (libde265 decodes the HEVC pictures, dav1d or libaom the AV1 ones).
///
/// Shrinks on load with the thumbnail the file stores: when one is at least the target size in both
/// dimensions, the smallest such is decoded instead of the full picture (a phone's 12 MP HEIC is a grid
/// of dozens of HEVC tiles; its thumbnail is one small picture). The colour of the image decoded (an ICC
/// profile, or `nclx` code points that are not sRGB; a thumbnail without a colour box has its primary
/// image's) goes with the pixels, except that an HDR picture (PQ or HLG) comes out already rendered for
/// the screen (`HDRRendering`).
package struct HEIFDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .heif || format == .avif }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            let file = try HEIFFile(raw)
            let primary = try file.primaryImage()
            let chosen = targetSize.flatMap { Self.smallestThumbnail(of: primary, covering: $0) } ?? primary
            let own = chosen.hasColourBox ? chosen : primary
            let profile = own.iccProfile
            let points = profile == nil ? own.colourCodePoints : nil
            var pixels = try chosen.decode(colour: points, target: targetSize)
            pixels.colourProfile = profile
            // HDR pixels come out rendered for the screen, in sRGB.
            if !HDRRendering.isHDR(points) { pixels.colourCodePoints = points }
            if let pages = ImagePages.of(file, bytes: raw) {
                pixels.holdsSeveralImages = pages.count > 1
                pixels.isSequence = pages.isSequence
            }
            // libheif decodes what a cut file still holds of its coded picture without a word.
            if ISOBMFFBoxes.endsShort(ByteReader(raw), count: raw.count) { pixels.damage = Self.endsShort }
            return pixels
        }
    }

    /// Top-level image `page` of a HEIF collection (page 0 is the primary image, as the file is shown),
    /// whole, with its own colour.
    package func decode(_ data: Data, format: ImageFormat, page: Int, pixelLimit: Int) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            let file = try HEIFFile(raw)
            let image = try file.topLevelImage(page)
            guard image.size.area <= pixelLimit else {
                throw .tooLarge(width: image.size.width, height: image.size.height, limit: pixelLimit)
            }
            let profile = image.iccProfile
            let points = profile == nil ? image.colourCodePoints : nil
            var pixels = try image.decode(colour: points)
            pixels.colourProfile = profile
            if !HDRRendering.isHDR(points) { pixels.colourCodePoints = points }
            if ISOBMFFBoxes.endsShort(ByteReader(raw), count: raw.count) { pixels.damage = Self.endsShort }
            return pixels
        }
    }

    static let endsShort = "the file ends before its last box does: it is truncated"

    /// The ICC profile of the primary image's `prof` or `rICC` colour box, as `decode` hands it on; nil
    /// when it has none (an `nclx` box names its colours by code points instead) or the file cannot be read.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let file = try? HEIFFile(bytes), let primary = try? file.primaryImage() else { return nil }
        return primary.iccProfile
    }

    /// The smallest thumbnail at least `target` (fitted to the primary image) in both dimensions, framed as
    /// the primary image is: a thumbnail of another shape (cropped, or padded to a square) would show
    /// another picture in the cell than the single view shows.
    static func smallestThumbnail(of primary: HEIFImage, covering target: PixelSize) -> HEIFImage? {
        let wanted = primary.size.aspectFit(in: target)
        return primary.thumbnails()
            .filter { $0.size.width >= wanted.width && $0.size.height >= wanted.height && sameFraming($0.size, primary.size) }
            .min { $0.size.area < $1.size.area }
    }

    /// Whether `thumbnail` is `primary` scaled, to within the rounding of its smaller side.
    static func sameFraming(_ thumbnail: PixelSize, _ primary: PixelSize) -> Bool {
        guard thumbnail.width > 0, thumbnail.height > 0, primary.width > 0, primary.height > 0 else { return false }
        // The height the thumbnail's width gives at the primary's shape, and the other way round.
        let height = Double(thumbnail.width) * Double(primary.height) / Double(primary.width)
        let width = Double(thumbnail.height) * Double(primary.width) / Double(primary.height)
        return abs(height - Double(thumbnail.height)) <= 1 || abs(width - Double(thumbnail.width)) <= 1
    }
}
