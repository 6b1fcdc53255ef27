import Foundation
import TesseraCore

/// What the viewer reads about an image without decoding it, where reading it takes a C library (libheif,
/// libjxl, librsvg, libraw, libtiff, TurboJPEG's header reader, libexif, Little CMS): one function per kind
/// of question, run in this process or, with decode helpers, in a sandboxed helper that answers with the
/// value serialized (`DecodeHelperPool.facts`). Either way the same code reads the same bytes.
public enum ImageFacts: Sendable, Equatable, Codable {
    case header(HeaderFacts)
    case information(ImageInformation)
    case exifDates(ExifDates)

    /// Which question a request asks: the number the helper's request carries (`kind`; 0 is a decode).
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// Format, stored size and orientation (`HeaderFacts`): what the tiled view opens an image by.
        case header = 4
        /// Everything the information overlay shows (`ImageInformation`).
        case information = 5
        /// The EXIF dates a sort by date taken reads (`ExifDates`), from the file's first bytes.
        case exifDates = 6
    }

    public var kind: Kind {
        switch self {
        case .header: .header
        case .information: .information
        case .exifDates: .exifDates
        }
    }

    /// Answers `kind` about `file` (`name` stands for it in the answer and in log lines).
    public static func read(_ kind: Kind, of file: ImageFile, name: String) throws(ImageLoadError.Reason) -> ImageFacts {
        switch kind {
        case .header: return .header(try HeaderFacts.read(file))
        case .information:
            let bytes: Data
            do { bytes = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
            return .information(ImageInformation(path: name, bytes: bytes))
        case .exifDates:
            let head: Data
            do { head = try file.head(ItemFactReader.headBytes) } catch { throw ImageLoadError.Reason(error) }
            return .exifDates(ExifDates(head))
        }
    }
}

/// A plain image's format, stored size and EXIF orientation, read from its header: from its first
/// `headLength` bytes, or the whole file (up to `wholeFileLimit`) for formats whose size a prefix does not
/// give, or for a TIFF through libtiff, which reads only its directory wherever it lies.
public struct HeaderFacts: Sendable, Equatable, Codable {
    public var format: ImageFormat
    public var storedSize: PixelSize
    public var orientation: ImageOrientation

    public init(format: ImageFormat, storedSize: PixelSize, orientation: ImageOrientation) {
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
    public static func read(_ file: ImageFile) throws(ImageLoadError.Reason) -> HeaderFacts {
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

/// The EXIF dates a photo was taken, as text: DateTimeOriginal and DateTimeDigitized ("YYYY:MM:DD
/// hh:mm:ss") and their UTC offsets ("+02:00"), each nil when absent.
public struct ExifDates: Sendable, Equatable, Codable {
    public var original: String?
    public var originalOffset: String?
    public var digitized: String?
    public var digitizedOffset: String?

    public init(original: String? = nil, originalOffset: String? = nil, digitized: String? = nil, digitizedOffset: String? = nil) {
        self.original = original
        self.originalOffset = originalOffset
        self.digitized = digitized
        self.digitizedOffset = digitizedOffset
    }

    /// The dates in the EXIF block of `head` (a file's first bytes); all nil without one.
    init(_ head: Data) {
        let format = ImageFormat.sniff(head)
        self = head.withUnsafeBytes { raw -> ExifDates in
            guard let block = ExifReader.exifBlock(in: raw, format: format), let tags = ExifTags(block: block) else { return ExifDates() }
            return ExifDates(original: tags.text(0x9003, in: .exif), originalOffset: tags.text(0x9011, in: .exif),
                             digitized: tags.text(0x9004, in: .exif), digitizedOffset: tags.text(0x9012, in: .exif))
        }
    }
}
