import Foundation
import TesseraCore
import TesseraFiles

/// Which files are animations Tessera plays, told from their bytes without decoding, and the reader of each
/// format's frames.
package enum AnimatedImage {
    /// The formats whose animations play (`canAnimate`); every other file is a still.
    package static func canAnimate(_ format: ImageFormat) -> Bool { [.gif, .webp, .png, .jxl, .avif].contains(format) }

    /// Whether a file's name says it may be an animation (the strip looks no further on the main thread;
    /// the feed then reads the bytes): a `.gif`, `.webp`, `.png`, `.apng`, `.jxl` or `.avif`, in any case.
    package static func mayAnimate(path: String) -> Bool {
        let name = path.lowercased()
        return [".gif", ".webp", ".png", ".apng", ".jxl", ".avif"].contains { name.hasSuffix($0) }
    }

    /// Whether `data` holds more than one frame: a GIF with a second image, a WebP whose extended header
    /// has the animation flag, a PNG whose `acTL` chunk says more than one, a JPEG XL whose header says
    /// it is an animation, an AVIF whose boxes hold a sequence of more than one image.
    package static func isAnimated(_ data: Data) -> Bool {
        switch ImageFormat.sniff(data) {
        case .gif: return GIFBlocks.imageCount(in: data, upTo: 2) >= 2
        case .png: return APNGReader.isAnimated(data)
        case .jxl: return JXLAnimationReader.isAnimated(data)
        case .avif: return AVIFAnimationReader.isAnimated(data)
        case .webp:
            // RIFF....WEBPVP8X, then the flags byte: bit 1 is ANIMATION.
            guard data.count > 20 else { return false }
            let start = data.startIndex
            return data[start + 12..<start + 16].elementsEqual("VP8X".utf8) && data[start + 20] & 0x02 != 0
        default: return false
        }
    }

    /// `isAnimated` for a file: a PNG's, WebP's or JPEG XL's first bytes tell; a GIF or AVIF is read whole
    /// (up to the loader's byte limit), its frames counted without decoding.
    package static func isAnimated(fileAt path: String, byteLimit: Int = 512 << 20) -> Bool {
        guard let head = ImageFile.head(ofFileAt: path, count: headLength) else { return false }
        guard needsWholeFile(ImageFormat.sniff(head)) else { return isAnimated(head) }
        guard let file = try? ImageFile(path: path), file.size <= byteLimit, let data = try? file.readAll() else { return false }
        return isAnimated(data)
    }

    /// `isAnimated(fileAt:)` told by `decoding`: a sandboxed service parses nothing in this process but with
    /// memory-safe Swift, and looks at a JPEG XL or AVIF in a helper.
    package static func isAnimated(fileAt path: String, byteLimit: Int = 512 << 20, decoding: any DecodingService) -> Bool {
        decoding.isAnimated(fileAt: path, byteLimit: byteLimit)
    }

    /// Formats whose frames are counted over the whole file: a GIF's images follow one another; an AVIF's
    /// sample table may come after its first bytes.
    package static func needsWholeFile(_ format: ImageFormat) -> Bool { format == .gif || format == .avif }

    /// How much of a PNG, WebP or JPEG XL says whether it is animated: the chunks before the image data,
    /// the header.
    package static let headLength = 64 << 10

    /// A reader of the animation in `data`, its canvas checked against `pixelLimit` (one frame's pixels;
    /// how many frames are held is the feed's budget) before anything is allocated for it.
    package static func reader(for data: Data, pixelLimit: Int) throws(ImageLoadError.Reason) -> any AnimationReading {
        let format = ImageFormat.sniff(data)
        guard canAnimate(format) else { throw .unsupportedFormat(format.displayName) }
        guard let header = ImageHeader.read(data) else { throw .truncated }
        let (area, overflow) = header.width.multipliedReportingOverflow(by: header.height)
        guard !overflow, area <= pixelLimit else {
            throw .tooLarge(width: header.width, height: header.height, limit: pixelLimit)
        }
        switch format {
        case .gif: return try GIFAnimationReader(data)
        case .png: return try APNGReader(data)
        case .jxl: return try JXLAnimationReader(data)
        case .avif: return try AVIFAnimationReader(data, pixelLimit: pixelLimit)
        default: return try WebPAnimationReader(data)
        }
    }
}

/// A GIF's blocks walked without decoding: only sizes are read, so counting frames costs a pass over
/// the bytes.
enum GIFBlocks {
    /// How many image descriptors the file has, counting at most `limit`; a file cut short counts the
    /// one it is cut in.
    static func imageCount(in data: Data, upTo limit: Int) -> Int {
        let bytes = [UInt8](data)
        guard bytes.count >= 13 else { return 0 }
        var i = 13
        if bytes[10] & 0x80 != 0 { i += 3 << (Int(bytes[10] & 0x07) + 1) }
        var images = 0
        /// Skips sub-blocks (a length byte, that many bytes) up to and including the terminator.
        func skipSubBlocks() -> Bool {
            while i < bytes.count {
                let length = Int(bytes[i])
                i += 1 + length
                if length == 0 { return true }
            }
            return false
        }
        while i < bytes.count && images < limit {
            switch bytes[i] {
            case 0x21:
                i += 2
                guard skipSubBlocks() else { return images }
            case 0x2C:
                guard i + 10 <= bytes.count else { return images }
                let flags = bytes[i + 9]
                i += 10
                if flags & 0x80 != 0 { i += 3 << (Int(flags & 0x07) + 1) }
                i += 1
                images += 1
                guard skipSubBlocks() else { return images }
            default:
                return images
            }
        }
        return images
    }
}
