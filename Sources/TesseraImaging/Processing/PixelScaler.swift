import TesseraCore

/// Resamples ARGB8888 pixel buffers on the CPU, on worker threads, before anything reaches a texture.
///
/// Downscaling uses area averaging (a box filter with fractional coverage): every destination pixel is
/// the coverage-weighted mean of the source pixels under it. Unlike bilinear sampling, which skips most
/// source pixels at large ratios and so aliases (shimmering thumbnails, moiré on fabric), this uses every
/// pixel exactly once, and a solid colour stays exactly that colour.
///
/// Averaging is done on alpha-premultiplied values and un-premultiplied at the end, so the colour of a
/// fully transparent pixel (often garbage, e.g. green in an icon's transparent border) cannot bleed into
/// its visible neighbours.
///
/// The filter is separable: each source row is averaged horizontally once (into a Float row, cached so
/// a row shared by two destination rows isn't redone), then destination rows are accumulated vertically
/// with precomputed weights. Scratch memory is a few destination rows, independent of the source size.
/// Upscaling (only when explicitly asked for) uses bilinear weights through the same machinery.
package enum PixelScaler {
    /// `buffer` resampled to exactly `size` (clamped to at least 1x1). Aspect ratio is the caller's business.
    package static func scaled(_ buffer: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        let dw = max(1, size.width), dh = max(1, size.height)
        if dw == buffer.width && dh == buffer.height { return buffer }
        guard buffer.width > 0, buffer.height > 0 else {
            return PixelBuffer(width: dw, height: dh, bytes: [UInt8](repeating: 0, count: dw * dh * 4))
        }
        // A damaged picture scaled is still damaged, a page still one of several.
        if let factor = exactReduction(from: buffer.size, to: PixelSize(width: dw, height: dh)) {
            var reduced = reduced(buffer, by: factor)
            reduced.knownOpaque = buffer.knownOpaque
            reduced.keepFileFacts(of: buffer)
            return reduced
        }
        var resampled = resampled(buffer, to: PixelSize(width: dw, height: dh))
        resampled.keepFileFacts(of: buffer)
        return resampled
    }

    /// `buffer` through the weighted kernel, whatever the sizes (`size` at least 1x1, `buffer` not empty).
    static func resampled(_ buffer: PixelBuffer, to size: PixelSize) -> PixelBuffer {
        let dw = size.width, dh = size.height
        let xs = AxisWeights(source: buffer.width, destination: dw)
        let ys = AxisWeights(source: buffer.height, destination: dh)
        let bytes = buffer.bytes.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: dw * dh * 4) { out, initialized in
                resample(src, width: buffer.width, xs: xs, ys: ys, into: out)
                initialized = dw * dh * 4
            }
        }
        return PixelBuffer(width: dw, height: dh, bytes: bytes)
    }

    /// `buffer` shrunk to the largest size with its aspect ratio that fits in `box`; never enlarged, and
    /// returned unchanged (no copy) when it already fits.
    package static func fit(_ buffer: PixelBuffer, in box: PixelSize) -> PixelBuffer {
        let target = buffer.size.aspectFit(in: box)
        if target == buffer.size { return buffer }
        return scaled(buffer, to: target)
    }

    // MARK: - Exact reductions

    /// The factor when `destination` is `source` divided by 2, 4 or 8 in both directions: each destination
    /// pixel is then the plain mean of a square block, which integers give exactly as the weighted kernel
    /// does (its weights are powers of two) at a fraction of the cost. Pyramid levels and DCT-scaled
    /// decodes halve images this way all the time.
    static func exactReduction(from source: PixelSize, to destination: PixelSize) -> Int? {
        for factor in [2, 4, 8] where destination.width * factor == source.width && destination.height * factor == source.height {
            return factor
        }
        return nil
    }

    /// `buffer` reduced by `factor` (2, 4 or 8; its sides multiples of it): block means of premultiplied
    /// values, un-premultiplied and rounded as `writeUnpremultiplied` does. The kernel's sums are exact
    /// here (integers times powers of two), so a translucent block repeats its last steps in Float, where
    /// dividing by way of a reciprocal can round an exact half down.
    static func reduced(_ buffer: PixelBuffer, by factor: Int) -> PixelBuffer {
        let dw = buffer.width / factor, dh = buffer.height / factor, sw = buffer.width
        let shift = factor.trailingZeroBitCount * 2
        let count = UInt32(factor * factor), half = count / 2
        let bytes = buffer.bytes.withUnsafeBufferPointer { src in
            [UInt8](unsafeUninitializedCapacity: dw * dh * 4) { out, initialized in
                let s = src.baseAddress!, o = out.baseAddress!
                for dy in 0..<dh {
                    for dx in 0..<dw {
                        var b: UInt32 = 0, g: UInt32 = 0, r: UInt32 = 0, a: UInt32 = 0
                        var ab: UInt32 = 0, ag: UInt32 = 0, ar: UInt32 = 0
                        for y in 0..<factor {
                            var p = s + ((dy * factor + y) * sw + dx * factor) * 4
                            for _ in 0..<factor {
                                let pa = UInt32(p[3])
                                b &+= UInt32(p[0]); g &+= UInt32(p[1]); r &+= UInt32(p[2]); a &+= pa
                                ab &+= UInt32(p[0]) &* pa; ag &+= UInt32(p[1]) &* pa; ar &+= UInt32(p[2]) &* pa
                                p += 4
                            }
                        }
                        let q = o + (dy * dw + dx) * 4
                        if a == 255 * count {
                            q[0] = UInt8((b + half) >> shift); q[1] = UInt8((g + half) >> shift)
                            q[2] = UInt8((r + half) >> shift); q[3] = 255
                        } else if a == 0 {
                            q[0] = 0; q[1] = 0; q[2] = 0; q[3] = 0
                        } else {
                            let n = Float(count), alpha = Float(a) / n, inverse = 1 / alpha
                            q[0] = toByte(Float(ab) / n * inverse); q[1] = toByte(Float(ag) / n * inverse)
                            q[2] = toByte(Float(ar) / n * inverse); q[3] = toByte(alpha)
                        }
                    }
                }
                initialized = dw * dh * 4
            }
        }
        return PixelBuffer(width: dw, height: dh, bytes: bytes)
    }

    // MARK: - Kernel

    private static func resample(_ src: UnsafeBufferPointer<UInt8>, width sw: Int,
                                 xs: AxisWeights, ys: AxisWeights, into out: UnsafeMutableBufferPointer<UInt8>) {
        let dw = xs.destination, rowFloats = dw * 4
        // Two cached horizontally-filtered source rows (enough for box filtering, where consecutive
        // destination rows share at most one source row, and for bilinear, which uses pairs), and the
        // vertical accumulator.
        let scratch = UnsafeMutableBufferPointer<Float>.allocate(capacity: rowFloats * 3)
        defer { scratch.deallocate() }
        let rows = [UnsafeMutableBufferPointer(rebasing: scratch[0..<rowFloats]),
                    UnsafeMutableBufferPointer(rebasing: scratch[rowFloats..<(2 * rowFloats)])]
        let acc = UnsafeMutableBufferPointer(rebasing: scratch[(2 * rowFloats)...])
        var cached = [-1, -1]

        xs.withPointers { xStart, xCount, xWeight in
            ys.withPointers { yStart, yCount, yWeight in
                for dy in 0..<ys.destination {
                    acc.update(repeating: 0)
                    let first = Int(yStart[dy]), n = Int(yCount[dy])
                    for k in 0..<n {
                        let sy = first + k
                        let slot: Int
                        if cached[0] == sy { slot = 0 } else if cached[1] == sy { slot = 1 } else {
                            // Rows are visited in increasing order, so the older (smaller) one is done with.
                            slot = cached[0] <= cached[1] ? 0 : 1
                            filterRow(src, offset: sy * sw * 4, xStart: xStart, xCount: xCount,
                                      xWeight: xWeight, stride: xs.stride, count: dw, into: rows[slot])
                            cached[slot] = sy
                        }
                        let w = yWeight[dy * ys.stride + k]
                        let row = rows[slot]
                        for i in 0..<rowFloats { acc[i] += w * row[i] }
                    }
                    writeUnpremultiplied(UnsafeBufferPointer(acc), into: out, at: dy * rowFloats)
                }
            }
        }
    }

    /// Un-premultiplies one accumulated row into bytes at `offset`. Alpha was accumulated as the weighted
    /// mean of A (0...255), colours as the weighted mean of A*C, so C = sum(A*C)/sum(A).
    @inline(__always)
    static func writeUnpremultiplied(_ acc: UnsafeBufferPointer<Float>, into out: UnsafeMutableBufferPointer<UInt8>,
                                     at offset: Int) {
        var o = offset
        for i in stride(from: 0, to: acc.count, by: 4) {
            let a = acc[i + 3]
            if a < 1e-4 {
                out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0
            } else {
                let inv = 1 / a
                out[o] = toByte(acc[i] * inv)
                out[o + 1] = toByte(acc[i + 1] * inv)
                out[o + 2] = toByte(acc[i + 2] * inv)
                out[o + 3] = toByte(a)
            }
            o += 4
        }
    }

    /// Horizontal pass over one source row: premultiplied, weighted sums per destination pixel.
    @inline(__always)
    static func filterRow(_ src: UnsafeBufferPointer<UInt8>, offset: Int,
                                  xStart: UnsafePointer<Int32>, xCount: UnsafePointer<Int32>,
                                  xWeight: UnsafePointer<Float>, stride: Int, count dw: Int,
                                  into row: UnsafeMutableBufferPointer<Float>) {
        for dx in 0..<dw {
            var p = offset + Int(xStart[dx]) * 4
            let wBase = dx * stride
            var b: Float = 0, g: Float = 0, r: Float = 0, a: Float = 0
            for k in 0..<Int(xCount[dx]) {
                let aw = Float(src[p + 3]) * xWeight[wBase + k]
                b += Float(src[p]) * aw
                g += Float(src[p + 1]) * aw
                r += Float(src[p + 2]) * aw
                a += aw
                p += 4
            }
            let o = dx * 4
            row[o] = b; row[o + 1] = g; row[o + 2] = r; row[o + 3] = a
        }
    }

    @inline(__always)
    static func toByte(_ v: Float) -> UInt8 {
        UInt8(max(0, min(255, v + 0.5)))
    }
}

