import CLCMS2
import CPNG
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest

/// Profiles, tagged files and colour-managed references for the colour tests, made with lcms2 and
/// libpng directly (not through the code under test) or taken from a Debian package.
enum ColourFixtures {
    // MARK: - Profiles

    /// Display P3 as phones tag their photos: P3 primaries, D65 white, the sRGB curve.
    static let displayP3: [UInt8] = {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.680, y: 0.320, Y: 1),
                                        Green: cmsCIExyY(x: 0.265, y: 0.690, Y: 1),
                                        Blue: cmsCIExyY(x: 0.150, y: 0.060, Y: 1))
        return rgbProfile(white: &white, primaries: &primaries, description: "Test Display P3")
    }()

    /// lcms2's own sRGB, saved as an embedded profile would be.
    static let sRGB: [UInt8] = save(cmsCreate_sRGBProfile()!)

    /// A grey profile with a plain 2.2 gamma (what "Gray Gamma 2.2" B&W photos embed).
    static let greyGamma22: [UInt8] = {
        let curve = cmsBuildGamma(nil, 2.2)!
        defer { cmsFreeToneCurve(curve) }
        return save(cmsCreateGrayProfile(cmsD50_xyY(), curve)!)
    }()

    /// A real CMYK printing profile from a Debian package (libgs-common: Ghostscript's SWOP profile,
    /// AGPL like Ghostscript, read here as test data only). Large enough to need several APP2 chunks.
    static func ghostscriptCMYK() throws -> [UInt8] {
        let path = "/usr/share/color/icc/ghostscript/default_cmyk.icc"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw XCTSkip("\(path) is missing: install libgs-common (make test-deps does)")
        }
        return [UInt8](data)
    }

    /// A v4 RGB profile (sRGB's primaries and curve) whose perceptual table (A2B0) renders darker than its
    /// colorimetric one (A2B1), as a LUT profile's author means it to be seen, with a header asking for
    /// `intent`.
    static func perceptualTableProfile(intent: UInt32) -> [UInt8] {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: 0.64, y: 0.33, Y: 1), Green: cmsCIExyY(x: 0.30, y: 0.60, Y: 1),
                                        Blue: cmsCIExyY(x: 0.15, y: 0.06, Y: 1))
        let curve = cmsBuildParametricToneCurve(nil, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])!
        let darker = cmsBuildGamma(nil, 3.0)!
        defer { cmsFreeToneCurve(curve); cmsFreeToneCurve(darker) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)!
        // The tables: a curve, then the profile's own colorants to XYZ, in lcms2's float encoding of XYZ
        // (1 + 32767/32768 is the largest value the PCS holds). The colorimetric table (A2B1) has the
        // profile's own curve; the perceptual one (A2B0) the darker curve.
        let colorants = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag].map {
            cmsReadTag(profile, $0)!.assumingMemoryBound(to: cmsCIEXYZ.self).pointee
        }
        let encoding = 1 + 32767.0 / 32768
        for (tag, tone) in [(cmsSigAToB0Tag, darker), (cmsSigAToB1Tag, curve)] {
            var matrix = [colorants[0].X, colorants[1].X, colorants[2].X, colorants[0].Y, colorants[1].Y, colorants[2].Y,
                          colorants[0].Z, colorants[1].Z, colorants[2].Z].map { $0 / encoding }
            var tables: [OpaquePointer?] = [tone, tone, tone]
            let pipeline = cmsPipelineAlloc(nil, 3, 3)!
            defer { cmsPipelineFree(pipeline) }
            cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, &tables))
            cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocMatrix(nil, 3, 3, &matrix, nil))
            // Identity B curves: the tag's layout is M curves, matrix, B curves.
            cmsPipelineInsertStage(pipeline, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
            cmsWriteTag(profile, tag, UnsafeMutableRawPointer(pipeline))
        }
        cmsSetProfileVersion(profile, 4.3)
        cmsSetHeaderRenderingIntent(profile, intent)
        return save(profile)
    }

    private static func rgbProfile(white: inout cmsCIExyY, primaries: inout cmsCIExyYTRIPLE, description: String) -> [UInt8] {
        let curve = cmsBuildParametricToneCurve(nil, 4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])!
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = cmsCreateRGBProfile(&white, &primaries, &curves)!
        let mlu = cmsMLUalloc(nil, 1)!
        defer { cmsMLUfree(mlu) }
        cmsMLUsetASCII(mlu, "en", "US", description)
        cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeMutableRawPointer(mlu))
        return save(profile)
    }

    private static func save(_ profile: cmsHPROFILE) -> [UInt8] {
        defer { cmsCloseProfile(profile) }
        var size: cmsUInt32Number = 0
        precondition(cmsSaveProfileToMem(profile, nil, &size) != 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        precondition(cmsSaveProfileToMem(profile, &bytes, &size) != 0)
        return bytes
    }

    // MARK: - References

    /// `pixels` (BGRA) converted from `profile` to `destination` (sRGB when nil) by lcms2 directly, out
    /// of place: relative colorimetric unless `intent` says otherwise.
    /// A grey profile reads the green byte, as one grey sample per pixel.
    static func reference(_ pixels: PixelBuffer, from profile: [UInt8]?, to destination: [UInt8]? = nil,
                          intent: UInt32 = UInt32(INTENT_RELATIVE_COLORIMETRIC), flags: UInt32 = 0) -> PixelBuffer {
        let source = open(profile), target = open(destination)
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        let grey = cmsGetColorSpace(source) == cmsSigGrayData
        // TYPE_GRAY_8: one byte a pixel.
        let greyFormat = cmsUInt32Number((3 << 16) | (1 << 3) | 1)
        let transform = cmsCreateTransform(source, grey ? greyFormat : TESSERA_TYPE_BGRA_8, target, TESSERA_TYPE_BGRA_8,
                                           intent, flags)!
        defer { cmsDeleteTransform(transform) }
        let input = grey ? stride(from: 1, to: pixels.bytes.count, by: 4).map { pixels.bytes[$0] } : pixels.bytes
        var out = pixels.bytes
        input.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { cmsDoTransform(transform, input.baseAddress, $0.baseAddress, cmsUInt32Number(pixels.width * pixels.height)) }
        }
        // The reference leaves alpha alone, as the loader must.
        for i in stride(from: 3, to: out.count, by: 4) { out[i] = pixels.bytes[i] }
        return PixelBuffer(width: pixels.width, height: pixels.height, bytes: out)
    }

    /// C, M, Y, K bytes (4 per pixel) converted from `profile` to sRGB BGRA by lcms2 directly.
    static func referenceCMYK(_ cmyk: [UInt8], width: Int, height: Int, profile: [UInt8], inverted: Bool) -> PixelBuffer {
        let source = open(profile), target = open(nil)
        defer { cmsCloseProfile(source); cmsCloseProfile(target) }
        let transform = cmsCreateTransform(source, inverted ? TESSERA_TYPE_CMYK_8_REV : TESSERA_TYPE_CMYK_8, target,
                                           TESSERA_TYPE_BGRA_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), 0)!
        defer { cmsDeleteTransform(transform) }
        var out = [UInt8](repeating: 255, count: width * height * 4)
        cmyk.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { cmsDoTransform(transform, input.baseAddress, $0.baseAddress, cmsUInt32Number(width * height)) }
        }
        for i in stride(from: 3, to: out.count, by: 4) { out[i] = 255 }
        return PixelBuffer(width: width, height: height, bytes: out)
    }

    private static func open(_ profile: [UInt8]?) -> cmsHPROFILE {
        guard let profile else { return cmsCreate_sRGBProfile()! }
        return profile.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count))! }
    }

    /// Mean absolute difference over the colour channels, in levels of 255.
    static func meanAbsoluteDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size, "\(a.size) vs \(b.size)")
        var sum = 0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            for c in 0..<3 { sum += abs(Int(a.bytes[i + c]) - Int(b.bytes[i + c])) }
        }
        return Double(sum) / Double(a.width * a.height * 3)
    }

    /// Saturated colours that sRGB and Display P3 put in different places, and a few greys.
    static func colourful(width: Int, height: Int, alpha: UInt8 = 255) -> PixelBuffer {
        var bytes = [UInt8](repeating: alpha, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let hue = Double(x) / Double(max(1, width - 1)) * 6, level = Double(y) / Double(max(1, height - 1))
                let sector = Int(hue) % 6, f = hue - Double(Int(hue))
                let rgb: (Double, Double, Double) = [(1, f, 0), (1 - f, 1, 0), (0, 1, f), (0, 1 - f, 1), (f, 0, 1), (1, 0, 1 - f)][sector]
                bytes[i] = UInt8(rgb.2 * 255 * level + (1 - level) * 40)
                bytes[i + 1] = UInt8(rgb.1 * 255 * level + (1 - level) * 40)
                bytes[i + 2] = UInt8(rgb.0 * 255 * level + (1 - level) * 40)
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    // MARK: - Tagged files

    /// `jpeg` with `profile` in APP2 "ICC_PROFILE" segments right after SOI, `chunkSize` bytes of profile
    /// each (at most 65519, what one segment holds), in the order `order` gives (by default as numbered).
    static func jpeg(_ jpeg: Data, withICC profile: [UInt8], chunkSize: Int = 65519,
                     order: (([Int]) -> [Int])? = nil) -> Data {
        let chunks = stride(from: 0, to: profile.count, by: chunkSize).map { Array(profile[$0..<min(profile.count, $0 + chunkSize)]) }
        var segments: [[UInt8]] = []
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            segments.append([0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("ICC_PROFILE".utf8) + [0]
                            + [UInt8(index + 1), UInt8(chunks.count)] + chunk)
        }
        let indices = order?(Array(segments.indices)) ?? Array(segments.indices)
        var out = [UInt8](jpeg.prefix(2))
        for index in indices { out += segments[index] }
        out += jpeg.dropFirst(2)
        return Data(out)
    }

    /// `pixels` as an 8-bit RGBA PNG with an iCCP chunk holding `profile` (libpng's writer).
    static func png(_ pixels: PixelBuffer, iccProfile profile: [UInt8], in folder: TemporaryDirectory, name: String) -> String {
        let path = folder.path(name)
        writePNG(to: path, width: pixels.width, height: pixels.height, depth: 8, colourType: PNG_COLOR_TYPE_RGB_ALPHA,
                 describe: { png, info in
                     profile.withUnsafeBufferPointer {
                         png_set_iCCP(png, info, "test profile", PNG_COMPRESSION_TYPE_BASE, $0.baseAddress, png_uint_32($0.count))
                     }
                 }, rows: { png in
                     png_set_bgr(png)
                     var row = [UInt8](repeating: 0, count: pixels.width * 4)
                     for y in 0..<pixels.height {
                         row.replaceSubrange(0..<row.count, with: pixels.bytes[(y * pixels.width * 4)..<((y + 1) * pixels.width * 4)])
                         png_write_row(png, &row)
                     }
                 })
        return path
    }

    /// A 16-bit RGB PNG of `samples` (libpng's writer), with a `cICP` chunk of `codePoints` (primaries,
    /// transfer, matrix, full range) when given.
    static func png16(_ samples: [UInt16], width: Int, height: Int, to path: String, codePoints: [UInt8]? = nil) {
        var body = codePoints ?? []
        writePNG(to: path, width: width, height: height, depth: 16, colourType: PNG_COLOR_TYPE_RGB,
                 describe: { png, info in
                     guard codePoints != nil else { return }
                     // libpng 1.6.39 knows no cICP: it is written as a chunk libpng does not know, before the image data.
                     png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, nil, 0)
                     body.withUnsafeMutableBufferPointer { data in
                         var chunk = png_unknown_chunk()
                         withUnsafeMutableBytes(of: &chunk.name) { name in
                             for (i, byte) in "cICP".utf8.enumerated() { name[i] = byte }
                         }
                         chunk.data = data.baseAddress
                         chunk.size = data.count
                         chunk.location = png_byte(PNG_HAVE_IHDR)
                         png_set_unknown_chunks(png, info, &chunk, 1)
                     }
                 }, rows: { png in
                     png_set_swap(png)
                     var row = [UInt16](repeating: 0, count: width * 3)
                     for y in 0..<height {
                         row.replaceSubrange(0..<row.count, with: samples[(y * width * 3)..<((y + 1) * width * 3)])
                         row.withUnsafeMutableBytes { png_write_row(png, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) }
                     }
                 })
    }

    /// One PNG at `path` through libpng's writer: `describe` adds chunks before the header is written,
    /// `rows` sets the row transforms and writes every row.
    private static func writePNG(to path: String, width: Int, height: Int, depth: Int32, colourType: Int32,
                                 describe: (png_structp?, png_infop?) -> Void, rows: (png_structp?) -> Void) {
        let file = fopen(path, "wb")!
        defer { fclose(file) }
        var png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, nil, nil)
        var info = png_create_info_struct(png)
        defer { png_destroy_write_struct(&png, &info) }
        png_init_io(png, file)
        png_set_IHDR(png, info, png_uint_32(width), png_uint_32(height), depth, colourType,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        describe(png, info)
        png_write_info(png, info)
        rows(png)
        png_write_end(png, info)
    }
}
