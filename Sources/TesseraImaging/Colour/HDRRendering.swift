import Foundation
import Synchronization
import TesseraCore

/// Shows an HDR picture (the PQ or HLG transfer, as HDR AVIF, HEIC and JPEG XL files declare by code
/// points) on an SDR screen: the decoder's high-bit samples go to display light, reference white
/// (203 cd/m², ITU-R BT.2408) becomes the screen's white, and light above it is rolled off smoothly up to
/// the content's peak instead of clipping. The result is 8-bit sRGB, rounded once, from 16-bit samples
/// through float; the colour stage then treats it as any sRGB image (to the display, or as it is for the
/// thumbnails on disk).
///
/// - PQ (SMPTE ST 2084, transfer 16): samples are absolute light, 0 to 10000 cd/m².
/// - HLG (ARIB STD-B67, transfer 18): samples are scene light; BT.2100's OOTF for a 1000 cd/m² display
///   (system gamma 1.2, on the BT.2020 luminance) makes display light, in which the signal's 75 % is
///   reference white.
///
/// The roll-off acts on the largest of R, G and B, after the primaries are converted to sRGB's, so hue and
/// saturation are kept and no channel clips: below `knee` of reference white nothing changes; above, a
/// curve in PQ's perceptual scale with slope 1 at the knee reaches the screen's white at the content's
/// peak (the file's maximum content light level when it says, else the transfer's own maximum).
///
/// Made once per decode (its tables depend on the sample depth and the peak), then applied row by row.
package struct HDRRendering: Sendable {
    enum Transfer: Sendable { case pq, hlg }

    /// BT.2408's HDR reference white, shown as the screen's white.
    static let referenceWhite: Float = 203
    /// The display HLG is rendered for (BT.2100's nominal peak).
    static let hlgDisplayPeak: Float = 1000
    /// Where the roll-off starts, as a fraction of reference white: up to here (sRGB level 231) the
    /// picture is shown exactly as mastered; the rest of the screen's range holds everything brighter.
    static let knee: Float = 0.8

    let transfer: Transfer
    /// Brightest light in the content, relative to reference white (1 is reference white).
    let peak: Float
    /// Linear source RGB to linear sRGB (row-major), from lcms2; nil when the primaries are sRGB's.
    private let toSRGB: [Float]?
    /// Sample value to linear light: relative display light (PQ) or scene light in 0...1 (HLG), for
    /// samples of up to `tableBits` bits, one more entry at the end for interpolating the last step.
    private let linear: [Float]
    /// Deeper samples drop this many bits to index `linear` and interpolate with them: 12 bits is what
    /// BT.2100 counts as free of visible steps, and a table that small stays in the cache.
    private let tableShift: Int
    private static let tableBits = 12
    /// Samples are 0...maxSample.
    let maxSample: Int

    /// The rendering for pixels declaring `points` with samples of `bits` bits; nil when their transfer
    /// is not an HDR one or their primaries are unknown. `contentPeak` is the file's maximum content light
    /// level in cd/m², when it gives one.
    package init?(points: ColourCodePoints, bits: Int, contentPeak: Float? = nil) {
        guard let transfer = Self.transfer(of: points), (1...16).contains(bits) else { return nil }
        if points.primaries == 1 || points.primaries == 2 {
            toSRGB = nil
        } else {
            guard let matrix = Self.matrixToSRGB(from: points.primaries) else { return nil }
            toSRGB = matrix
        }
        self.transfer = transfer
        maxSample = (1 << bits) - 1
        tableShift = max(0, bits - Self.tableBits)
        linear = Self.linearTable(transfer, bits: bits - tableShift)
        switch transfer {
        case .pq: peak = min(max(contentPeak ?? 10000, Self.referenceWhite), 10000) / Self.referenceWhite
        case .hlg: peak = Self.hlgDisplayPeak / Self.referenceWhite
        }
        rollOff = RollOff(knee: Self.knee, peak: peak)
    }

    /// The matrices made so far, by primaries: lcms2 builds two profiles and a transform for each.
    private static let matrices = Mutex<[UInt16: [Float]]>([:])

    private static func matrixToSRGB(from primaries: UInt16) -> [Float]? {
        if let matrix = matrices.withLock({ $0[primaries] }) { return matrix }
        guard let matrix = CodePointProfiles.linearMatrix(from: primaries, to: 1) else { return nil }
        matrices.withLock { $0[primaries] = matrix }
        return matrix
    }

    private struct TableKey: Hashable {
        var transfer: Transfer
        var bits: Int
    }

    /// The sample-to-light tables made so far: a 16-bit one takes 65536 powers to make, and every
    /// thumbnail of a folder of HDR photos asks for the same one.
    private static let linearTables = Mutex<[TableKey: [Float]]>([:])

    private static func linearTable(_ transfer: Transfer, bits: Int) -> [Float] {
        let key = TableKey(transfer: transfer, bits: bits)
        if let table = linearTables.withLock({ $0[key] }) { return table }
        let top = (1 << bits) - 1
        let scale = 1 / Float(top)
        let table: [Float] = switch transfer {
        case .pq: (0...top + 1).map { pqToNits(Float(min($0, top)) * scale) / referenceWhite }
        case .hlg: (0...top + 1).map { hlgToScene(Float(min($0, top)) * scale) }
        }
        linearTables.withLock { $0[key] = table }
        return table
    }

    /// The transfer `points` declare, when it is PQ or HLG.
    static func transfer(of points: ColourCodePoints) -> Transfer? {
        switch points.transfer {
        case 16: .pq
        case 18: .hlg
        default: nil
        }
    }

    /// Whether `points` declare an HDR transfer, so the decoder should hand its samples at full depth.
    package static func isHDR(_ points: ColourCodePoints?) -> Bool { points.flatMap(transfer(of:)) != nil }

    private let rollOff: RollOff

    /// The largest power-of-two reduction of `size` that still covers `target` in both dimensions (1
    /// without a target): the decoder renders only the pixels a thumbnail or a fitted view needs.
    package static func reduction(of size: PixelSize, covering target: PixelSize?) -> Int {
        guard let target, target.width > 0, target.height > 0 else { return 1 }
        var factor = 1
        while factor < 64, (size.width + 2 * factor - 1) / (2 * factor) >= target.width,
              (size.height + 2 * factor - 1) / (2 * factor) >= target.height {
            factor *= 2
        }
        return factor
    }

    /// The size `render` gives `size` reduced by `factor`: partial blocks at the edges count as pixels.
    package static func reducedSize(_ size: PixelSize, by factor: Int) -> PixelSize {
        PixelSize(width: (size.width + factor - 1) / factor, height: (size.height + factor - 1) / factor)
    }

    /// Renders `size.height` rows of `size.width` pixels of `channels` interleaved 16-bit samples (3: RGB,
    /// 4: RGBA, straight alpha), rows `stride` samples apart, to 8-bit B, G, R, A, each output pixel from
    /// the mean of a `factor` × `factor` block of samples (`reducedSize`).
    package func render(_ samples: UnsafePointer<UInt16>, size: PixelSize, stride: Int, channels: Int,
                        reducedBy factor: Int = 1) -> PixelBuffer {
        let output = Self.reducedSize(size, by: factor)
        let bytes = [UInt8](unsafeUninitializedCapacity: output.area * 4) { out, count in
            render(samples, size: size, stride: stride, channels: channels, reducedBy: factor, into: out.baseAddress!)
            count = output.area * 4
        }
        return PixelBuffer(width: output.width, height: output.height, bytes: bytes)
    }

    /// `render`, into `out` (`reducedSize` × 4 bytes, rows packed).
    package func render(_ samples: UnsafePointer<UInt16>, size: PixelSize, stride: Int, channels: Int,
                        reducedBy factor: Int = 1, into out: UnsafeMutablePointer<UInt8>) {
        precondition(channels == 3 || channels == 4)
        precondition(factor >= 1)
        let output = Self.reducedSize(size, by: factor)
        var o = out
        withPixelRender { pixel in
            if factor == 1 {
                for y in 0..<size.height {
                    var p = samples + y * stride
                    for _ in 0..<size.width {
                        pixel.write(p[0], p[1], p[2], channels == 4 ? p[3] : UInt16(maxSample), to: o)
                        p += channels
                        o += 4
                    }
                }
                return
            }
            for by in 0..<output.height {
                let rows = by * factor..<min(size.height, (by + 1) * factor)
                for bx in 0..<output.width {
                    let columns = bx * factor..<min(size.width, (bx + 1) * factor)
                    var r = 0, g = 0, b = 0, a = 0
                    for y in rows {
                        var p = samples + y * stride + columns.lowerBound * channels
                        for _ in columns {
                            r += Int(p[0]); g += Int(p[1]); b += Int(p[2])
                            a += channels == 4 ? Int(p[3]) : maxSample
                            p += channels
                        }
                    }
                    let count = rows.count * columns.count, half = count / 2
                    pixel.write(UInt16((r + half) / count), UInt16((g + half) / count), UInt16((b + half) / count),
                                UInt16((a + half) / count), to: o)
                    o += 4
                }
            }
        }
    }

    /// `body` with the tables a pixel needs in reach.
    private func withPixelRender(_ body: (PixelRender) -> Void) {
        linear.withUnsafeBufferPointer { linear in
            rollOff.withTable { rollOff in
                Self.encode.withUnsafeBufferPointer { encode in
                    Self.hlgGains.withUnsafeBufferPointer { gains in
                        body(PixelRender(rendering: self, linear: linear.baseAddress!, rollOff: rollOff,
                                         encode: encode.baseAddress!, hlgGains: gains.baseAddress!))
                    }
                }
            }
        }
    }

    /// One pixel's way from samples to bytes, with the tables in reach.
    private struct PixelRender {
        let toSRGB: (Float, Float, Float, Float, Float, Float, Float, Float, Float)?
        let isHLG: Bool
        let top: Int
        let shift: Int
        let alphaScale: Float
        let linear: UnsafePointer<Float>
        let rollOff: RollOff.Table
        let encode: UnsafePointer<UInt8>
        let hlgGains: UnsafePointer<Float>

        init(rendering: HDRRendering, linear: UnsafePointer<Float>, rollOff: RollOff.Table, encode: UnsafePointer<UInt8>,
             hlgGains: UnsafePointer<Float>) {
            toSRGB = rendering.toSRGB.map { ($0[0], $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7], $0[8]) }
            isHLG = rendering.transfer == .hlg
            top = rendering.maxSample
            shift = rendering.tableShift
            alphaScale = 255 / Float(rendering.maxSample)
            self.linear = linear
            self.rollOff = rollOff
            self.encode = encode
            self.hlgGains = hlgGains
        }

        @inline(__always)
        func write(_ red: UInt16, _ green: UInt16, _ blue: UInt16, _ alpha: UInt16, to o: UnsafeMutablePointer<UInt8>) {
            var r = HDRRendering.lookUp(red, linear, shift: shift, top: top)
            var g = HDRRendering.lookUp(green, linear, shift: shift, top: top)
            var b = HDRRendering.lookUp(blue, linear, shift: shift, top: top)
            if isHLG { (r, g, b) = HDRRendering.hlgToDisplay(r, g, b, gains: hlgGains) }
            if let m = toSRGB {
                (r, g, b) = (max(0, m.0 * r + m.1 * g + m.2 * b),
                             max(0, m.3 * r + m.4 * g + m.5 * b),
                             max(0, m.6 * r + m.7 * g + m.8 * b))
            }
            let brightest = max(r, g, b)
            if brightest > rollOff.knee {
                let ratio = rollOff.value(brightest) / brightest
                r *= ratio; g *= ratio; b *= ratio
            }
            o[0] = encode[HDRRendering.encodeIndex(b)]
            o[1] = encode[HDRRendering.encodeIndex(g)]
            o[2] = encode[HDRRendering.encodeIndex(r)]
            o[3] = UInt8(Float(min(Int(alpha), top)) * alphaScale + 0.5)
        }
    }

    /// `sample`'s light from `table`, interpolating between its entries for samples deeper than it.
    @inline(__always)
    fileprivate static func lookUp(_ sample: UInt16, _ table: UnsafePointer<Float>, shift: Int, top: Int) -> Float {
        let value = min(Int(sample), top)
        guard shift > 0 else { return table[value] }
        // The table's entries are 0 to 2^tableBits - 1 over the same signal range as 0 to `top`.
        let position = Float(value) * Float((1 << tableBits) - 1) / Float(top)
        let i = Int(position)
        return table[i] + (table[i + 1] - table[i]) * (position - Float(i))
    }

    // MARK: - Transfers

    private static let m1: Float = 2610 / 16384, m2: Float = 2523 / 4096 * 128
    private static let c1: Float = 3424 / 4096, c2: Float = 2413 / 4096 * 32, c3: Float = 2392 / 4096 * 32

    /// SMPTE ST 2084's EOTF: signal to cd/m².
    static func pqToNits(_ signal: Float) -> Float {
        let p = powf(max(signal, 0), 1 / m2)
        return 10000 * powf(max(p - c1, 0) / (c2 - c3 * p), 1 / m1)
    }

    /// ST 2084's inverse EOTF: cd/m² to signal.
    static func nitsToPQ(_ nits: Float) -> Float {
        let y = powf(max(nits, 0) / 10000, m1)
        return powf((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    private static let hlgA: Float = 0.17883277, hlgB: Float = 0.28466892, hlgC: Float = 0.55991073

    /// BT.2100's HLG inverse OETF: signal to scene light, 0...1.
    static func hlgToScene(_ signal: Float) -> Float {
        let e = min(max(signal, 0), 1)
        return e <= 0.5 ? e * e / 3 : (expf((e - hlgC) / hlgA) + hlgB) / 12
    }

    /// BT.2100's HLG OOTF for the nominal display (gamma 1.2 at 1000 cd/m²), relative to reference white.
    /// `gains` is `hlgGains`.
    @inline(__always)
    fileprivate static func hlgToDisplay(_ r: Float, _ g: Float, _ b: Float,
                                         gains: UnsafePointer<Float>) -> (Float, Float, Float) {
        let luminance = 0.2627 * r + 0.6780 * g + 0.0593 * b
        guard luminance > 0 else { return (0, 0, 0) }
        let position = min(luminance, 1) * Float(hlgGainSteps)
        let i = Int(position)
        let gain = gains[i] + (gains[i + 1] - gains[i]) * (position - Float(i))
        return (r * gain, g * gain, b * gain)
    }

    /// `hlgDisplayPeak` × Ys^(γ−1) / reference white, over Ys in 0...1: the OOTF's gain, interpolated.
    fileprivate static let hlgGains: [Float] = (0...hlgGainSteps + 1).map { i in
        hlgDisplayPeak / referenceWhite * powf(Float(min(i, hlgGainSteps)) / Float(hlgGainSteps), 0.2)
    }
    private static let hlgGainSteps = 4096

    // MARK: - Output

    /// 16384 steps keep the table in the first-level cache, and are finer than a level's step
    /// everywhere (a tenth of a level at black, where sRGB's curve is steepest).
    private static let encodeSteps = 16383

    @inline(__always)
    fileprivate static func encodeIndex(_ value: Float) -> Int { Int(min(max(value, 0), 1) * Float(encodeSteps) + 0.5) }

    /// Linear light 0...1 in `encodeSteps` steps to 8-bit sRGB, rounded to nearest.
    private static let encode: [UInt8] = (0...encodeSteps).map { i in
        let x = Double(i) / Double(encodeSteps)
        let v = x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055
        return UInt8((v * 255).rounded())
    }

    /// The roll-off above the knee, in PQ's perceptual scale: with k, w and p the knee, reference white and
    /// peak as PQ signals and s = w − k, a signal e above k becomes k + s·g((e − k)/s), where
    /// g(u) = u(1 + u/u_p²)/(1 + u) and u_p = (p − k)/s: g has slope 1 at 0, rises all the way, and is 1 at
    /// u_p, so the peak lands on the screen's white. Tabulated over relative light from the knee to the
    /// peak; a peak at or below reference white needs no roll-off and clips only what exceeds it.
    private struct RollOff: Sendable {
        let knee: Float
        let peak: Float
        private let table: [Float]
        fileprivate static let steps = 4096

        init(knee: Float, peak: Float) {
            self.knee = knee
            self.peak = peak
            guard peak > 1 else {
                table = []
                return
            }
            let white = HDRRendering.referenceWhite
            let k = HDRRendering.nitsToPQ(knee * white), w = HDRRendering.nitsToPQ(white)
            let p = HDRRendering.nitsToPQ(peak * white)
            let s = w - k, top = (p - k) / s
            table = (0...Self.steps + 1).map { i in
                let light = knee + (peak - knee) * Float(min(i, Self.steps)) / Float(Self.steps)
                let u = (HDRRendering.nitsToPQ(light * white) - k) / s
                let g = u * (1 + u / (top * top)) / (1 + u)
                return HDRRendering.pqToNits(k + s * min(g, 1)) / white
            }
        }

        /// The curve with its table in reach, for the length of `body`.
        func withTable<Result>(_ body: (Table) -> Result) -> Result {
            table.withUnsafeBufferPointer { body(Table(knee: knee, peak: peak, values: $0.baseAddress)) }
        }

        struct Table {
            let knee: Float
            let peak: Float
            /// nil when the peak is at or below reference white: what exceeds it clips.
            let values: UnsafePointer<Float>?

            /// `light` (above the knee, relative to reference white) as shown.
            @inline(__always)
            func value(_ light: Float) -> Float {
                guard let values else { return min(light, 1) }
                let position = (min(light, peak) - knee) / (peak - knee) * Float(RollOff.steps)
                let i = Int(position)
                return values[i] + (values[i + 1] - values[i]) * (position - Float(i))
            }
        }
    }
}
