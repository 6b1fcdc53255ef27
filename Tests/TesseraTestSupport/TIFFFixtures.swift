import CTesseraTIFFWriter
import Foundation
import TesseraCore
import TesseraImaging

/// Tiled and pyramidal TIFF files of known pixels, written with libtiff (`CTesseraTIFFWriter`).
package enum TIFFFixtures {
    package enum Compression: UInt16, Sendable {
        case none = 1, lzw = 5, jpeg = 7, deflate = 8
    }

    package struct Layout: Sendable {
        package var bigTIFF = false
        /// Square tiles of this side (a multiple of 16); nil stores strips.
        package var tileSize: Int? = 64
        package var compression = Compression.deflate
        /// Reduced levels as SubIFDs of the main image, rather than as further pages.
        package var levelsAsSubIFDs = false
        /// The index of one of the main image's tiles (or strips) written as junk.
        package var corruptBlock: Int?
        /// The main image's ImageDescription ("Aperio ..." makes an SVS slide of it for OpenSlide).
        package var description: String?
        /// The main image's ICC profile.
        package var iccProfile: [UInt8]?

        package init(bigTIFF: Bool = false, tileSize: Int? = 64, compression: Compression = .deflate,
                    levelsAsSubIFDs: Bool = false, corruptBlock: Int? = nil, description: String? = nil,
                    iccProfile: [UInt8]? = nil) {
            self.bigTIFF = bigTIFF
            self.tileSize = tileSize
            self.compression = compression
            self.levelsAsSubIFDs = levelsAsSubIFDs
            self.corruptBlock = corruptBlock
            self.description = description
            self.iccProfile = iccProfile
        }
    }

    package struct WriteFailed: Error {}

    /// `levels[0]` as the main image and the rest as its reduced-resolution levels, in `layout`.
    package static func write(_ levels: [PixelBuffer], to path: String, layout: Layout = Layout()) throws {
        let description = layout.description.map { strdup($0) } ?? nil
        defer { free(description) }
        let profile = layout.iccProfile ?? []
        let profileCopy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, profile.count))
        profileCopy.initialize(from: profile, count: profile.count)
        defer { profileCopy.deallocate() }
        var options = tessera_test_tiff_options(big_tiff: layout.bigTIFF ? 1 : 0, tile_size: UInt32(layout.tileSize ?? 0),
                                                compression: layout.compression.rawValue,
                                                levels_as_subifds: layout.levelsAsSubIFDs ? 1 : 0,
                                                corrupt_block: Int32(layout.corruptBlock ?? -1),
                                                description: UnsafePointer(description),
                                                icc_profile: layout.iccProfile == nil ? nil : UnsafePointer(profileCopy),
                                                icc_profile_size: UInt32(profile.count))
        let widths = levels.map { UInt32($0.width) }, heights = levels.map { UInt32($0.height) }
        let copies = levels.map { level -> UnsafeMutablePointer<UInt8> in
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: level.bytes.count)
            copy.initialize(from: level.bytes, count: level.bytes.count)
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<UInt8>?] = copies.map { UnsafePointer($0) }
        let status = tessera_test_write_tiff(path, pointers, widths, heights, Int32(levels.count), &options)
        guard status == 0 else { throw WriteFailed() }
    }

    /// `image` and its halvings (each side rounded down, as `vips tiffsave --pyramid` does) down to `smallest`
    /// on the longer side.
    package static func pyramid(of image: PixelBuffer, downTo smallest: Int) -> [PixelBuffer] {
        var levels = [image]
        var size = image.size
        while max(size.width, size.height) / 2 >= smallest {
            size = PixelSize(width: max(1, size.width / 2), height: max(1, size.height / 2))
            levels.append(PixelScaler.scaled(image, to: size))
        }
        return levels
    }
}
