import Foundation
import TesseraCore
import TesseraFiles

/// What the tiled view opens a tiled TIFF by (`TiledTIFFSource`): its levels, the full image first, and
/// the main image's ICC profile. Read by libtiff, in process or in a decode helper (`ImageFacts`).
package struct TiledTIFFFacts: Sendable, Equatable, Codable {
    /// The full image, then every SubIFD and further page that is a reduced version of it.
    package var levels: [TIFFReader.Directory]
    package var profile: [UInt8]?

    /// Reads `reader`'s levels and profile, leaving its first directory selected.
    init(reading reader: TIFFReader) throws(ImageLoadError.Reason) {
        levels = try reader.mainAndReducedLevels()
        try reader.select(levels[0].place)
        profile = reader.iccProfile
    }

    /// Reads the TIFF `file` (its descriptor is taken over, and closed with the reader).
    static func read(_ file: ImageFile) throws(ImageLoadError.Reason) -> TiledTIFFFacts {
        try TiledTIFFFacts(reading: TIFFReader(TIFFReader.TIFFFile(file)))
    }

    /// Whether the facts can be what libtiff read (a helper's answer is checked before it is used): at
    /// least one level, every size positive and within what a TIFF holds.
    package var isPlausible: Bool {
        !levels.isEmpty && levels.allSatisfy { level in
            level.size.width > 0 && level.size.height > 0 && level.size.width <= Int(UInt32.max)
                && level.size.height <= Int(UInt32.max) && (level.tileSize.map { $0.width > 0 && $0.height > 0 } ?? true)
        }
    }
}
