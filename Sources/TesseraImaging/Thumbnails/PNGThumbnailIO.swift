import Foundation
import TesseraCore

/// Thumbnail PNGs as the freedesktop standard has them: pixels plus `tEXt` fields, read with
/// `PNGRowReader` and written with `PNGEncoder`, the same libpng paths as every other PNG.
enum PNGThumbnailIO {
    /// The largest thumbnail side accepted when reading (the biggest standard size is 1024; anything far
    /// beyond it is not a thumbnail and must not make us allocate).
    static let maximumSide = 4096

    /// A thumbnail file's pixels (ARGB8888, straight alpha) and text fields (`tEXt`, `zTXt`, `iTXt`).
    struct Contents {
        var pixels: PixelBuffer
        var fields: [String: String]
    }

    /// Reads a thumbnail: nil when `data` is no PNG, is damaged or cut short anywhere up to `IEND`, or is
    /// bigger than `maximumSide`. Text chunks whose checksum is wrong are left out.
    ///
    /// `rejects` is asked about the fields written before the image data (where this writer, GNOME's and
    /// KDE's put them) before any pixel is decoded: a stale thumbnail costs no decode. When it says yes,
    /// the result is nil.
    static func read(_ data: Data, maximumSide: Int = maximumSide,
                     rejects: ([String: String]) -> Bool = { _ in false }) -> Contents? {
        data.withUnsafeBytes { raw -> Contents? in
            guard let reader = try? PNGRowReader(bytes: raw) else { return nil }
            if rejects(reader.textFields) { return nil }
            let width = reader.width, height = reader.height
            guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else { return nil }
            let rowBytes = width * 4
            var bytes = [UInt8](repeating: 0, count: rowBytes * height)
            let read = bytes.withUnsafeMutableBytes { out -> Bool in
                do throws(TileCutError.Reason) {
                    try reader.readRows(into: out.baseAddress!, stride: rowBytes, count: height)
                    try reader.readToEnd()
                    return true
                } catch {
                    return false
                }
            }
            guard read else { return nil }
            return Contents(pixels: PixelBuffer(width: width, height: height, bytes: bytes), fields: reader.textFields)
        }
    }

    /// `pixels` as a PNG carrying `fields` as `tEXt` chunks before the image data (keys and values
    /// Latin-1; the thumbnail fields are ASCII). Opaque images are written as RGB, the rest as RGBA. Nil
    /// only if libpng fails, which for an in-memory write means it ran out of memory.
    ///
    /// Written fast rather than small: a thumbnail is written on a decode worker while the user waits for
    /// the cell.
    static func encode(_ pixels: PixelBuffer, fields: [(key: String, value: String)]) -> Data? {
        guard pixels.width > 0, pixels.height > 0 else { return nil }
        return try? PNGEncoder.encode(pixels, effort: .fast, text: fields)
    }
}
