import CLCMS2
import TesseraCore

/// lcms2 profiles for colour spaces named by ITU-T H.273 code points, built from the primaries' and white
/// point's chromaticities and the transfer's tone curve (`cmsCreateRGBProfile`), as libavif and libheif's
/// users do. The matrix coefficients and range say how YCbCr became RGB, which the decoder has done.
enum CodePointProfiles {
    /// An RGB profile for `points`; unknown primaries cannot be guessed, unknown transfers (the HDR ones,
    /// PQ and HLG, which would need tone mapping) fall back to the sRGB curve.
    static func make(_ points: ColourCodePoints) -> Result<cmsHPROFILE, ColourProfileProblem> {
        guard let chromaticities = primaries[points.primaries] else {
            return .failure(.unsupportedPrimaries(points.primaries))
        }
        let (kind, parameters) = transfers[points.transfer] ?? transfers[13]!
        guard let curve = cmsBuildParametricToneCurve(nil, kind, parameters) else { return .failure(.noTransform) }
        defer { cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: chromaticities.white.x, y: chromaticities.white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: chromaticities.red.x, y: chromaticities.red.y, Y: 1),
            Green: cmsCIExyY(x: chromaticities.green.x, y: chromaticities.green.y, Y: 1),
            Blue: cmsCIExyY(x: chromaticities.blue.x, y: chromaticities.blue.y, Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let profile = cmsCreateRGBProfile(&white, &triple, &curves) else { return .failure(.noTransform) }
        return .success(profile)
    }

    /// Whether `points` name a transfer this table knows (the rest are shown with the sRGB curve; the
    /// HDR ones, PQ and HLG, reach the colour stage already rendered by `HDRRendering`).
    static func knowsTransfer(_ points: ColourCodePoints) -> Bool { transfers[points.transfer] != nil }

    /// The 3x3 matrix (row-major) from linear light in `source` primaries to linear light in
    /// `destination` primaries, as lcms2 converts them (relative colorimetric, white adapted); nil when
    /// either set is unknown.
    static func linearMatrix(from source: UInt16, to destination: UInt16) -> [Float]? {
        let linear: UInt16 = 8
        let points = { (primaries: UInt16) in ColourCodePoints(primaries: primaries, transfer: linear, matrix: 0, fullRange: true) }
        guard case .success(let from) = make(points(source)) else { return nil }
        defer { cmsCloseProfile(from) }
        guard case .success(let to) = make(points(destination)) else { return nil }
        defer { cmsCloseProfile(to) }
        guard let transform = cmsCreateTransform(from, TESSERA_TYPE_RGB_FLT, to, TESSERA_TYPE_RGB_FLT,
                                                 cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                                                 cmsUInt32Number(cmsFLAGS_NOCACHE)) else { return nil }
        defer { cmsDeleteTransform(transform) }
        // The three unit colours come out as the matrix's columns.
        var units: [Float] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var columns = [Float](repeating: 0, count: 9)
        cmsDoTransform(transform, &units, &columns, 3)
        return (0..<3).flatMap { row in (0..<3).map { column in columns[column * 3 + row] } }
    }

    private struct Chromaticities {
        var red: (x: Double, y: Double)
        var green: (x: Double, y: Double)
        var blue: (x: Double, y: Double)
        var white: (x: Double, y: Double)
    }

    private static let d65 = (x: 0.3127, y: 0.3290)
    private static let illuminantC = (x: 0.310, y: 0.316)

    /// H.273 table 2.
    private static let primaries: [UInt16: Chromaticities] = {
        let bt709 = Chromaticities(red: (0.640, 0.330), green: (0.300, 0.600), blue: (0.150, 0.060), white: d65)
        let smpte170 = Chromaticities(red: (0.630, 0.340), green: (0.310, 0.595), blue: (0.155, 0.070), white: d65)
        let p3 = Chromaticities(red: (0.680, 0.320), green: (0.265, 0.690), blue: (0.150, 0.060), white: d65)
        return [
            1: bt709,
            2: bt709,  // unspecified: what untagged images are
            4: Chromaticities(red: (0.67, 0.33), green: (0.21, 0.71), blue: (0.14, 0.08), white: illuminantC),
            5: Chromaticities(red: (0.64, 0.33), green: (0.29, 0.60), blue: (0.15, 0.06), white: d65),
            6: smpte170,
            7: smpte170,
            8: Chromaticities(red: (0.681, 0.319), green: (0.243, 0.692), blue: (0.145, 0.049), white: illuminantC),
            9: Chromaticities(red: (0.708, 0.292), green: (0.170, 0.797), blue: (0.131, 0.046), white: d65),
            11: Chromaticities(red: p3.red, green: p3.green, blue: p3.blue, white: (0.314, 0.351)),
            12: p3,
            22: Chromaticities(red: (0.630, 0.340), green: (0.295, 0.605), blue: (0.155, 0.077), white: d65),
        ]
    }()

    /// H.273 table 3 as lcms2 parametric curves from encoded value to linear light: type 1 is Y = X^g,
    /// type 4 is Y = (aX + b)^g above d and cX below, with parameters [g, a, b, c, d].
    private static let transfers: [UInt16: (Int32, [Double])] = {
        let srgb: (Int32, [Double]) = (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        // The inverse of BT.709's camera curve V = 1.099 L^0.45 - 0.099 (4.5 L below 0.018).
        let bt709: (Int32, [Double]) = (4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081])
        return [
            1: bt709, 6: bt709, 14: bt709, 15: bt709,
            2: srgb,  // unspecified
            4: (1, [2.2]),
            5: (1, [2.8]),
            7: (4, [1 / 0.45, 1 / 1.1115, 0.1115 / 1.1115, 1 / 4.0, 0.0913]),
            8: (1, [1.0]),
            13: srgb,
        ]
    }()
}
