import CHeif
import Foundation
import TesseraCore

/// How many images a file holds beyond the one Tessera shows (its first): the pages of a multi-page TIFF
/// (a scanned document), the top-level images of a HEIF collection, or a HEIF image sequence, which
/// libheif 1.15 does not read (its first image is shown). The information overlay says so.
package struct ImagePages: Sendable, Equatable, Codable {
    /// Images in the file, counting the one shown; reduced-resolution levels and thumbnails are not images.
    package var count: Int
    /// A HEIF image sequence (a `moov` track beside the still images).
    package var isSequence: Bool

    /// Most TIFF directories looked at: a file claiming more is counted up to here.
    static let directoryLimit = 10_000

    /// The pages of the file `bytes`; nil for a file with one image, or one that cannot be read.
    static func of(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) -> ImagePages? {
        switch format {
        case .tiff:
            guard let reader = try? TIFFReader(bytes) else { return nil }
            return of(reader)
        case .heif, .avif:
            guard let file = try? HEIFFile(bytes) else { return nil }
            return of(file, bytes: bytes)
        default:
            return nil
        }
    }

    /// The images of a HEIF or AVIF file already open (`bytes` its contents); nil for one image. An AVIF
    /// sequence plays through libavif, so only HEIF's counts as a sequence here.
    static func of(_ file: HEIFFile, bytes: UnsafeRawBufferPointer) -> ImagePages? {
        let sequence = ImageFormat.sniff(bytes) == .heif
            && ISOBMFFBoxes.boxes(in: ByteReader(bytes), range: 0..<bytes.count).contains { $0.type == "moov" }
        let pages = ImagePages(count: file.topLevelImageCount, isSequence: sequence)
        return pages.count > 1 || pages.isSequence ? pages : nil
    }

    /// The pages of a TIFF already open; nil for one.
    static func of(_ reader: TIFFReader) -> ImagePages? {
        let count = reader.pageCount(limit: directoryLimit)
        return count > 1 ? ImagePages(count: count, isSequence: false) : nil
    }

    /// The overlay's words.
    package var description: String {
        if isSequence { return "an image sequence; its first image is shown" }
        return "\(count); the first is shown"
    }
}
