import Foundation

/// Rows of the byte orders libraries hand out, into Tessera's B, G, R, A (ARGB8888 on little-endian
/// machines) with straight alpha: one place for the swizzles every decoder without a BGRA output needs.
enum PixelConversion {
    /// R, G, B, A rows (`stride` bytes apart) to B, G, R, A.
    static func bgra(fromRGBA source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            for y in 0..<height {
                var s = source + y * stride
                var d = out.baseAddress! + y * width * 4
                for _ in 0..<width {
                    d[0] = s[2]; d[1] = s[1]; d[2] = s[0]; d[3] = s[3]
                    s += 4; d += 4
                }
            }
            count = width * height * 4
        }
    }

    /// R, G, B, A to B, G, R, A in place (tightly packed rows).
    static func swapRedAndBlue(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i + 3 < pixels.count {
            let r = pixels[i]
            pixels[i] = pixels[i + 2]
            pixels[i + 2] = r
            i += 4
        }
    }

    /// R, G, B rows (`stride` bytes apart) to B, G, R, 255.
    static func bgra(fromRGB source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            for y in 0..<height {
                var s = source + y * stride
                var d = out.baseAddress! + y * width * 4
                for _ in 0..<width {
                    d[0] = s[2]; d[1] = s[1]; d[2] = s[0]; d[3] = 255
                    s += 3; d += 4
                }
            }
            count = width * height * 4
        }
    }

    /// Premultiplied 16-bit R, G, B, A samples of `0...maximum` to straight alpha, in place, rounding.
    static func unpremultiply(_ samples: inout [UInt16], maximum: Int) {
        var i = 0
        while i + 3 < samples.count {
            let a = Int(samples[i + 3])
            if a != maximum && a != 0 {
                for c in 0..<3 { samples[i + c] = UInt16(min(maximum, (Int(samples[i + c]) * maximum + a / 2) / a)) }
            }
            i += 4
        }
    }

    /// Premultiplied B, G, R, A (cairo's ARGB32, libtiff's associated alpha) to straight alpha, in place,
    /// rounding to the nearest level.
    static func unpremultiply(_ pixels: UnsafeMutableBufferPointer<UInt8>) {
        var i = 0
        while i + 3 < pixels.count {
            let a = UInt32(pixels[i + 3])
            if a != 255 && a != 0 {
                for c in 0..<3 { pixels[i + c] = UInt8(min(255, (UInt32(pixels[i + c]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
    }
}
