import TesseraCore

/// The colour space pixels are in: sRGB (what an untagged image is taken to be), an ICC profile's, or
/// one named by H.273 code points (HEIF/AVIF `nclx`, JPEG XL's enumerated encodings).
package enum ColourSpace: Hashable, Sendable, CustomStringConvertible {
    case sRGB
    case icc(ICCProfile)
    case codePoints(ColourCodePoints)

    /// `.icc` for `bytes`, `.sRGB` for nil.
    package init(profile bytes: [UInt8]?) {
        self = bytes.map { .icc(ICCProfile($0)) } ?? .sRGB
    }

    package var description: String {
        switch self {
        case .sRGB: "sRGB"
        case .icc(let profile): "ICC profile (\(profile.bytes.count) bytes)"
        case .codePoints(let points): "H.273 primaries \(points.primaries), transfer \(points.transfer)"
        }
    }
}

extension PixelBuffer {
    /// The colour space the decoder says these pixels are in: the embedded profile first, then code
    /// points, else sRGB.
    package var declaredColourSpace: ColourSpace {
        if let colourProfile { return .icc(ICCProfile(colourProfile)) }
        if let colourCodePoints, !colourCodePoints.isSRGB { return .codePoints(colourCodePoints) }
        return .sRGB
    }

    /// Whether the decoder declared anything but sRGB (without hashing a profile).
    var declaresColourSpace: Bool {
        colourProfile != nil || colourCodePoints.map { !$0.isSRGB } == true
    }
}

extension ColourCodePoints {
    /// BT.709 primaries with the sRGB transfer; "unspecified" (2) counts as either.
    var isSRGB: Bool {
        (primaries == 1 || primaries == 2) && (transfer == 13 || transfer == 2)
    }
}
