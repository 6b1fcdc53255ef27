import Foundation
import TesseraCore
import TesseraFiles

/// A plain image's format, stored size and EXIF orientation, read from its header: from its first
/// `headLength` bytes, or the whole file (up to `wholeFileLimit`) for formats whose size a prefix does not
/// give, or for a TIFF through libtiff, which reads only its directory wherever it lies.
package struct HeaderFacts: Sendable, Equatable, Codable {
    package var format: ImageFormat
    package var storedSize: PixelSize
    package var orientation: ImageOrientation

    package init(format: ImageFormat, storedSize: PixelSize, orientation: ImageOrientation) {
        self.format = format
        self.storedSize = storedSize
        self.orientation = orientation
    }

    /// How much of the file is read for the header and the EXIF orientation.
    static let headLength = 256 << 10
    /// The largest file read whole when its first `headLength` bytes do not hold its size (an SVG, a
    /// camera raw file): the loader's own byte limit.
    static let wholeFileLimit = 512 << 20

    /// Reads `file`'s header; the loader's reasons when it is empty, not an image or cut short.
    package static func read(_ file: ImageFile) throws(ImageLoadError.Reason) -> HeaderFacts {
        var prefix: Data
        do { prefix = try file.head(headLength) } catch { throw ImageLoadError.Reason(error) }
        guard !prefix.isEmpty else { throw .empty }
        let format = ImageFormat.sniff(prefix)
        guard format != .unknown else { throw .notAnImage }
        var header = ImageHeader.read(prefix, isWholeFile: prefix.count >= file.size)
        if header == nil && format != .tiff && prefix.count < file.size && file.size <= wholeFileLimit {
            do { prefix = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
            header = ImageHeader.read(prefix)
        }
        if header == nil && format == .tiff, let main = TIFFReader.mainImage(of: file) {
            // A TIFF's directory may sit anywhere, after gigabytes of tiles: libtiff finds it.
            return HeaderFacts(format: format, storedSize: main.size,
                               orientation: ImageOrientation(exifValue: main.orientation) ?? .up)
        }
        guard let header else { throw .truncated }
        return HeaderFacts(format: format, storedSize: header.size,
                           orientation: ExifReader.orientation(in: prefix, format: format))
    }
}
