#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CTesseraJPEG
import Foundation
import TesseraCore

/// Tessera's one PNG writer, over libpng: tiles, thumbnails (with their text chunks) and screenshots.
package enum PNGEncoder {
    /// The channels written; pixels are always given as B, G, R, A bytes.
    package enum Channels: Int32, Sendable {
        /// Grey from the green byte.
        case grey = 1
        case greyAlpha = 2
        case rgb = 3
        case rgba = 4
    }

    /// How hard zlib and the row filters work.
    package enum Effort: Sendable {
        /// zlib level 6 with adaptive row filters: libpng's own defaults.
        case normal
        /// zlib level 3, rows unfiltered (libpng's `PNG_IMAGE_FLAG_FAST`): for a file written while the
        /// user waits, larger but written in a fraction of the time.
        case fast

        var compressionLevel: Int32 { self == .fast ? 3 : 6 }
        var filtersRows: Bool { self == .normal }
    }

    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package let message: String
        package var description: String { message }
    }

    /// Encodes `width` x `height` pixels at `pixels` (rows `stride` bytes apart) and hands the file's bytes
    /// to `consume`. `text` goes into `tEXt` chunks before the image data; keywords and texts are Latin-1.
    package static func encode<Result>(_ pixels: UnsafeRawPointer, stride: Int, width: Int, height: Int,
                                      channels: Channels, effort: Effort = .normal,
                                      text: [(key: String, value: String)] = [],
                                      consume: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        // NUL-terminated Latin-1 copies that live until the encoder returns.
        let strings = text.map { (latin1CString($0.key), latin1CString($0.value)) }
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = withCStrings(strings) { chunks in
            tessera_png_encode(pixels.assumingMemoryBound(to: UInt8.self), stride, Int32(width), Int32(height),
                               channels.rawValue, effort.compressionLevel, effort.filtersRows ? 1 : 0,
                               chunks.baseAddress, Int32(chunks.count), &out, &size, &message, message.count)
        }
        guard status == TESSERA_IMAGE_OK, let out else { throw Failure(message: CText.string(message)) }
        defer { free(out) }
        return try consume(UnsafeRawBufferPointer(start: out, count: size))
    }

    /// `pixels` as a PNG file: RGB when every pixel is opaque, RGBA otherwise.
    package static func encode(_ pixels: PixelBuffer, effort: Effort = .normal,
                              text: [(key: String, value: String)] = []) throws -> Data {
        try pixels.bytes.withUnsafeBytes { raw in
            try encode(raw.baseAddress!, stride: pixels.bytesPerRow, width: pixels.width, height: pixels.height,
                       channels: pixels.isOpaque ? .rgb : .rgba, effort: effort, text: text) { Data($0) }
        }
    }

    /// Writes `pixels` as a PNG file at `path` (replaced if it exists).
    package static func write(_ pixels: PixelBuffer, to path: String) throws {
        try encode(pixels).write(to: URL(fileURLWithPath: path))
    }

    private static func latin1CString(_ text: String) -> [CChar] {
        text.unicodeScalars.map { CChar(bitPattern: UInt8(truncatingIfNeeded: $0.value)) } + [0]
    }

    /// Calls `body` with a `tessera_png_text` per pair, pointing into `strings`.
    private static func withCStrings<R>(_ strings: [([CChar], [CChar])],
                                        _ body: (UnsafeBufferPointer<tessera_png_text>) -> R) -> R {
        var chunks: [tessera_png_text] = []
        func next(_ index: Int) -> R {
            guard index < strings.count else { return chunks.withUnsafeBufferPointer(body) }
            return strings[index].0.withUnsafeBufferPointer { key in
                strings[index].1.withUnsafeBufferPointer { value in
                    chunks.append(tessera_png_text(keyword: key.baseAddress, text: value.baseAddress))
                    return next(index + 1)
                }
            }
        }
        return next(0)
    }
}
