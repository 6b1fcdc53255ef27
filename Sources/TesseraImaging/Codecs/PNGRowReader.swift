import CTesseraJPEG
import Foundation
import TesseraCore

/// PNG through libpng's png_read_row: Tessera's one PNG reader. The strip's `PNGDecoder` streams its rows
/// into a downscaler, the tile cutter reads them band by band, and the thumbnail store reads a whole
/// thumbnail with its text chunks. C underneath because libpng's error handler must longjmp (see
/// `tessera_jpeg.h`).
final class PNGRowReader: ScanlineSource, WholeImageNeeding {
    private let reader: OpaquePointer
    let width: Int, height: Int, isGrayscale: Bool, hasAlpha: Bool, needsWholeImage: Bool

    /// Takes over `fd`.
    convenience init(fd: Int32) throws(TileCutError.Reason) {
        try self.init(CReaderOpening.open { info, status, message, length in
            tessera_png_open(fd, info, status, message, length)
        })
    }

    /// Reads from `bytes`, which must outlive the reader; with `wide`, rows are 16-bit R, G, B, A samples
    /// in native byte order (8 bytes a pixel) instead of 8-bit B, G, R, A.
    convenience init(bytes: UnsafeRawBufferPointer, wide: Bool = false) throws(TileCutError.Reason) {
        guard !bytes.isEmpty, let base = bytes.bindMemory(to: UInt8.self).baseAddress else { throw .empty }
        try self.init(CReaderOpening.open { info, status, message, length in
            wide ? tessera_png_open_memory_wide(base, bytes.count, info, status, message, length)
                 : tessera_png_open_memory(base, bytes.count, info, status, message, length)
        })
    }

    private init(_ opened: (reader: OpaquePointer, info: tessera_image_info)) {
        let (reader, info) = opened
        self.reader = reader
        width = Int(info.width)
        height = Int(info.height)
        isGrayscale = info.is_grayscale != 0
        hasAlpha = info.has_alpha != 0
        needsWholeImage = info.needs_whole_image != 0
    }

    deinit { tessera_png_close(reader) }

    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason) {
        let status = tessera_png_read_rows(reader, first.assumingMemoryBound(to: UInt8.self), stride, Int32(count))
        guard status == TESSERA_IMAGE_OK else {
            throw CReaderOpening.reason(status, message: String(cString: tessera_png_message(reader)))
        }
    }

    /// Whatever follows the last row (text chunks, IEND) does not change the pixels, so the cutter does
    /// not read it; `readToEnd` does.
    func finish() throws(TileCutError.Reason) {}

    /// After the last row: reads to IEND, so a file cut short or damaged after its image data is an error,
    /// and `textFields` holds the text chunks that follow the image data too.
    func readToEnd() throws(TileCutError.Reason) {
        let status = tessera_png_finish(reader)
        guard status == TESSERA_IMAGE_OK else {
            throw CReaderOpening.reason(status, message: String(cString: tessera_png_message(reader)))
        }
    }

    /// The ICC profile of the iCCP chunk, if the file has one libpng accepts. gAMA and cHRM without
    /// iCCP are not used, as libvips and the desktop's thumbnailers do not use them: the image is sRGB.
    var colourProfile: [UInt8]? {
        var data: UnsafePointer<UInt8>?
        var size = 0
        guard tessera_png_icc_profile(reader, &data, &size) != 0, let data else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    var colourSpace: ColourSpace { ColourSpace(profile: colourProfile) }

    /// The text chunks read so far (see `readToEnd`), keyword to text; a later chunk with the same keyword
    /// wins.
    var textFields: [String: String] {
        var fields: [String: String] = [:]
        for index in 0..<tessera_png_text_count(reader) {
            var keyword: UnsafePointer<CChar>?
            var text: UnsafePointer<CChar>?
            var isUTF8: Int32 = 0
            tessera_png_text_at(reader, index, &keyword, &text, &isUTF8)
            guard let keyword, let text else { continue }
            fields[Self.latin1(keyword)] = isUTF8 != 0 ? String(cString: text) : Self.latin1(text)
        }
        return fields
    }

    private static func latin1(_ text: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
        return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
