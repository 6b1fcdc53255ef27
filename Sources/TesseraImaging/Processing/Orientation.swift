import TesseraCore

/// How a camera says its stored pixels must be turned to be seen upright: the EXIF/TIFF Orientation tag
/// (0x0112), values 1 to 8. Each case is named after what `apply(to:)` does to the stored pixels.
///
/// The values describe where the stored image's first row and first column belong: 6 (the usual portrait
/// photo from a phone held upright) stores the picture lying on its side, top row on the right, so it is
/// turned 90° clockwise to be shown. 5 to 8 swap width and height.
package enum ImageOrientation: Int, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// 1: shown as stored.
    case up = 1
    /// 2: mirrored left to right.
    case mirrored = 2
    /// 3: turned 180°.
    case rotated180 = 3
    /// 4: mirrored top to bottom.
    case mirroredVertically = 4
    /// 5: mirrored along the main diagonal (top-left to bottom-right): rows become columns.
    case transposed = 5
    /// 6: turned 90° clockwise.
    case rotated90 = 6
    /// 7: mirrored along the other diagonal (top-right to bottom-left).
    case transversed = 7
    /// 8: turned 90° counter-clockwise (270° clockwise).
    case rotated270 = 8

    /// The orientation of an EXIF value; nil for anything outside 1...8 (0 and 9 do occur in the wild).
    package init?(exifValue: Int) {
        self.init(rawValue: exifValue)
    }

    /// Whether width and height trade places (5 to 8).
    package var swapsAxes: Bool { rawValue >= 5 }

    /// The size of the image once oriented, from its stored size; and, because the swap is its own inverse,
    /// the stored size from the shown one.
    package func orientedSize(_ size: PixelSize) -> PixelSize {
        swapsAxes ? PixelSize(width: size.height, height: size.width) : size
    }

    package var description: String { "\(rawValue)" }

    /// `buffer` (as stored) turned upright, with what it says of its source (size, opacity, colour) turned
    /// along. `.up` returns it unchanged without copying.
    package func apply(to buffer: PixelBuffer) -> PixelBuffer {
        guard self != .up, buffer.width > 0, buffer.height > 0 else { return buffer }
        let w = buffer.width, h = buffer.height
        let out = orientedSize(buffer.size)
        // Output pixel (x, y) comes from source pixel index origin + x * stepX + y * stepY.
        let (origin, stepX, stepY): (Int, Int, Int) = switch self {
        case .up: (0, 1, w)
        case .mirrored: (w - 1, -1, w)
        case .rotated180: ((h - 1) * w + w - 1, -1, -w)
        case .mirroredVertically: ((h - 1) * w, 1, -w)
        case .transposed: (0, w, 1)
        case .rotated90: ((h - 1) * w, -w, 1)
        case .transversed: ((h - 1) * w + w - 1, -w, -1)
        case .rotated270: (w - 1, w, -1)
        }
        let count = w * h
        let bytes = [UInt8](unsafeUninitializedCapacity: count * 4) { destination, initialized in
            buffer.bytes.withUnsafeBytes { source in
                let src = source.bindMemory(to: UInt32.self).baseAddress!
                let dst = UnsafeMutableRawPointer(destination.baseAddress!).bindMemory(to: UInt32.self, capacity: count)
                Self.remap(src, into: dst, width: out.width, height: out.height,
                           origin: origin, stepX: stepX, stepY: stepY)
            }
            initialized = count * 4
        }
        // A turn changes where pixels are, not what they are: opacity and colour space stay.
        var turned = PixelBuffer(width: out.width, height: out.height, bytes: bytes)
        turned.knownOpaque = buffer.knownOpaque
        turned.sourceSize = buffer.sourceSize.map(orientedSize)
        turned.colourProfile = buffer.colourProfile
        turned.colourCodePoints = buffer.colourCodePoints
        turned.keepFileFacts(of: buffer)
        return turned
    }

    /// The part of the stored image that `region` of the oriented image comes from, for a stored image of
    /// `storedSize`: what to decode (or draw) so that `apply(to:)` gives exactly `region`.
    package func storedRegion(of region: PixelRegion, storedSize: PixelSize) -> PixelRegion {
        let (w, h) = (storedSize.width, storedSize.height)
        // Where the oriented pixel (x, y) is stored: `apply(to:)`'s origin and steps, as coordinates.
        func stored(_ x: Int, _ y: Int) -> (x: Int, y: Int) {
            switch self {
            case .up: (x, y)
            case .mirrored: (w - 1 - x, y)
            case .rotated180: (w - 1 - x, h - 1 - y)
            case .mirroredVertically: (x, h - 1 - y)
            case .transposed: (y, x)
            case .rotated90: (y, h - 1 - x)
            case .transversed: (w - 1 - y, h - 1 - x)
            case .rotated270: (w - 1 - y, x)
            }
        }
        let a = stored(region.x, region.y), b = stored(region.maxX - 1, region.maxY - 1)
        return PixelRegion(x: min(a.x, b.x), y: min(a.y, b.y), width: abs(a.x - b.x) + 1, height: abs(a.y - b.y) + 1)
    }

    /// Writes every output pixel from its source pixel, in square blocks so that the reads of a 90° turn,
    /// which walk down source columns, stay within a few cache lines per block instead of touching a new
    /// line (and page) for every pixel of a row.
    private static func remap(_ src: UnsafePointer<UInt32>, into dst: UnsafeMutablePointer<UInt32>,
                              width: Int, height: Int, origin: Int, stepX: Int, stepY: Int) {
        let block = 64
        var by = 0
        while by < height {
            let yEnd = min(by + block, height)
            var bx = 0
            while bx < width {
                let xEnd = min(bx + block, width)
                for y in by..<yEnd {
                    var s = origin + bx * stepX + y * stepY
                    var d = y * width + bx
                    for _ in bx..<xEnd {
                        dst[d] = src[s]
                        s += stepX
                        d += 1
                    }
                }
                bx = xEnd
            }
            by = yEnd
        }
    }
}
