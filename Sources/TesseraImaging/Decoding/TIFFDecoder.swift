import Foundation
import TesseraCore

/// TIFF through libtiff: strips or tiles, every compression libtiff has (LZW, deflate, JPEG, PackBits, ...),
/// 1 to 16 bits (16-bit samples rounded to 8), grey, grey with alpha, palette, RGB, RGBA, YCbCr, CMYK; a
/// multi-page file shows its first page (and says it holds more), a later one when asked for it. Rows come as stored: the loader turns them upright from the
/// Orientation tag (`ExifReader`), all eight values. The common layouts are read straight from libtiff's
/// decoded strips and tiles, the rest through its RGBA interface (`tessera_tiff.h` says which is which).
///
/// Shrinks on load two ways: a pyramidal TIFF's (or a thumbnail directory's) reduced-resolution level is
/// read instead of the full image when one is at least the target size, the smallest such; and with a
/// target, rows are read one strip or tile row at a time into a `StreamingDownscaler`, so the full-size
/// picture is never held.
///
/// CMYK (InkSet 1, 0 = no ink) is turned into sRGB by `CMYKConversion` through the file's own CMYK profile
/// or the standard one, block by block before any scaling (the scaler weighs by the fourth byte, alpha),
/// and handed on untagged; an RGB or grey image's profile goes with its pixels.
package struct TIFFDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .tiff }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try decode(data, format: format, targetSize: targetSize, cancellation: nil)
    }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                       cancellation: DecodeCancellation?) throws -> PixelBuffer {
        try cancellation.check()
        return try data.withUnsafeBytes { raw -> PixelBuffer in
            let reader = try TIFFReader(raw)
            let levels = try reader.mainAndReducedLevels()
            let main = levels[0]
            let level = targetSize.flatMap { Self.smallestLevel(levels, covering: main.size.aspectFit(in: $0)) } ?? main
            // The main image's profile describes its reduced levels too, which seldom repeat it.
            try reader.select(main.place)
            let profile = reader.iccProfile
            try reader.select(level.place)
            let samples = try reader.beginPixels()
            let cmyk = samples == .cmyk ? CMYKConversion(profile: profile, inverted: false, name: "a CMYK TIFF") : nil
            let output = targetSize.map { level.size.aspectFit(in: $0) } ?? level.size
            var pixels = try Self.read(reader, level, scaledTo: output, cmyk: cmyk, cancellation: cancellation)
            // CMYK read through libtiff's RGBA interface (planes stored apart, say) comes out by its formula,
            // which the CMYK profile does not describe either.
            pixels.colourProfile = level.isSeparated ? nil : profile
            // Whether there is a second page, not how many: a stack of scans is counted for the overlay.
            pixels.holdsSeveralImages = reader.pageCount(limit: ImagePages.directoryLimit, stoppingAt: 2) > 1
            return pixels
        }
    }

    /// Page `page` of a multi-page TIFF: its `page`th top-level directory that is not a reduced-resolution
    /// level of another, whole, with its own profile.
    package func decode(_ data: Data, format: ImageFormat, page: Int, pixelLimit: Int) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            let reader = try TIFFReader(raw)
            guard let directory = reader.page(page, limit: ImagePages.directoryLimit) else {
                throw ImageLoadError.Reason.decodeFailed("the file has no page \(page + 1)")
            }
            guard directory.size.area <= pixelLimit else {
                throw ImageLoadError.Reason.tooLarge(width: directory.size.width, height: directory.size.height, limit: pixelLimit)
            }
            try reader.select(directory.place)
            let profile = reader.iccProfile
            let samples = try reader.beginPixels()
            let cmyk = samples == .cmyk ? CMYKConversion(profile: profile, inverted: false, name: "a CMYK TIFF") : nil
            var pixels = try Self.read(reader, directory, scaledTo: directory.size, cmyk: cmyk, cancellation: nil)
            pixels.colourProfile = directory.isSeparated ? nil : profile
            // The page's own Orientation tag: the loader turns a file's first image by its IFD0's only.
            if let orientation = ImageOrientation(rawValue: directory.orientation), orientation != .up {
                pixels = orientation.apply(to: pixels)
            }
            return pixels
        }
    }

    /// The ICC profile of the main image, as `decode` hands it on or converts CMYK with; nil when there is
    /// none or the file cannot be read.
    static func iccProfile(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let reader = try? TIFFReader(bytes), (try? reader.select(.top(0))) != nil else { return nil }
        return reader.iccProfile
    }

    /// The smallest level at least `wanted` in both dimensions.
    static func smallestLevel(_ levels: [TIFFReader.Directory], covering wanted: PixelSize) -> TIFFReader.Directory? {
        levels.filter { $0.size.width >= wanted.width && $0.size.height >= wanted.height }.min { $0.size.area < $1.size.area }
    }

    /// The level's rows, whole when `output` is its size, else streamed into a downscaler, one block of
    /// rows (a strip, or a row of tiles) at a time, each block decoded once; CMYK converted as it is read.
    ///
    /// A block libtiff cannot read (cut off, or corrupt) is left transparent and the rest are still
    /// read, so a damaged file shows all it holds, with the first block's reason as its damage; a file
    /// none of whose blocks can be read is an error.
    private static func read(_ reader: TIFFReader, _ level: TIFFReader.Directory, scaledTo output: PixelSize,
                             cmyk: CMYKConversion?, cancellation: DecodeCancellation?) throws -> PixelBuffer {
        let size = level.size
        let rowBytes = size.width * 4
        let band = max(level.rowsPerBlock, 1)
        var damage: ImageLoadError.Reason?
        var blocksRead = 0
        /// Reads `count` rows from `row` into `block`: transparent, and noted, when they cannot be read.
        func readBlock(_ row: Int, count: Int, into block: UnsafeMutablePointer<UInt8>) {
            do {
                try reader.readRows(row, count: count, into: block)
                cmyk?.apply(block, count: size.width * count)
                blocksRead += 1
            } catch {
                block.update(repeating: 0, count: rowBytes * count)
                damage = damage ?? error
            }
        }
        func finish(_ pixels: PixelBuffer) throws -> PixelBuffer {
            guard let damage else { return pixels }
            guard blocksRead > 0 else { throw damage }
            var pixels = pixels
            pixels.damage = Self.damage(damage)
            return pixels
        }
        if output == size {
            // Every byte is written, by the reader or as transparent.
            let bytes = try [UInt8](unsafeUninitializedCapacity: size.area * 4) { storage, initialised in
                let base = storage.baseAddress!
                for row in stride(from: 0, to: size.height, by: band) {
                    try cancellation.check()
                    readBlock(row, count: min(band, size.height - row), into: base + row * rowBytes)
                }
                initialised = storage.count
            }
            return try finish(PixelBuffer(width: size.width, height: size.height, bytes: bytes))
        }
        let scaler = StreamingDownscaler(from: size, to: output)
        var rows = [UInt8](repeating: 0, count: rowBytes * band)
        var row = 0
        while row < size.height {
            try cancellation.check()
            let count = min(band, size.height - row)
            rows.withUnsafeMutableBufferPointer { block in readBlock(row, count: count, into: block.baseAddress!) }
            rows.withUnsafeBufferPointer { block in
                for i in 0..<count {
                    scaler.consume(row: UnsafeBufferPointer(rebasing: block[(i * rowBytes)..<((i + 1) * rowBytes)]))
                }
            }
            row += count
        }
        return try finish(scaler.result())
    }

    /// A block's failure in the words the overlay shows under "Damaged".
    private static func damage(_ reason: ImageLoadError.Reason) -> String {
        switch reason {
        case .truncated: "the file ends inside the image data: it is truncated"
        case .decodeFailed(let why): why
        default: reason.shortText
        }
    }
}
