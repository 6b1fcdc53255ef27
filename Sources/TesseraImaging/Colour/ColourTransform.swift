import CLCMS2

/// One lcms2 transform into BGRA (ARGB8888) pixels, applied in place, from BGRA, grey-in-BGRA or CMYK.
///
/// `@unchecked Sendable` because lcms2 transforms may be used from several threads at once: they are made
/// with `cmsFLAGS_NOCACHE`, so `cmsDoTransform` keeps nothing in the transform between calls (lcms2 since
/// 2.3 also copies its one-pixel cache per call; without the cache nothing is left to share at all).
package final class ColourTransform: @unchecked Sendable {
    /// How the pixels handed to `apply` are laid out: always 4 bytes each, so the transform works in place.
    enum Input: Hashable, Sendable {
        /// B, G, R, A; alpha is left as it is.
        case bgra
        /// B = G = R (a grey image expanded to BGRA) with a grey profile; alpha is left as it is.
        case greyInBGRA
        /// C, M, Y, K; `inverted` when 255 means no ink (Adobe's JPEGs). Alpha becomes 255.
        case cmyk(inverted: Bool)

        var lcmsFormat: cmsUInt32Number {
            switch self {
            case .bgra: TESSERA_TYPE_BGRA_8
            case .greyInBGRA: TESSERA_TYPE_GRAY_8_IN_BGRA
            case .cmyk(let inverted): inverted ? TESSERA_TYPE_CMYK_8_REV : TESSERA_TYPE_CMYK_8
            }
        }
    }

    let input: Input
    private let handle: cmsHTRANSFORM

    /// RGB and grey images whose own profile `asksForIntent` (an embedded ICC profile) convert with the
    /// intent its header asks for (a v4 profile's perceptual tables are how its author means it to be
    /// seen), with black-point compensation, which lcms2 recommends with the perceptual and relative
    /// intents. Untagged images and colours named by code points convert relative colorimetric, so a
    /// display profile's perceptual tables are not used on them. CMYK converts relative colorimetric
    /// without compensation, as libvips does, the reference for CMYK (see docs/COLOUR.md). Alpha is copied
    /// where both sides have it.
    init?(from source: LCMSProfile, input: Input, to destination: LCMSProfile, asksForIntent: Bool) {
        var flags = cmsUInt32Number(cmsFLAGS_NOCACHE)
        if input == .bgra { flags |= cmsUInt32Number(cmsFLAGS_COPY_ALPHA) }
        var intent = cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)
        if asksForIntent && input != .cmyk(inverted: true) && input != .cmyk(inverted: false) {
            intent = source.headerIntent
            if intent != cmsUInt32Number(INTENT_ABSOLUTE_COLORIMETRIC) {
                flags |= cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION)
            }
        }
        guard let handle = cmsCreateTransform(source.handle, input.lcmsFormat, destination.handle,
                                              TESSERA_TYPE_BGRA_8, intent, flags) else { return nil }
        self.handle = handle
        self.input = input
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `count` pixels at `pixels` in place.
    func apply(_ pixels: UnsafeMutableRawPointer, count: Int) {
        var done = 0
        // lcms2 counts pixels in 32 bits.
        while done < count {
            let chunk = min(count - done, Int(Int32.max))
            let start = pixels + done * 4
            cmsDoTransform(handle, start, start, cmsUInt32Number(chunk))
            done += chunk
        }
        if case .cmyk = input {
            // CMYK has no alpha; the fourth byte still holds K.
            var alpha = pixels.assumingMemoryBound(to: UInt8.self) + 3
            for _ in 0..<count {
                alpha.pointee = 255
                alpha += 4
            }
        }
    }

    /// Converts `rows` rows of `width` pixels, `stride` bytes apart, in place.
    package func apply(rows first: UnsafeMutableRawPointer, width: Int, stride: Int, count rows: Int) {
        if stride == width * 4 { return apply(first, count: width * rows) }
        for row in 0..<rows { apply(first + row * stride, count: width) }
    }
}
