import Foundation

/// The container format of an image file, as recognised from its first bytes.
///
/// Formats are identified by magic bytes only, never by file extension: photo collections are full of
/// `.png` files that are really JPEGs (and vice versa), and the decoder must be chosen by what the bytes
/// are, not by what the name claims.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp, bmp, tiff, unknown

    /// How many leading bytes `sniff` looks at. Callers that read files in chunks need at least this many.
    public static let sniffLength = 32

    /// A short upper-case name for messages ("JPEG", "WEBP").
    public var displayName: String { rawValue.uppercased() }

    /// Identifies the format from the first bytes of a file (`sniffLength` bytes are enough; more are ignored).
    ///
    /// Generic over the collection so callers can pass `Data`, a `Data` slice or `[UInt8]` without copying
    /// the whole file; only the prefix is examined.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat where Bytes.Element == UInt8 {
        let b = Array(bytes.prefix(sniffLength))
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            guard b.count >= offset + magic.count else { return false }
            return b[offset..<(offset + magic.count)].elementsEqual(magic)
        }
        // JPEG: SOI marker followed by the start of another marker.
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        // Classic TIFF (magic 42) and BigTIFF (magic 43), either byte order.
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || starts(with: [0x49, 0x49, 0x2B, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            return .tiff
        }
        // "BM" alone is only two bytes and plenty of text files start with it, so when the DIB header
        // size is available it must be one of the sizes Windows ever defined.
        if starts(with: [0x42, 0x4D]) {
            guard b.count >= 18 else { return .bmp }
            let dibSize = UInt32(b[14]) | UInt32(b[15]) << 8 | UInt32(b[16]) << 16 | UInt32(b[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(dibSize) { return .bmp }
        }
        return .unknown
    }
}
