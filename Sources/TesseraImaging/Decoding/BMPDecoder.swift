import CTesseraGLib
import Foundation
import TesseraCore

/// BMP through gdk-pixbuf's BMP loader, the one GNOME's viewer and thumbnailers use: every bit depth
/// (1 to 32, with palettes and bit fields), RLE4 and RLE8 compression, OS/2 and Windows headers, bottom-up
/// and top-down rows. In TesseraImaging rather than through SDL_image, so decoding needs no SDL (a
/// sandboxed decoding process has no display to start it for). The pixel limit is checked on the header
/// before this runs, and gdk-pixbuf allocates for that same header size.
package struct BMPDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .bmp }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, !raw.isEmpty else { throw .empty }
            var status = TESSERA_GLIB_OK
            var message = [CChar](repeating: 0, count: 256)
            guard let pixbuf = tessera_pixbuf_decode("bmp", base, raw.count, &status, &message, message.count) else {
                throw ImageLoadError.Reason(status, message)
            }
            defer { tessera_pixbuf_free(pixbuf) }
            let width = Int(tessera_pixbuf_width(pixbuf)), height = Int(tessera_pixbuf_height(pixbuf))
            guard width > 0, height > 0 else { throw .decodeFailed("BMP without pixels") }
            var bytes = [UInt8](repeating: 0, count: width * height * 4)
            bytes.withUnsafeMutableBufferPointer { tessera_pixbuf_copy_bgra(pixbuf, $0.baseAddress) }
            return PixelBuffer(width: width, height: height, bytes: bytes)
        }
    }
}
