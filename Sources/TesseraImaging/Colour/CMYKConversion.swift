import Logging
import TesseraCore

/// CMYK pixels (as JPEG and TIFF decoders give them: C, M, Y, K bytes, 4 per pixel) to sRGB BGRA, in
/// place, through the image's own CMYK profile or, when it has none or one lcms2 cannot use, the standard
/// one libvips assumes (`DefaultCMYKProfile`). Decoders hand the result on untagged: sRGB.
///
/// A decoder makes one per image (the transform is looked up once) and applies it to the whole image or
/// row by row.
package struct CMYKConversion: Sendable {
    private let transform: ColourTransform?
    private let inverted: Bool

    /// - Parameters:
    ///   - profile: the embedded ICC profile, if any.
    ///   - inverted: 255 means no ink, as Adobe's JPEGs store CMYK (those with an APP14 "Adobe" marker);
    ///     false for 0 = no ink (TIFF's usual ink set).
    ///   - name: the file, for the log (an embedded profile that cannot be used is reported).
    package init(profile: [UInt8]?, inverted: Bool, name: String, manager: ColourManager = .shared,
                logger: Logger = ColourConversion.defaultLogger) {
        self.inverted = inverted
        let input = ColourManager.PixelInput.cmyk(inverted: inverted)
        if let profile {
            switch manager.lookup(from: .icc(ICCProfile(profile)), input: input, to: .sRGB) {
            case .transform(let found):
                transform = found
                return
            case .none:
                break
            case .unusable(let problem, let isNew):
                logger.log(level: isNew ? .warning : .debug, "CMYK profile not used, using the standard one",
                                metadata: ["path": "\(name)", "reason": "\(problem)"])
            }
        }
        if case .transform(let standard) = manager.lookup(from: .icc(Self.standardProfile), input: input, to: .sRGB) {
            transform = standard
        } else {
            transform = nil
        }
    }

    private static let standardProfile = ICCProfile(DefaultCMYKProfile.bytes)

    /// Converts `count` pixels at `pixels` in place.
    package func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        guard let transform else { return Self.naive(pixels, count: count, inverted: inverted) }
        transform.apply(pixels, count: count)
    }

    /// Converts `rows` rows of `width` pixels, `stride` bytes apart, in place.
    package func apply(rows first: UnsafeMutableRawPointer, width: Int, stride: Int, count rows: Int) {
        guard let transform else {
            for row in 0..<rows { Self.naive(first + row * stride, count: width, inverted: inverted) }
            return
        }
        transform.apply(rows: first, width: width, stride: stride, count: rows)
    }

    /// Converts every pixel of `pixels` in place.
    package func apply(_ pixels: inout [UInt8]) {
        pixels.withUnsafeMutableBytes { apply($0.baseAddress!, count: $0.count / 4) }
    }

    /// R = (255 - C) x (255 - K) / 255 and so on: what is left when lcms2 cannot make even the standard
    /// transform (it always can; this keeps a CMYK image visible if it ever could not).
    private static func naive(_ pixels: UnsafeMutableRawPointer, count: Int, inverted: Bool) {
        var p = pixels.assumingMemoryBound(to: UInt8.self)
        for _ in 0..<count {
            var c = UInt32(p[0]), m = UInt32(p[1]), y = UInt32(p[2]), k = UInt32(p[3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            p[0] = UInt8((y * k + 127) / 255)
            p[1] = UInt8((m * k + 127) / 255)
            p[2] = UInt8((c * k + 127) / 255)
            p[3] = 255
            p += 4
        }
    }
}
