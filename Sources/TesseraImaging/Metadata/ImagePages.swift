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
        let pages: ImagePages
        switch format {
        case .tiff:
            guard let reader = try? TIFFReader(bytes) else { return nil }
            pages = ImagePages(count: reader.pageCount(limit: directoryLimit), isSequence: false)
        case .heif:
            guard let file = try? HEIFFile(bytes) else { return nil }
            let sequence = ISOBMFFBoxes.boxes(in: ByteReader(bytes), range: 0..<bytes.count).contains { $0.type == "moov" }
            pages = ImagePages(count: file.topLevelImageCount, isSequence: sequence)
        default:
            return nil
        }
        return pages.count > 1 || pages.isSequence ? pages : nil
    }

    /// The overlay's words.
    package var description: String {
        if isSequence { return "an image sequence; its first image is shown" }
        return "\(count); the first is shown"
    }
}
