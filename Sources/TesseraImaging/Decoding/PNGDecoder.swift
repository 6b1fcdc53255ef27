import Foundation
import TesseraCore

/// PNG through `PNGRowReader` (libpng), row by row, with the colour its cICP chunk names by code points
/// (an HDR image's rows rendered for the screen from their 16-bit samples) or else the profile of its
/// iCCP chunk. With a target size
/// the rows go straight into a `StreamingDownscaler`, so a big PNG shown in a small cell never holds its
/// full-size pixels. Interlaced PNGs are decoded whole first: their rows only exist after the last pass. A
/// cancellation signal is looked at before every batch of `batchRows` rows.
package struct PNGDecoder: ImageDecoding {
    /// Rows fetched from libpng per call (and between two looks at the cancellation signal).
    package static let batchRows = 16

    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .png }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try decode(data, format: format, targetSize: targetSize, cancellation: nil)
    }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?,
                       cancellation: DecodeCancellation?) throws -> PixelBuffer {
        do {
            return try data.withUnsafeBytes { raw -> PixelBuffer in
                try cancellation.check()
                let points = Self.codePoints(in: raw)
                let hdr = points.flatMap { HDRRendering(points: $0, bits: 16) }
                let reader = try PNGRowReader(bytes: raw, wide: hdr != nil)
                let full = PixelSize(width: reader.width, height: reader.height)
                let output = targetSize.map { full.aspectFit(in: $0) } ?? full
                let rowBytes = full.width * 4
                // An HDR image's rows come as 16-bit samples and are rendered into 8-bit B, G, R, A.
                let wideRows = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: hdr == nil ? 0 : full.width * 4 * Self.batchRows)
                defer { wideRows.deallocate() }
                func readRows(into destination: UnsafeMutableRawPointer, count: Int) throws(TileCutError.Reason) {
                    guard let hdr else { return try reader.readRows(into: destination, stride: rowBytes, count: count) }
                    try reader.readRows(into: UnsafeMutableRawPointer(wideRows.baseAddress!), stride: full.width * 8, count: count)
                    hdr.render(wideRows.baseAddress!, size: PixelSize(width: full.width, height: count), stride: full.width * 4,
                               channels: 4, into: destination.assumingMemoryBound(to: UInt8.self))
                }
                // cICP names the colours before iCCP does; an HDR image is sRGB once rendered.
                let declaredPoints = hdr == nil ? points : nil
                let profile = points == nil ? reader.colourProfile : nil

                // Rows that cannot be read (a file cut short, damaged data) stay transparent, and the picture
                // is shown as far as it goes, with libpng's reason; a file whose first rows cannot be read
                // is refused.
                var damage: String?
                if output == full {
                    var bytes = [UInt8](repeating: 0, count: full.area * 4)
                    try bytes.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                        var row = 0
                        while row < full.height {
                            try cancellation.check()
                            let count = min(Self.batchRows, full.height - row)
                            do {
                                try readRows(into: out.baseAddress! + row * rowBytes, count: count)
                            } catch {
                                guard row > 0, let reason = Self.damage(error) else { throw error }
                                damage = reason
                                break
                            }
                            row += count
                        }
                    }
                    var pixels = PixelBuffer(width: full.width, height: full.height, bytes: bytes)
                    pixels.colourProfile = profile
                    pixels.colourCodePoints = declaredPoints
                    pixels.damage = damage
                    return pixels
                }

                let scaler = StreamingDownscaler(from: full, to: output)
                var batch = [UInt8](repeating: 0, count: rowBytes * Self.batchRows)
                var row = 0
                while row < full.height {
                    try cancellation.check()
                    let count = min(Self.batchRows, full.height - row)
                    if damage == nil {
                        do {
                            try batch.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
                                try readRows(into: out.baseAddress!, count: count)
                            }
                        } catch {
                            guard row > 0, let reason = Self.damage(error) else { throw error }
                            damage = reason
                            batch = [UInt8](repeating: 0, count: batch.count)
                        }
                    }
                    batch.withUnsafeBufferPointer { rows in
                        for i in 0..<count {
                            scaler.consume(row: UnsafeBufferPointer(rebasing: rows[(i * rowBytes)..<((i + 1) * rowBytes)]))
                        }
                    }
                    row += count
                }
                var pixels = scaler.result()
                pixels.colourProfile = profile
                pixels.colourCodePoints = declaredPoints
                pixels.damage = damage
                return pixels
            }
        } catch let reason as TileCutError.Reason {
            throw Self.reason(reason)
        }
    }

    /// The colour space of a `cICP` chunk (H.273 code points; PNG allows RGB only, matrix 0), when the
    /// file has one and it is not sRGB.
    static func codePoints(in bytes: UnsafeRawBufferPointer) -> ColourCodePoints? {
        guard let chunk = ImageChunks.png("cICP", in: bytes), chunk.count == 4, chunk[2] == 0 else { return nil }
        let points = ColourCodePoints(primaries: UInt16(chunk[0]), transfer: UInt16(chunk[1]), matrix: 0, fullRange: chunk[3] != 0)
        return points.isSRGB ? nil : points
    }

    /// What a failure part-way through the rows says of the picture: nil when it is no damage of the
    /// file's (a cancellation).
    private static func damage(_ error: any Error) -> String? {
        guard let reason = error as? TileCutError.Reason else { return nil }
        switch reason {
        case .truncated: return "Truncated file"
        case .unreadable(let message), .corrupt(let message): return message
        default: return "\(reason)"
        }
    }

    /// The reader's reasons as the loader's.
    private static func reason(_ reason: TileCutError.Reason) -> ImageLoadError.Reason {
        switch reason {
        case .truncated: return .truncated
        case .empty: return .empty
        case .unreadable(let message), .corrupt(let message): return .decodeFailed(message)
        default: return .decodeFailed("\(reason)")
        }
    }
}
