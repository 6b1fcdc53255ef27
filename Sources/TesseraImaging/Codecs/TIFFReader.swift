import CTesseraTIFF
import Foundation
import TesseraCore
import TesseraFiles

/// A TIFF held in memory or open as a file, read through libtiff (CTesseraTIFF): its directories (pages,
/// reduced-resolution levels, SubIFDs) and one chosen directory's pixels, band by band or region by region.
/// The per-file state a TIFF decoder holds; used by one thread at a time (a `TiledTIFFSource` hands each
/// of its readers to one worker at a time, hence the unchecked `Sendable`).
package final class TIFFReader: @unchecked Sendable {
    private let tiff: OpaquePointer
    /// The open file a reader over a descriptor reads, kept open while the reader lives.
    private let file: TIFFFile?

    /// A TIFF file's descriptor, shared by the readers open on it (each reads with pread at offsets of its
    /// own) and closed with the last of them.
    package typealias TIFFFile = SharedDescriptor

    /// One directory: where it is and what it holds.
    package struct Directory: Equatable, Codable, Sendable {
        package enum Place: Equatable, Codable, Sendable { case top(Int), sub(UInt64) }
        package var place: Place
        package var size: PixelSize
        /// A reduced-resolution version of the main image (SubfileType bit 0).
        var isReduced: Bool
        package var orientation: Int
        /// PhotometricInterpretation 5: inks, not light.
        package var isSeparated: Bool
        var rowsPerBlock: Int
        /// A tile's size; nil for an image stored in strips.
        package var tileSize: PixelSize?
        /// More samples than the colour needs (grey or RGB with one more): alpha, as libtiff reads it.
        var hasExtraSample = false
    }

    /// `bytes` must outlive the reader.
    init(_ bytes: UnsafeRawBufferPointer) throws(ImageLoadError.Reason) {
        guard let base = bytes.bindMemory(to: UInt8.self).baseAddress, !bytes.isEmpty else { throw .empty }
        var status = TESSERA_TIFF_OK
        var message = [CChar](repeating: 0, count: 256)
        guard let tiff = tessera_tiff_open(base, bytes.count, &status, &message, message.count) else {
            throw Self.reason(status, CText.string(message))
        }
        self.tiff = tiff
        file = nil
    }

    /// A reader of its own on `file`.
    init(_ file: TIFFFile) throws(ImageLoadError.Reason) {
        var status = TESSERA_TIFF_OK
        var message = [CChar](repeating: 0, count: 256)
        guard let tiff = tessera_tiff_open_file(file.descriptor, UInt64(file.size), &status, &message, message.count) else {
            throw Self.reason(status, CText.string(message))
        }
        self.tiff = tiff
        self.file = file
    }

    deinit { tessera_tiff_close(tiff) }

    /// The main image of the TIFF `file`, read through libtiff (on a duplicate of its descriptor) wherever
    /// its directory lies in the file (a prefix of the file need not hold it); nil when it cannot be read.
    /// The duplicate is made with fcntl, which a decode helper's filter allows (dup it does not).
    static func mainImage(of file: ImageFile) -> Directory? {
        let copy = file.withDescriptor { fcntl($0, F_DUPFD_CLOEXEC, 0) }
        guard copy >= 0, let duplicate = try? ImageFile(descriptor: copy, path: file.path),
              let reader = try? TIFFReader(TIFFFile(duplicate)) else { return nil }
        return try? reader.select(.top(0))
    }

    /// The top-level directories that are images of their own (pages), not reduced-resolution versions
    /// of another, up to `limit` directories looked at.
    func pageCount(limit: Int, stoppingAt enough: Int = .max) -> Int { pages(limit: limit, stoppingAt: enough).count }

    /// Page `index` (counted from 0) among `pages(limit:)`; nil past the last.
    func page(_ index: Int, limit: Int) -> Directory? {
        let pages = pages(limit: limit)
        return pages.indices.contains(index) ? pages[index] : nil
    }

    /// The pages among the first `limit` directories, the first `enough` of them at most (each one found
    /// reads a directory).
    private func pages(limit: Int, stoppingAt enough: Int = .max) -> [Directory] {
        let count = min(Int(tessera_tiff_directory_count(tiff)), limit)
        var found: [Directory] = []
        for index in 0..<count where found.count < enough {
            if let directory = try? select(.top(index)), !directory.isReduced { found.append(directory) }
        }
        return found
    }

    /// The first directory (the main image), then every top-level directory and SubIFD of the first that
    /// is a reduced-resolution version of it: the levels a pyramidal TIFF offers, and a thumbnail directory.
    func mainAndReducedLevels() throws(ImageLoadError.Reason) -> [Directory] {
        let main = try select(.top(0))
        var levels = [main]
        var offsets = [UInt64](repeating: 0, count: 64)
        let subCount = min(Int(tessera_tiff_subdirectories(tiff, &offsets, Int32(offsets.count))), offsets.count)
        for offset in offsets.prefix(subCount) {
            if let level = try? select(.sub(offset)), level.isReduced { levels.append(level) }
        }
        for index in 1..<max(1, Int(tessera_tiff_directory_count(tiff))) {
            if let level = try? select(.top(index)), level.isReduced { levels.append(level) }
        }
        return levels
    }

    /// Makes `place` the current directory and describes it.
    @discardableResult
    func select(_ place: Directory.Place) throws(ImageLoadError.Reason) -> Directory {
        var page = tessera_tiff_page()
        let status = switch place {
        case .top(let index): tessera_tiff_select_directory(tiff, Int32(index), &page)
        case .sub(let offset): tessera_tiff_select_subdirectory(tiff, offset, &page)
        }
        guard status == TESSERA_TIFF_OK else { throw failure(status) }
        return Directory(place: place, size: PixelSize(width: Int(page.width), height: Int(page.height)),
                         isReduced: page.subfile_type & 1 != 0, orientation: Int(page.orientation),
                         isSeparated: page.photometric == 5, rowsPerBlock: max(1, Int(page.rows_per_block)),
                         tileSize: page.tile_width > 0 && page.tile_height > 0
                             ? PixelSize(width: Int(page.tile_width), height: Int(page.tile_height)) : nil,
                         hasExtraSample: Self.hasExtraSample(photometric: page.photometric, samples: page.samples_per_pixel))
    }

    /// The current directory's ICC profile.
    var iccProfile: [UInt8]? {
        var profile: UnsafePointer<UInt8>?
        var size: UInt32 = 0
        guard tessera_tiff_icc_profile(tiff, &profile, &size) != 0, let profile else { return nil }
        return Array(UnsafeBufferPointer(start: profile, count: Int(size)))
    }

    /// What `readRows` fills each pixel's four bytes with.
    enum Samples {
        /// B, G, R, A.
        case bgra
        /// C, M, Y, K, 0 being no ink, for a `CMYKConversion` to turn into B, G, R, A.
        case cmyk
    }

    /// Gets ready to read the current directory's pixels, and says what they will come as.
    func beginPixels() throws(ImageLoadError.Reason) -> Samples {
        var pixels = TESSERA_TIFF_PIXELS_RGBA
        let status = tessera_tiff_begin_pixels(tiff, &pixels)
        guard status == TESSERA_TIFF_OK else { throw failure(status) }
        return pixels == TESSERA_TIFF_PIXELS_CMYK ? .cmyk : .bgra
    }

    /// `count` rows from `firstRow` of the current directory, as stored, four bytes a pixel, into `into`.
    /// Reads starting and ending on the directory's blocks (`Directory.rowsPerBlock`) decode each once.
    func readRows(_ firstRow: Int, count: Int, into: UnsafeMutablePointer<UInt8>) throws(ImageLoadError.Reason) {
        let status = tessera_tiff_read_rows(tiff, UInt32(firstRow), UInt32(count), into)
        guard status == TESSERA_TIFF_OK else { throw failure(status) }
    }

    /// The pixels of `region` of the current directory, as stored, four bytes a pixel, into `into`
    /// (`region.width * region.height * 4` bytes), decoding only the strips or tiles it meets.
    func readRegion(_ region: PixelRegion, into: UnsafeMutablePointer<UInt8>) throws(ImageLoadError.Reason) {
        let status = tessera_tiff_read_region(tiff, UInt32(region.x), UInt32(region.y), UInt32(region.width),
                                              UInt32(region.height), into)
        guard status == TESSERA_TIFF_OK else { throw failure(status) }
    }

    /// Grey (photometric 0 or 1) with two samples or more, RGB (2) with four or more.
    private static func hasExtraSample(photometric: UInt16, samples: UInt16) -> Bool {
        switch photometric {
        case 0, 1: samples >= 2
        case 2: samples >= 4
        default: false
        }
    }

    private func failure(_ status: tessera_tiff_status) -> ImageLoadError.Reason {
        Self.reason(status, String(cString: tessera_tiff_message(tiff)))
    }

    private static func reason(_ status: tessera_tiff_status, _ message: String) -> ImageLoadError.Reason {
        status == TESSERA_TIFF_TRUNCATED ? .truncated : .decodeFailed(message)
    }
}
