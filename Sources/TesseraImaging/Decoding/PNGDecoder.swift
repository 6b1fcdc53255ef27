import CTesseraJPEG
import Foundation
import TesseraCore

/// PNG through libpng row by row. With a target size the rows go straight into a `StreamingDownscaler`,
/// so a 5120x2880 PNG shown in a 400x300 cell never holds its 59 MB of full-size pixels (SDL_image would
/// hold two copies). Interlaced PNGs are decoded whole first: their rows only exist after the last pass.
public struct PNGDecoder: ImageDecoding {
    /// Rows fetched from libpng per call.
    private static let batchRows = 16

    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .png }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw -> PixelBuffer in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, !raw.isEmpty else { throw ImageLoadError.Reason.empty }
            var info = tessera_image_info()
            var status = TESSERA_IMAGE_OK
            var message = [CChar](repeating: 0, count: 256)
            guard let reader = tessera_png_open_memory(base, raw.count, &info, &status, &message, message.count) else {
                throw Self.reason(status, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            defer { tessera_png_close(reader) }
            let full = PixelSize(width: Int(info.width), height: Int(info.height))
            let output = targetSize.map { full.aspectFit(in: $0) } ?? full
            let rowBytes = full.width * 4

            if output == full {
                var bytes = [UInt8](repeating: 0, count: full.area * 4)
                let result = bytes.withUnsafeMutableBufferPointer { out in
                    tessera_png_read_rows(reader, out.baseAddress, rowBytes, Int32(full.height))
                }
                guard result == TESSERA_IMAGE_OK else { throw Self.reason(result, String(cString: tessera_png_message(reader))) }
                return PixelBuffer(width: full.width, height: full.height, bytes: bytes)
            }

            let scaler = StreamingDownscaler(from: full, to: output)
            var batch = [UInt8](repeating: 0, count: rowBytes * Self.batchRows)
            var row = 0
            while row < full.height {
                let count = min(Self.batchRows, full.height - row)
                let result = batch.withUnsafeMutableBufferPointer { out in
                    tessera_png_read_rows(reader, out.baseAddress, rowBytes, Int32(count))
                }
                guard result == TESSERA_IMAGE_OK else { throw Self.reason(result, String(cString: tessera_png_message(reader))) }
                batch.withUnsafeBufferPointer { rows in
                    for i in 0..<count {
                        scaler.consume(row: UnsafeBufferPointer(rebasing: rows[(i * rowBytes)..<((i + 1) * rowBytes)]))
                    }
                }
                row += count
            }
            return scaler.result()
        }
    }

    private static func reason(_ status: tessera_image_status, _ message: String) -> ImageLoadError.Reason {
        switch status {
        case TESSERA_IMAGE_TRUNCATED: return .truncated
        case TESSERA_IMAGE_SYSTEM: return .decodeFailed(message.isEmpty ? "out of memory" : message)
        default: return .decodeFailed(message.isEmpty ? "corrupt PNG" : message)
        }
    }
}
