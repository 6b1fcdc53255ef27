import CTesseraJPEG
import TesseraCore

/// JPEG through libjpeg's scanline API (decoded as rows are asked for), for the tile cutter. C underneath
/// because libjpeg's error handler must longjmp (see `tessera_jpeg.h`). CMYK rows are turned into sRGB
/// as they are read (`CMYKConversion`); an RGB or grey JPEG's embedded profile is its `colourSpace`.
final class JPEGRowReader: ScanlineSource, WholeImageNeeding {
    private let reader: OpaquePointer
    let width: Int, height: Int, isGrayscale: Bool, needsWholeImage: Bool
    let colourSpace: ColourSpace
    private let cmyk: CMYKConversion?
    var hasAlpha: Bool { false }

    /// Takes over `fd`; `name` is the file, for the log.
    init(fd: Int32, name: String) throws(TileCutError.Reason) {
        let (reader, info) = try CReaderOpening.open { info, status, message, length in
            tessera_jpeg_open(fd, info, status, message, length)
        }
        self.reader = reader
        width = Int(info.width)
        height = Int(info.height)
        isGrayscale = info.is_grayscale != 0
        needsWholeImage = info.needs_whole_image != 0
        var raw = tessera_jpeg_colour()
        tessera_jpeg_colour_of(reader, &raw)
        let colour = JPEGColour(raw)
        cmyk = colour.isCMYK ? colour.cmykConversion(name: name) : nil
        colourSpace = colour.isCMYK ? .sRGB : ColourSpace(profile: colour.profile)
    }

    deinit { tessera_jpeg_close(reader) }

    func readRows(into first: UnsafeMutableRawPointer, stride: Int, count: Int) throws(TileCutError.Reason) {
        let status = tessera_jpeg_read_rows(reader, first.assumingMemoryBound(to: UInt8.self), stride, Int32(count))
        guard status == TESSERA_IMAGE_OK else {
            throw CReaderOpening.reason(status, message: String(cString: tessera_jpeg_message(reader)))
        }
        cmyk?.apply(rows: first, width: width, stride: stride, count: count)
    }

    func finish() throws(TileCutError.Reason) {
        let status = tessera_jpeg_finish(reader)
        guard status == TESSERA_IMAGE_OK else {
            throw CReaderOpening.reason(status, message: String(cString: tessera_jpeg_message(reader)))
        }
    }
}

/// Opens one of CTesseraJPEG's readers, which report failure through a status and a message buffer.
enum CReaderOpening {
    typealias Open = (UnsafeMutablePointer<tessera_image_info>, UnsafeMutablePointer<tessera_image_status>,
                      UnsafeMutablePointer<CChar>, Int) -> OpaquePointer?

    static func open(_ open: Open) throws(TileCutError.Reason) -> (reader: OpaquePointer, info: tessera_image_info) {
        var info = tessera_image_info()
        var status = TESSERA_IMAGE_OK
        var message = [CChar](repeating: 0, count: 256)
        let length = message.count
        let reader = message.withUnsafeMutableBufferPointer { open(&info, &status, $0.baseAddress!, length) }
        guard let reader else { throw reason(status, message: CText.string(message)) }
        return (reader, info)
    }

    /// A reader's status as the cutter's reason.
    static func reason(_ status: tessera_image_status, message: String) -> TileCutError.Reason {
        switch status {
        case TESSERA_IMAGE_TRUNCATED: .truncated
        case TESSERA_IMAGE_SYSTEM: .unreadable(message)
        default: .corrupt(message)
        }
    }
}

/// Text from a C message buffer (NUL-terminated within the array).
enum CText {
    static func string(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
