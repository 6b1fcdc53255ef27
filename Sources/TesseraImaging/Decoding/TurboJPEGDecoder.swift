import CTurboJPEG
import Foundation
import TesseraCore

/// Decodes JPEG with libjpeg-turbo's TurboJPEG API, directly into the renderer's ARGB8888 byte order.
///
/// Why TurboJPEG rather than SDL_image for JPEG: it can decode at 1/2, 1/4 or 1/8 size by skipping the
/// high-frequency IDCT work, which makes thumbnails of 12 MP photos several times cheaper, and it reports
/// warnings (such as a truncated file) that SDL_image swallows.
///
/// TJPF_BGRA writes B, G, R, A bytes with A = 0xFF, which is exactly ARGB8888 on little-endian machines.
/// Grayscale JPEGs are expanded by TurboJPEG. CMYK/YCCK JPEGs are not: libjpeg refuses to convert them to
/// RGB ("Unsupported color conversion request"), so they are decoded as TJPF_CMYK and turned into sRGB
/// here through their embedded CMYK profile, or the standard one (`CMYKConversion`). An RGB or grey JPEG's
/// embedded profile (its APP2 chunks, put together by libjpeg: TurboJPEG 2.1 has no call for them) goes
/// out with the pixels, for the loader's colour stage.
///
/// A TurboJPEG handle is not thread-safe, so every `decode` call creates and destroys its own; that costs
/// microseconds against milliseconds of decoding, and keeps this type a stateless `Sendable` value.
///
/// Damage: libjpeg "decodes" a file that ends early or whose data is corrupt by padding what it cannot
/// read with grey and raising a warning. Such a picture is shown as far as it goes, with libjpeg's words
/// as its `damage` (the strip marks the cell, the overlay says why). Warnings that leave the picture whole
/// ("extraneous bytes before marker", common in camera files; a bad ICC marker) are not damage.
package struct TurboJPEGDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .jpeg }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        guard format == .jpeg else { throw ImageLoadError.Reason.unsupportedFormat(format.displayName) }
        guard !data.isEmpty else { throw ImageLoadError.Reason.empty }
        guard let handle = tjInitDecompress() else {
            throw ImageLoadError.Reason.decodeFailed(String(cString: tjGetErrorStr2(nil)))
        }
        defer { tjDestroy(handle) }

        return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> PixelBuffer in
            let src = raw.bindMemory(to: UInt8.self)
            var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
            let headerRC = tjDecompressHeader3(handle, src.baseAddress, UInt(src.count), &w, &h, &subsamp, &colorspace)
            if headerRC != 0 && !(Self.lastWasWarning(handle) && w > 0 && h > 0) {
                throw ImageLoadError.Reason.decodeFailed(Self.message(handle))
            }
            guard w > 0, h > 0 else { throw ImageLoadError.Reason.decodeFailed("JPEG has no dimensions") }

            let out = Self.decodeSize(for: PixelSize(width: Int(w), height: Int(h)), targetSize: targetSize)
            let (count, overflow) = out.area.multipliedReportingOverflow(by: 4)
            guard !overflow else { throw ImageLoadError.Reason.decodeFailed("JPEG dimensions overflow") }

            let cmyk = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
            let colour = JPEGColour.read(raw)
            let pixelFormat = cmyk ? TJPF_CMYK : TJPF_BGRA
            var rc: Int32 = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                rc = tjDecompress2(handle, src.baseAddress, UInt(src.count), buffer.baseAddress,
                                   Int32(out.width), Int32(out.width * 4), Int32(out.height),
                                   Int32(pixelFormat.rawValue), 0)
                // UInt8 needs no deinitialisation; on failure the array is thrown away below anyway.
                initialized = count
                if cmyk {
                    // Without readable markers, Adobe's inverted CMYK is by far the likelier.
                    let conversion = colour?.cmykConversion(name: "a CMYK JPEG")
                        ?? CMYKConversion(profile: nil, inverted: true, name: "a CMYK JPEG")
                    conversion.apply(buffer.baseAddress!, count: out.area)
                }
            }
            var damage: String?
            if rc != 0 {
                let warning = Self.lastWasWarning(handle)
                let text = Self.message(handle)
                guard warning else { throw ImageLoadError.Reason.decodeFailed(text) }
                damage = Self.damage(warning: text, src)
            }
            var pixels = PixelBuffer(width: out.width, height: out.height, bytes: bytes)
            if !cmyk { pixels.colourProfile = colour?.profile }
            pixels.damage = damage
            return pixels
        }
    }

    /// The size TurboJPEG will decode a `full`-size JPEG at for `targetSize`.
    ///
    /// Of the DCT scaling factors 1/8, 1/4, 1/2 and 1 (the ones that are pure speed-ups; 3/8, 5/8 and so on
    /// cost nearly as much as full size):
    /// - one whose result is the aspect-fitted target itself, when there is one: a pyramid level, or a
    ///   photo shown at half its size. Nothing is resampled after it, and libjpeg's scaled
    ///   IDCT is as close to a Lanczos reduction of the full decode as a box average of it is, for a half
    ///   to an eighth of the work (a progressive JPEG's full decode costs nearly twice its 1/2 decode).
    /// - else the smallest whose result is at least twice the fitted target in both dimensions, so the
    ///   final area-averaging in `PixelScaler` always has a factor of two or more to work with: a
    ///   DCT-scaled image that merely covers a target between two scales is visibly softer than a full
    ///   decode scaled down.
    /// The target is fitted to the JPEG's own aspect here too, so passing a raw cell size is also correct.
    package static let qualityMargin = 2

    package static func decodeSize(for full: PixelSize, targetSize: PixelSize?) -> PixelSize {
        guard let targetSize else { return full }
        let fitted = full.aspectFit(in: targetSize)
        let scaled = denominators.map { denom in
            PixelSize(width: (full.width + denom - 1) / denom, height: (full.height + denom - 1) / denom)
        }
        if let exact = scaled.first(where: { $0 == fitted }) { return exact }
        let wanted = PixelSize(width: fitted.width * qualityMargin, height: fitted.height * qualityMargin)
        return scaled.first { $0.width >= wanted.width && $0.height >= wanted.height } ?? full
    }

    /// Denominators of the 1/n factors this libturbojpeg supports, largest (smallest image) first.
    private static let denominators: [Int] = {
        var n: Int32 = 0
        guard let factors = tjGetScalingFactors(&n), n > 0 else { return [] }
        let available = Set((0..<Int(n)).compactMap { i -> Int? in
            factors[i].num == 1 ? Int(factors[i].denom) : nil
        })
        return [8, 4, 2].filter(available.contains)
    }()

    private static func lastWasWarning(_ handle: tjhandle) -> Bool {
        tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let cString = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: cString)
    }

    /// What a warning says of the picture: nil when it is whole, else why it is not, in libjpeg's words
    /// where it has them.
    static func damage(warning: String, _ data: UnsafeBufferPointer<UInt8>) -> String? {
        let lowered = warning.lowercased()
        if looksTruncated(warning, data) {
            return lowered.contains("premature end of jpeg file") ? warning : "Truncated file: no end marker"
        }
        let harmless = ["extraneous bytes before marker", "bad icc marker"]
        if harmless.contains(where: lowered.contains) { return nil }
        return lowered.hasPrefix("corrupt jpeg data") || lowered.contains("premature end") ? warning : nil
    }

    /// libjpeg reports running out of data as "Premature end of JPEG file". TurboJPEG only keeps the
    /// first warning's text, so when an earlier benign warning hid it, a missing EOI marker at the end
    /// (ignoring zero padding) is taken as the sign of truncation instead.
    static func looksTruncated(_ warning: String, _ data: UnsafeBufferPointer<UInt8>) -> Bool {
        if warning.range(of: "premature end of jpeg file", options: .caseInsensitive) != nil { return true }
        var end = data.count
        while end > 0 && data[end - 1] == 0 { end -= 1 }
        return !(end >= 2 && data[end - 2] == 0xFF && data[end - 1] == 0xD9)
    }
}
