import Foundation
import TesseraCore

/// TIFF through libtiff's RGBA interface: strips or tiles, every compression libtiff has (LZW, deflate,
/// JPEG, PackBits, ...), 1 to 16 bits (16-bit samples rounded to 8), grey, grey with alpha, palette, RGB,
/// RGBA, YCbCr; a multi-page file shows its first page. Rows come as stored: the loader turns them upright
/// from the Orientation tag (`ExifReader`), all eight values.
///
/// Shrinks on load two ways: a pyramidal TIFF's (or a thumbnail directory's) reduced-resolution level is
/// read instead of the full image when one is at least the target size, the smallest such; and with a
/// target, rows are read one strip or tile row at a time into a `StreamingDownscaler`, so the full-size
/// picture is never held.
///
/// CMYK files go through libtiff's own conversion (ink to light by formula), so their CMYK profile is not
/// handed on: it does not describe the pixels that come out.
public struct TIFFDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .tiff }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try decode(data, format: format, targetSize: targetSize, cancellation: nil)
    }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                       cancellation: DecodeCancellation?) throws -> PixelBuffer {
        try cancellation.check()
        return try data.withUnsafeBytes { raw -> PixelBuffer in
            let reader = try TIFFReader(raw)
            let levels = try reader.mainAndReducedLevels()
            let main = levels[0]
            let level = targetSize.flatMap { Self.smallestLevel(levels, covering: main.size.aspectFit(in: $0)) } ?? main
            try reader.select(level.place)
            let profile = main.isSeparated ? nil : reader.iccProfile
            try reader.beginPixels()
            let output = targetSize.map { level.size.aspectFit(in: $0) } ?? level.size
            var pixels = try Self.read(reader, level, scaledTo: output, cancellation: cancellation)
            pixels.colourProfile = profile
            return pixels
        }
    }

    /// The smallest level at least `wanted` in both dimensions.
    static func smallestLevel(_ levels: [TIFFReader.Directory], covering wanted: PixelSize) -> TIFFReader.Directory? {
        levels.filter { $0.size.width >= wanted.width && $0.size.height >= wanted.height }.min { $0.size.area < $1.size.area }
    }

    /// The level's rows, whole when `output` is its size, else streamed into a downscaler one block of
    /// rows (a strip, or a row of tiles) at a time, each block decoded once.
    private static func read(_ reader: TIFFReader, _ level: TIFFReader.Directory, scaledTo output: PixelSize,
                             cancellation: DecodeCancellation?) throws -> PixelBuffer {
        let size = level.size
        let rowBytes = size.width * 4
        if output == size {
            var bytes = [UInt8](repeating: 0, count: size.area * 4)
            try bytes.withUnsafeMutableBufferPointer { try reader.readRows(0, count: size.height, into: $0.baseAddress!) }
            return PixelBuffer(width: size.width, height: size.height, bytes: bytes)
        }
        let scaler = StreamingDownscaler(from: size, to: output)
        let band = level.rowsPerBlock
        var rows = [UInt8](repeating: 0, count: rowBytes * band)
        var row = 0
        while row < size.height {
            try cancellation.check()
            let count = min(band, size.height - row)
            try rows.withUnsafeMutableBufferPointer { try reader.readRows(row, count: count, into: $0.baseAddress!) }
            rows.withUnsafeBufferPointer { block in
                for i in 0..<count {
                    scaler.consume(row: UnsafeBufferPointer(rebasing: block[(i * rowBytes)..<((i + 1) * rowBytes)]))
                }
            }
            row += count
        }
        return scaler.result()
    }
}
