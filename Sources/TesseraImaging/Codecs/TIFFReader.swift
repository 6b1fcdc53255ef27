import CTesseraTIFF
import Foundation
import TesseraCore

/// A TIFF held in memory, read through libtiff (CTesseraTIFF): its directories (pages, reduced-resolution
/// levels, SubIFDs) and one chosen directory's pixels, band by band. The per-file state a TIFF decoder
/// holds; not shared between threads.
final class TIFFReader {
    private let tiff: OpaquePointer

    /// One directory: where it is and what it holds.
    struct Directory {
        enum Place: Equatable { case top(Int), sub(UInt64) }
        var place: Place
        var size: PixelSize
        /// A reduced-resolution version of the main image (SubfileType bit 0).
        var isReduced: Bool
        var orientation: Int
        /// PhotometricInterpretation 5: inks, not light.
        var isSeparated: Bool
        var rowsPerBlock: Int
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
    }

    deinit { tessera_tiff_close(tiff) }

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
                         isSeparated: page.photometric == 5, rowsPerBlock: max(1, Int(page.rows_per_block)))
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

    private func failure(_ status: tessera_tiff_status) -> ImageLoadError.Reason {
        Self.reason(status, String(cString: tessera_tiff_message(tiff)))
    }

    private static func reason(_ status: tessera_tiff_status, _ message: String) -> ImageLoadError.Reason {
        status == TESSERA_TIFF_TRUNCATED ? .truncated : .decodeFailed(message)
    }
}
