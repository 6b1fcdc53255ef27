import Foundation
import TesseraCore

/// PNG through `PNGRowReader` (libpng), row by row, with the profile of its iCCP chunk. With a target size
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
                let reader = try PNGRowReader(bytes: raw)
                let full = PixelSize(width: reader.width, height: reader.height)
                let output = targetSize.map { full.aspectFit(in: $0) } ?? full
                let rowBytes = full.width * 4

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
                                try reader.readRows(into: out.baseAddress! + row * rowBytes, stride: rowBytes, count: count)
                            } catch {
                                guard row > 0, let reason = Self.damage(error) else { throw error }
                                damage = reason
                                break
                            }
                            row += count
                        }
                    }
                    var pixels = PixelBuffer(width: full.width, height: full.height, bytes: bytes)
                    pixels.colourProfile = reader.colourProfile
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
                                try reader.readRows(into: out.baseAddress!, stride: rowBytes, count: count)
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
                pixels.colourProfile = reader.colourProfile
                pixels.damage = damage
                return pixels
            }
        } catch let reason as TileCutError.Reason {
            throw Self.reason(reason)
        }
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
