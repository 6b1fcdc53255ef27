/// A size in device pixels (not logical points).
package struct PixelSize: Hashable, Sendable, Codable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var area: Int { width * height }
    package var description: String { "\(width)x\(height)" }

    /// The largest size with this size's aspect ratio that fits inside `box`, never larger than self
    /// (images are shrunk to fit a cell, not blown up) and never smaller than 1x1.
    package func aspectFit(in box: PixelSize, allowUpscale: Bool = false) -> PixelSize {
        guard width > 0, height > 0, box.width > 0, box.height > 0 else { return PixelSize(width: 1, height: 1) }
        var scale = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        if !allowUpscale { scale = min(scale, 1) }
        return PixelSize(width: max(1, Int((Double(width) * scale).rounded())),
                         height: max(1, Int((Double(height) * scale).rounded())))
    }
}

/// Decoded pixels in the renderer's native format, SDL_PIXELFORMAT_ARGB8888: a 32-bit word per pixel,
/// which on little-endian machines is the byte order B, G, R, A. Workers produce these so the main thread
/// only copies them into a texture.
package struct PixelBuffer: Sendable {
    package let width: Int
    package let height: Int
    package var bytes: [UInt8]
    /// The size of the image these pixels were decoded from, when known (after orientation). A reduced
    /// preview is drawn at the size the source would have in the cell, not stretched blindly.
    package var sourceSize: PixelSize?
    /// The ICC profile embedded in the image these pixels were decoded from, when the decoder found one;
    /// nil means the pixels are sRGB.
    package var colourProfile: [UInt8]?
    /// The colour space the image declares by code points instead of a profile (HEIF/AVIF `nclx` boxes,
    /// as phones write Display P3), when it does and carries no ICC profile; nil means sRGB.
    package var colourCodePoints: ColourCodePoints?

    package init(width: Int, height: Int, bytes: [UInt8]) {
        precondition(bytes.count == width * height * 4, "PixelBuffer: \(bytes.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// A buffer filled with one colour (straight alpha).
    package init(width: Int, height: Int, filledWith color: RGBA) {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        var i = 0
        while i < bytes.count {
            bytes[i] = color.b; bytes[i + 1] = color.g; bytes[i + 2] = color.r; bytes[i + 3] = color.a
            i += 4
        }
        self.init(width: width, height: height, bytes: bytes)
    }

    /// Whether every pixel's alpha is 255, as found by whoever made the buffer (the strip's loader checks
    /// on its worker, so the main thread need not); nil when nobody looked. Changing
    /// `bytes` afterwards is the changer's business: set it back to nil.
    package var knownOpaque: Bool?

    /// Why the picture is only part of the image, when its decoder could read only part of the file (a
    /// file cut short, damaged data): the decoder's own words. What could not be read is grey or
    /// transparent; the strip marks such a cell and the overlay says why.
    package var damage: String?

    /// The file holds more images than this one, its first (a multi-page TIFF, a HEIF collection): the
    /// strip's cell says so. How many is the information overlay's to read.
    package var holdsSeveralImages = false
    /// The file is a HEIF image sequence, of which these pixels are the first image.
    package var isSequence = false

    /// Takes what `source` says of the file beside its pixels (damage, more images) onto these, which were
    /// made from its (scaled, turned, cut): the same file's picture.
    package mutating func keepFileFacts(of source: PixelBuffer) {
        damage = source.damage
        holdsSeveralImages = source.holdsSeveralImages
        isSequence = source.isSequence
    }

    /// Whether every pixel's alpha is 255: `knownOpaque`, or a scan of the alpha bytes.
    package var isOpaque: Bool { knownOpaque ?? scanIsOpaque() }

    /// Looks at every alpha byte.
    package func scanIsOpaque() -> Bool {
        bytes.withUnsafeBufferPointer { bytes in
            var i = 3
            while i < bytes.count {
                if bytes[i] != 255 { return false }
                i += 4
            }
            return true
        }
    }

    package var size: PixelSize { PixelSize(width: width, height: height) }
    package var bytesPerRow: Int { width * 4 }
    /// What the buffer costs a cache: its decoded bytes.
    package var cost: Int { bytes.count }

    package func pixel(x: Int, y: Int) -> RGBA {
        let i = (y * width + x) * 4
        return RGBA(r: bytes[i + 2], g: bytes[i + 1], b: bytes[i], a: bytes[i + 3])
    }
}

package struct RGBA: Hashable, Sendable, CustomStringConvertible {
    package var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    package init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    package var description: String { "rgba(\(r),\(g),\(b),\(a))" }

    /// True when every channel is within `tolerance` of the other colour's.
    package func isClose(to other: RGBA, tolerance: Int = 8) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance && abs(Int(a) - Int(other.a)) <= tolerance
    }
}

/// A colour space named by ITU-T H.273 code points (colour primaries, transfer characteristics, matrix
/// coefficients), as video-derived formats (HEIF, AVIF, JPEG XL) declare it. Primaries 1 with transfer 13
/// is sRGB; primaries 12 is Display P3; 9 is BT.2020.
package struct ColourCodePoints: Sendable, Hashable {
    package var primaries: UInt16
    package var transfer: UInt16
    package var matrix: UInt16
    package var fullRange: Bool

    package init(primaries: UInt16, transfer: UInt16, matrix: UInt16, fullRange: Bool) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.fullRange = fullRange
    }
}