/// Precomputed resampling weights along one axis: for each destination index, the first contributing
/// source index, how many contribute, and their weights (normalised to sum to 1), stored at a fixed
/// stride so lookups are a multiply and an add.
struct AxisWeights {
    let destination: Int
    let stride: Int
    var start: [Int32]
    var count: [Int32]
    var weights: [Float]

    init(source: Int, destination: Int) {
        self.destination = destination
        let ratio = Double(source) / Double(destination)
        // Box filter when shrinking (or same size); bilinear (2 taps) when enlarging.
        stride = destination <= source ? Int(ratio.rounded(.up)) + 1 : 2
        start = [Int32](repeating: 0, count: destination)
        count = [Int32](repeating: 0, count: destination)
        weights = [Float](repeating: 0, count: destination * stride)
        var taps = [Double](repeating: 0, count: stride)
        for d in 0..<destination {
            var first: Int, n = 0
            if destination <= source {
                // Destination pixel d covers source interval [left, right).
                let left = Double(d) * ratio, right = min(Double(source), Double(d + 1) * ratio)
                first = min(source - 1, Int(left.rounded(.down)))
                var s = first
                while Double(s) < right && s < source && n < stride {
                    let overlap = min(right, Double(s + 1)) - max(left, Double(s))
                    if overlap > 1e-9 {
                        if n == 0 { first = s }
                        taps[n] = overlap; n += 1
                    } else if n == 0 {
                        first = s + 1
                    }
                    s += 1
                }
            } else {
                let center = min(max((Double(d) + 0.5) * ratio - 0.5, 0), Double(source - 1))
                first = Int(center.rounded(.down))
                let f = center - Double(first)
                if first + 1 < source && f > 1e-9 {
                    taps[0] = 1 - f; taps[1] = f; n = 2
                } else {
                    taps[0] = 1; n = 1
                }
            }
            if n == 0 { first = min(first, source - 1); taps[0] = 1; n = 1 }  // rounding paranoia
            let sum = taps[0..<n].reduce(0, +)
            start[d] = Int32(first)
            count[d] = Int32(n)
            for k in 0..<n { weights[d * stride + k] = Float(taps[k] / sum) }
        }
    }

    func withPointers<R>(_ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Float>) -> R) -> R {
        start.withUnsafeBufferPointer { s in
            count.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in body(s.baseAddress!, c.baseAddress!, w.baseAddress!) }
            }
        }
    }
}
