import TesseraCore

/// How many pixels of a picture have each value, per channel and for luminance, as a photographer reads
/// exposure from it; and how many are clipped: a highlight with some channel at 255, a shadow with every
/// channel at 0. Values are the picture's as shown (8-bit, display encoded); fully transparent pixels
/// are not counted.
package struct Histogram: Equatable, Sendable {
    package private(set) var red = [Int](repeating: 0, count: 256)
    package private(set) var green = [Int](repeating: 0, count: 256)
    package private(set) var blue = [Int](repeating: 0, count: 256)
    /// BT.709's weights on the encoded values (what editors' luminance histograms show), rounded.
    package private(set) var luminance = [Int](repeating: 0, count: 256)
    package private(set) var pixelCount = 0
    /// Pixels with at least one channel at 255.
    package private(set) var clippedHighlights = 0
    /// Pixels with every channel at 0.
    package private(set) var crushedShadows = 0

    /// Counts `pixels` (B, G, R, A bytes).
    package init(_ pixels: PixelBuffer) {
        pixels.bytes.withUnsafeBufferPointer { bytes in
            var i = 0
            while i + 3 < bytes.count {
                let b = Int(bytes[i]), g = Int(bytes[i + 1]), r = Int(bytes[i + 2]), a = bytes[i + 3]
                i += 4
                guard a != 0 else { continue }
                red[r] += 1
                green[g] += 1
                blue[b] += 1
                luminance[(2126 * r + 7152 * g + 722 * b + 5000) / 10000] += 1
                pixelCount += 1
                if r == 255 || g == 255 || b == 255 { clippedHighlights += 1 }
                if r == 0 && g == 0 && b == 0 { crushedShadows += 1 }
            }
        }
    }

    /// The share of counted pixels clipped in the highlights, and in the shadows.
    package var clippedShares: (highlights: Double, shadows: Double) {
        guard pixelCount > 0 else { return (0, 0) }
        return (Double(clippedHighlights) / Double(pixelCount), Double(crushedShadows) / Double(pixelCount))
    }

    /// The histogram drawn in `width` x `height` pixels: luminance as a grey area behind, each channel's
    /// curve added in its own colour over it (where all three meet, white), on a transparent ground. The
    /// height follows the highest bin between the ends, so that a spike of clipped pixels at 0 or 255
    /// does not flatten the rest (it is cut at the top).
    package func picture(width: Int, height: Int) -> PixelBuffer {
        var out = PixelBuffer(width: width, height: height, filledWith: RGBA(r: 0, g: 0, b: 0, a: 0))
        let inner = [red, green, blue, luminance].map { $0[1..<255].max() ?? 0 }.max() ?? 0
        let peak = Double(max(inner, 1))
        func barHeight(_ counts: [Int], column: Int) -> Int {
            let bin = min(255, column * 256 / max(width, 1))
            return min(height, Int((Double(counts[bin]) / peak * Double(height)).rounded(.up)))
        }
        out.bytes.withUnsafeMutableBufferPointer { bytes in
            for x in 0..<width {
                let grey = barHeight(luminance, column: x)
                let channels = [barHeight(blue, column: x), barHeight(green, column: x), barHeight(red, column: x)]
                for y in 0..<height {
                    let fromBottom = height - y
                    let i = (y * width + x) * 4
                    var lit = false
                    for (channel, bar) in channels.enumerated() where fromBottom <= bar {
                        bytes[i + channel] = 220
                        lit = true
                    }
                    if lit {
                        bytes[i + 3] = 230
                    } else if fromBottom <= grey {
                        bytes[i] = 110; bytes[i + 1] = 110; bytes[i + 2] = 110; bytes[i + 3] = 200
                    }
                }
            }
        }
        return out
    }

    /// A picture the size of `pixels` marking its clipped highlights in red and its crushed shadows in
    /// blue, transparent elsewhere: laid over the image, it shows where detail is lost.
    package static func clippingMask(of pixels: PixelBuffer) -> PixelBuffer {
        var mask = PixelBuffer(width: pixels.width, height: pixels.height, filledWith: RGBA(r: 0, g: 0, b: 0, a: 0))
        pixels.bytes.withUnsafeBufferPointer { source in
            mask.bytes.withUnsafeMutableBufferPointer { target in
                var i = 0
                while i + 3 < source.count {
                    let b = source[i], g = source[i + 1], r = source[i + 2], a = source[i + 3]
                    if a != 0 {
                        if r == 255 || g == 255 || b == 255 {
                            target[i] = 40; target[i + 1] = 40; target[i + 2] = 255; target[i + 3] = 255
                        } else if r == 0 && g == 0 && b == 0 {
                            target[i] = 255; target[i + 1] = 80; target[i + 2] = 40; target[i + 3] = 255
                        }
                    }
                    i += 4
                }
            }
        }
        return mask
    }
}
