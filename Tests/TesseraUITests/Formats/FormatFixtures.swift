import CPNG
import CTurboJPEG
import CZlib
import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport

/// Test images of every format the viewer reads, made in memory by the formats' own libraries (TurboJPEG,
/// libpng) or by hand (GIF, BMP, TIFF), so the expected pixels are known exactly and no fixture files are
/// needed. WebP has no encoder reachable from Swift here; `cwebp` makes those when it is installed.
enum FormatFixtures {
    /// The picture every fixture holds: four quadrants in distinct colours, so a mirrored, rotated or
    /// channel-swapped decode is caught.
    static let topLeft = RGBA(r: 220, g: 30, b: 30)
    static let topRight = RGBA(r: 30, g: 200, b: 40)
    static let bottomLeft = RGBA(r: 40, g: 50, b: 210)
    static let bottomRight = RGBA(r: 240, g: 230, b: 60)

    static func quadrants(width: Int = 64, height: Int = 48, alpha: UInt8 = 255) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, filledWith: topLeft)
        for y in 0..<height {
            for x in 0..<width {
                let c = colour(x: x, y: y, width: width, height: height)
                let i = (y * width + x) * 4
                buffer.bytes[i] = c.b; buffer.bytes[i + 1] = c.g; buffer.bytes[i + 2] = c.r; buffer.bytes[i + 3] = alpha
            }
        }
        return buffer
    }

    static func colour(x: Int, y: Int, width: Int, height: Int) -> RGBA {
        y < height / 2 ? (x < width / 2 ? topLeft : topRight) : (x < width / 2 ? bottomLeft : bottomRight)
    }

    // MARK: - JPEG (TurboJPEG)

    enum JPEGKind { case baseline, progressive, grayscale, cmyk }

    static func jpeg(_ kind: JPEGKind, width: Int = 64, height: Int = 48) -> Data {
        let handle = tjInitCompress()!
        defer { tjDestroy(handle) }
        let rgb = quadrants(width: width, height: height)
        var pixelFormat = TJPF_BGRA, subsampling = TJSAMP_444, flags: Int32 = 0, bytes = rgb.bytes, pitch = width * 4
        switch kind {
        case .baseline: break
        case .progressive: flags = Int32(TJFLAG_PROGRESSIVE)
        case .grayscale:
            pixelFormat = TJPF_GRAY; subsampling = TJSAMP_GRAY; pitch = width
            bytes = stride(from: 0, to: rgb.bytes.count, by: 4).map { (i: Int) -> UInt8 in
                luma(r: rgb.bytes[i + 2], g: rgb.bytes[i + 1], b: rgb.bytes[i])
            }
        case .cmyk:
            // Adobe-style inverted CMYK with no black: C = R, M = G, Y = B (255 = no ink), K = 255.
            pixelFormat = TJPF_CMYK
            bytes = stride(from: 0, to: rgb.bytes.count, by: 4).flatMap { (i: Int) -> [UInt8] in
                [rgb.bytes[i + 2], rgb.bytes[i + 1], rgb.bytes[i], 255]
            }
        }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = bytes.withUnsafeBufferPointer { src in
            tjCompress2(handle, src.baseAddress, Int32(width), Int32(pitch), Int32(height), Int32(pixelFormat.rawValue),
                        &jpeg, &size, Int32(subsampling.rawValue), 95, flags)
        }
        precondition(rc == 0, String(cString: tjGetErrorStr2(handle)))
        defer { tjFree(jpeg) }
        return Data(bytes: jpeg!, count: Int(size))
    }

    /// What a `.cmyk` JPEG of `colour` shows: its inverted C, M, Y, K values (the colour's R, G, B and no
    /// black) through the standard CMYK profile, as every CMYK JPEG without one is shown.
    static func cmykShown(_ colour: RGBA) -> RGBA {
        var pixel = [colour.r, colour.g, colour.b, 255]
        CMYKConversion(profile: nil, inverted: true, name: "fixture").apply(&pixel)
        return RGBA(r: pixel[2], g: pixel[1], b: pixel[0], a: pixel[3])
    }

    /// The grey a grayscale JPEG of `colour` holds.
    static func luma(_ c: RGBA) -> RGBA {
        let y = luma(r: c.r, g: c.g, b: c.b)
        return RGBA(r: y, g: y, b: y)
    }

    static func luma(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        let weighted: Int = Int(r) * 299 + Int(g) * 587 + Int(b) * 114
        return UInt8(weighted / 1000)
    }

    // MARK: - PNG (libpng's full API, which alone writes palettes, 16 bits and interlacing)

    enum PNGKind: CaseIterable { case rgb8, rgba8, rgb16, rgba16, gray8, palette, paletteWithTransparency, interlaced }

    static func png(_ kind: PNGKind, width: Int = 64, height: Int = 48, alpha: UInt8 = 128, to path: String) {
        let source = quadrants(width: width, height: height)
        let palette = [topLeft, topRight, bottomLeft, bottomRight]
        var colourType = PNG_COLOR_TYPE_RGB, depth: Int32 = 8, interlace = PNG_INTERLACE_NONE
        var channels = 3
        switch kind {
        case .rgb8: break
        case .rgba8: colourType = PNG_COLOR_TYPE_RGB_ALPHA; channels = 4
        case .rgb16: depth = 16
        case .rgba16: colourType = PNG_COLOR_TYPE_RGB_ALPHA; channels = 4; depth = 16
        case .gray8: colourType = PNG_COLOR_TYPE_GRAY; channels = 1
        case .palette, .paletteWithTransparency: colourType = PNG_COLOR_TYPE_PALETTE; channels = 1
        case .interlaced: interlace = PNG_INTERLACE_ADAM7
        }
        let bytesPerSample = Int(depth) / 8
        var rows: [[UInt8]] = []
        for y in 0..<height {
            var row: [UInt8] = []
            for x in 0..<width {
                let i = (y * width + x) * 4
                let (r, g, b) = (source.bytes[i + 2], source.bytes[i + 1], source.bytes[i])
                var samples: [UInt8]
                switch kind {
                case .gray8: samples = [luma(RGBA(r: r, g: g, b: b)).r]
                case .palette, .paletteWithTransparency:
                    samples = [UInt8(palette.firstIndex(of: colour(x: x, y: y, width: width, height: height))!)]
                case .rgba8, .rgba16: samples = [r, g, b, alpha]
                default: samples = [r, g, b]
                }
                // 16-bit samples are big-endian; v * 257 maps 8 bits onto 16 exactly (0xAB -> 0xABAB).
                row += bytesPerSample == 2 ? samples.flatMap { [$0, $0] } : samples
            }
            precondition(row.count == width * channels * bytesPerSample)
            rows.append(row)
        }

        guard let file = fopen(path, "wb") else { preconditionFailure("fopen \(path)") }
        defer { fclose(file) }
        // libpng reports errors by longjmp, which Swift cannot catch; writing a small file from memory does not
        // fail, and if it ever did the test process stops with the message.
        var png: png_structp? = png_create_write_struct(PNG_LIBPNG_VER_STRING, nil, { _, message in
            fatalError("libpng: \(message.map { String(cString: $0) } ?? "?")")
        }, nil)
        var info: png_infop? = png_create_info_struct(png)
        defer { png_destroy_write_struct(&png, &info) }
        png_init_io(png, file)
        png_set_IHDR(png, info, UInt32(width), UInt32(height), depth, colourType, interlace,
                     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT)
        if colourType == PNG_COLOR_TYPE_PALETTE {
            var entries = palette.map { png_color(red: $0.r, green: $0.g, blue: $0.b) }
            png_set_PLTE(png, info, &entries, Int32(entries.count))
            if kind == .paletteWithTransparency {
                var alphas: [UInt8] = [alpha, 255, 255, 0]  // top-left half transparent, bottom-right invisible
                png_set_tRNS(png, info, &alphas, Int32(alphas.count), nil)
            }
        }
        png_write_info(png, info)
        if interlace == PNG_INTERLACE_ADAM7 { _ = png_set_interlace_handling(png) }
        // One allocation for all rows, so the row pointers libpng takes stay valid while it writes.
        let rowBytes = rows[0].count
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * height)
        defer { storage.deallocate() }
        for (y, row) in rows.enumerated() { (storage + y * rowBytes).update(from: row, count: rowBytes) }
        var pointers: [UnsafeMutablePointer<UInt8>?] = (0..<height).map { storage + $0 * rowBytes }
        pointers.withUnsafeMutableBufferPointer { png_write_image(png, $0.baseAddress) }
        png_write_end(png, nil)
    }

    /// `png` with a chunk inserted right after IHDR.
    static func inserting(_ type: String, _ body: [UInt8], intoPNG png: Data) -> Data {
        let typeBytes = Array(type.utf8)
        let chunk = be32(UInt32(body.count)) + typeBytes + body + be32(crc32(typeBytes + body))
        var bytes = [UInt8](png)
        bytes.insert(contentsOf: chunk, at: 33)
        return Data(bytes)
    }

    // MARK: - GIF (by hand)

    /// A GIF of the quadrants; with `secondFrame`, an animation whose second frame is all `secondFrame`
    /// (viewers show the first). LZW is written without compression: 8-bit codes over a 128-entry colour
    /// table, with a clear code before the code width would grow.
    static func gif(width: Int = 64, height: Int = 48, secondFrame: RGBA? = nil) -> Data {
        let palette = [topLeft, topRight, bottomLeft, bottomRight]
        var d = Array("GIF89a".utf8)
        d += le16(UInt16(width)) + le16(UInt16(height)) + [0xF6, 0, 0]  // global table of 2^(6+1) = 128 colours
        var table = palette + (secondFrame.map { [$0] } ?? [])
        table += Array(repeating: RGBA(r: 0, g: 0, b: 0), count: 128 - table.count)
        d += table.flatMap { [$0.r, $0.g, $0.b] }
        if secondFrame != nil { d += [0x21, 0xFF, 11] + Array("NETSCAPE2.0".utf8) + [3, 1, 0, 0, 0] }
        let first = (0..<(width * height)).map { p in UInt8(palette.firstIndex(of: colour(x: p % width, y: p / width, width: width, height: height))!) }
        d += frame(width: width, height: height, indices: first, delay: secondFrame == nil ? 0 : 50)
        if secondFrame != nil {
            d += frame(width: width, height: height, indices: Array(repeating: 4, count: width * height), delay: 50)
        }
        d.append(0x3B)
        return Data(d)
    }

    private static func frame(width: Int, height: Int, indices: [UInt8], delay: UInt16) -> [UInt8] {
        var d: [UInt8] = [0x21, 0xF9, 4, 0x04] + le16(delay) + [0, 0]  // graphic control: keep the frame
        d += [0x2C] + le16(0) + le16(0) + le16(UInt16(width)) + le16(UInt16(height)) + [0]
        let clear: UInt8 = 128, end: UInt8 = 129
        var codes: [UInt8] = []
        for (n, index) in indices.enumerated() {
            if n % 120 == 0 { codes.append(clear) }
            codes.append(index)
        }
        codes.append(end)
        d.append(7)  // LZW minimum code size: 7, so codes start 8 bits wide
        var i = 0
        while i < codes.count {
            let n = min(255, codes.count - i)
            d.append(UInt8(n))
            d += codes[i..<(i + n)]
            i += n
        }
        d.append(0)
        return d
    }

    // MARK: - BMP (by hand)

    /// 24-bit bottom-up (rows padded to 4 bytes), or 32-bit top-down (negative height).
    static func bmp(bits: Int, width: Int = 63, height: Int = 48) -> Data {
        let source = quadrants(width: width, height: height)
        let rowBytes = (width * bits / 8 + 3) / 4 * 4
        var pixels: [UInt8] = []
        let rowsInOrder = bits == 24 ? Array((0..<height).reversed()) : Array(0..<height)
        for y in rowsInOrder {
            var row: [UInt8] = []
            for x in 0..<width {
                let i = (y * width + x) * 4
                row += bits == 24 ? [source.bytes[i], source.bytes[i + 1], source.bytes[i + 2]]
                                  : [source.bytes[i], source.bytes[i + 1], source.bytes[i + 2], 255]
            }
            row += Array(repeating: 0, count: rowBytes - row.count)
            pixels += row
        }
        var d = Array("BM".utf8)
        d += le32(UInt32(54 + pixels.count)) + [0, 0, 0, 0] + le32(54)
        let signedHeight = bits == 24 ? Int32(height) : -Int32(height)
        d += le32(40) + le32(UInt32(width)) + le32(UInt32(bitPattern: signedHeight))
        d += le16(1) + le16(UInt16(bits)) + le32(0) + le32(UInt32(pixels.count)) + le32(2835) + le32(2835) + le32(0) + le32(0)
        return Data(d + pixels)
    }

    // MARK: - TIFF (by hand)

    /// Uncompressed 8-bit RGB in one strip, little- or big-endian, with an Orientation tag if asked.
    static func tiff(width: Int = 64, height: Int = 48, bigEndian: Bool = false, orientation: UInt16? = nil) -> Data {
        let source = quadrants(width: width, height: height)
        let pixels = stride(from: 0, to: source.bytes.count, by: 4).flatMap { (i: Int) -> [UInt8] in
            [source.bytes[i + 2], source.bytes[i + 1], source.bytes[i]]
        }
        let u16: (UInt16) -> [UInt8] = { bigEndian ? le16($0).reversed() : le16($0) }
        let u32: (UInt32) -> [UInt8] = { bigEndian ? le32($0).reversed() : le32($0) }
        let entryCount = orientation == nil ? 10 : 11
        let ifdOffset = 8
        let bitsOffset = ifdOffset + 2 + entryCount * 12 + 4
        let pixelOffset = bitsOffset + 6
        var d: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        d += u16(42) + u32(UInt32(ifdOffset))
        d += u16(UInt16(entryCount))
        func short(_ tag: UInt16, _ value: UInt16) -> [UInt8] { u16(tag) + u16(3) + u32(1) + u16(value) + u16(0) }
        func long(_ tag: UInt16, _ value: UInt32) -> [UInt8] { u16(tag) + u16(4) + u32(1) + u32(value) }
        d += long(256, UInt32(width)) + long(257, UInt32(height))
        d += u16(258) + u16(3) + u32(3) + u32(UInt32(bitsOffset))  // BitsPerSample 8,8,8 (stored apart)
        d += short(259, 1) + short(262, 2)                             // no compression, RGB
        d += long(273, UInt32(pixelOffset))                            // StripOffsets
        if let orientation { d += short(274, orientation) }
        d += short(277, 3)                                             // SamplesPerPixel
        d += long(278, UInt32(height)) + long(279, UInt32(pixels.count)) + short(284, 1)
        d += u32(0)
        d += u16(8) + u16(8) + u16(8)
        precondition(d.count == pixelOffset)
        return Data(d + pixels)
    }

    // MARK: - WebP (cwebp, when installed)

    static var cwebp: String? {
        ["/usr/bin/cwebp", "/usr/local/bin/cwebp"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs cwebp with `arguments` + `-o output`; returns whether it succeeded.
    static func runCWebP(_ arguments: [String], output: String) throws -> Bool {
        guard let cwebp else { return false }
        return try ChildProcess.run(cwebp, ["-quiet"] + arguments + ["-o", output]).status == 0
    }

    // MARK: - Bytes

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func be32(_ v: UInt32) -> [UInt8] { le32(v).reversed() }

    /// zlib's CRC-32, which PNG chunks end with.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    /// A TIFF structure with IFD0 holding only Orientation, for eXIf and EXIF chunks.
    static func exifTIFF(orientation: UInt16) -> [UInt8] {
        Array("II".utf8) + le16(42) + le32(8) + le16(1) + le16(0x0112) + le16(3) + le32(1) + le16(orientation) + le16(0) + le32(0)
    }

    /// A JPEG APP1 EXIF segment holding only Orientation.
    static func exifAPP1(orientation: UInt16) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + exifTIFF(orientation: orientation)
        return [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }
}
