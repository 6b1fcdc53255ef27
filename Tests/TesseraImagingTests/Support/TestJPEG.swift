import CTurboJPEG
import Foundation
import TesseraCore
import XCTest

/// Makes real JPEGs in memory with TurboJPEG's compressor, so tests need no fixture files and know
/// exactly what the pixels should be.
enum TestJPEG {
    enum Source {
        /// ARGB8888 (B, G, R, A bytes) — the alpha byte is ignored by JPEG.
        case bgra(PixelBuffer)
        /// One byte per pixel, stored as a single-component (grayscale) JPEG.
        case gray(width: Int, height: Int, bytes: [UInt8])
        /// Four bytes per pixel C, M, Y, K, stored as a YCCK JPEG.
        case cmyk(width: Int, height: Int, bytes: [UInt8])
    }

    static func encode(_ source: Source, quality: Int32 = 95, subsampling: TJSAMP = TJSAMP_444) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let (w, h, bpp, format, bytes, samp): (Int, Int, Int, TJPF, [UInt8], TJSAMP) = switch source {
        case .bgra(let b): (b.width, b.height, 4, TJPF_BGRA, b.bytes, subsampling)
        case .gray(let w, let h, let bytes): (w, h, 1, TJPF_GRAY, bytes, TJSAMP_GRAY)
        case .cmyk(let w, let h, let bytes): (w, h, 4, TJPF_CMYK, bytes, subsampling)
        }
        let rc = bytes.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(w), Int32(w * bpp), Int32(h), Int32(format.rawValue),
                        &jpeg, &size, Int32(samp.rawValue), quality, 0)
        }
        precondition(rc == 0, "tjCompress2: \(String(cString: tjGetErrorStr2(handle)))")
        defer { tjFree(jpeg) }
        return Data(bytes: jpeg!, count: Int(size))
    }

    static func solid(width: Int, height: Int, color: RGBA, quality: Int32 = 95) -> Data {
        encode(.bgra(PixelBuffer(width: width, height: height, filledWith: color)), quality: quality)
    }

    /// A JPEG whose SOF header claims `width` x `height`; the data after it is a real (small) image, so
    /// only a header check can tell it is not what it claims.
    static func claiming(width: Int, height: Int) -> Data {
        var data = [UInt8](solid(width: 16, height: 16, color: RGBA(r: 1, g: 2, b: 3)))
        var i = 2
        while i + 9 < data.count {
            precondition(data[i] == 0xFF)
            let marker = data[i + 1]
            let length = Int(data[i + 2]) << 8 | Int(data[i + 3])
            if (0xC0...0xC2).contains(marker) {
                data[i + 5] = UInt8(height >> 8); data[i + 6] = UInt8(height & 0xFF)
                data[i + 7] = UInt8(width >> 8); data[i + 8] = UInt8(width & 0xFF)
                return Data(data)
            }
            i += 2 + length
        }
        preconditionFailure("no SOF marker")
    }
}

/// Test images and measurements.
enum TestPixels {
    /// A smooth diagonal gradient: red across, green down, blue along the diagonal.
    static func gradient(width: Int, height: Int) -> PixelBuffer {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        let wx = 255.0 / Double(max(1, width - 1)), wy = 255.0 / Double(max(1, height - 1))
        bytes.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                let g = UInt8(Double(y) * wy)
                var i = y * width * 4
                for x in 0..<width {
                    let r = Double(x) * wx
                    p[i] = UInt8((r + Double(g)) / 2); p[i + 1] = g; p[i + 2] = UInt8(r)
                    i += 4
                }
            }
        }
        return PixelBuffer(width: width, height: height, bytes: bytes)
    }

    /// Peak signal-to-noise ratio over the colour channels (alpha ignored), in dB.
    static func psnr(_ a: PixelBuffer, _ b: PixelBuffer) -> Double {
        precondition(a.size == b.size)
        var sum = 0.0, n = 0.0
        for i in stride(from: 0, to: a.bytes.count, by: 4) {
            for c in 0..<3 {
                let d = Double(a.bytes[i + c]) - Double(b.bytes[i + c])
                sum += d * d
            }
            n += 3
        }
        let mse = sum / n
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
