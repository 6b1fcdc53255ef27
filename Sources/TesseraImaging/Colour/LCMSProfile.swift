import CLCMS2
import Foundation
import TesseraCore

/// One open lcms2 profile, closed when released: the one place Tessera opens a profile, for the colour
/// manager's transforms and for a profile's description. One thread uses it, then lets it go: lcms2
/// profiles are not safe to share between threads (transforms are), so the colour manager opens its own
/// under its lock and the image information opens its own on its worker.
final class LCMSProfile {
    let handle: cmsHPROFILE

    private init(_ handle: cmsHPROFILE) { self.handle = handle }

    deinit { cmsCloseProfile(handle) }

    /// The profile for `space`, or why there is none.
    static func open(_ space: ColourSpace) -> Result<LCMSProfile, ColourProfileProblem> {
        switch space {
        case .sRGB:
            guard let handle = cmsCreate_sRGBProfile() else { return .failure(.unreadable) }
            return .success(LCMSProfile(handle))
        case .icc(let profile):
            let handle = profile.bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
            guard let handle else { return .failure(.unreadable) }
            return .success(LCMSProfile(handle))
        case .codePoints(let points):
            return CodePointProfiles.make(points).map(LCMSProfile.init)
        }
    }

    var colourSpace: cmsColorSpaceSignature { cmsGetColorSpace(handle) }

    /// The rendering intent the profile's header asks for; one lcms2 does not know reads as perceptual,
    /// the ICC's default.
    var headerIntent: cmsUInt32Number {
        let intent = cmsGetHeaderRenderingIntent(handle)
        return intent <= cmsUInt32Number(INTENT_ABSOLUTE_COLORIMETRIC) ? intent : cmsUInt32Number(INTENT_PERCEPTUAL)
    }
    var isRGB: Bool { colourSpace == cmsSigRgbData }
    var isGrey: Bool { colourSpace == cmsSigGrayData }
    var isCMYK: Bool { colourSpace == cmsSigCmykData }

    /// The profile's description tag ("sRGB IEC61966-2.1", "Display P3", v2 or v4), in English where it
    /// has several, whatever its length; nil when it has none or only blanks.
    var description: String? {
        let needed = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", nil, 0)
        guard needed > 1 else { return nil }
        var text = [CChar](repeating: 0, count: Int(needed))
        cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &text, needed)
        let description = CText.string(text).trimmingCharacters(in: .whitespacesAndNewlines)
        return description.isEmpty ? nil : description
    }
}

/// Why an image's colour space cannot be converted; the image is then shown as if it were sRGB.
enum ColourProfileProblem: Error, Equatable, CustomStringConvertible {
    case unreadable
    case wrongColourSpace(expected: String)
    case noTransform
    case unsupportedPrimaries(UInt16)

    var description: String {
        switch self {
        case .unreadable: "the ICC profile is damaged or not a profile"
        case .wrongColourSpace(let expected): "the ICC profile is not for \(expected) pixels"
        case .noTransform: "lcms2 cannot convert with the profile"
        case .unsupportedPrimaries(let code): "H.273 colour primaries \(code) are not supported"
        }
    }
}
