import Foundation
import TesseraCore
import TesseraFiles

/// What the viewer reads about an image without decoding it, where reading it takes a C library (libheif,
/// libjxl, librsvg, libraw, libtiff, TurboJPEG's header reader, libexif, Little CMS, OpenSlide; the tiled
/// view's levels of a tiled TIFF, size of an SVG and levels of a slide): one function per kind of question,
/// run in this process or in a sandboxed helper that answers with the value serialized
/// (`DecodingService.facts`). Either way the same code reads the same bytes.
package enum ImageFacts: Sendable, Equatable, Codable {
    case header(HeaderFacts)
    case information(ImageInformation)
    case exifDates(ExifDates)
    case tiledTIFF(TiledTIFFFacts)
    /// An SVG's own size (`SVGDocument.size`).
    case drawingSize(PixelSize)
    /// A whole-slide image's format and levels; nil when OpenSlide does not recognise the file.
    case slide(SlideFacts?)

    /// Which question a request asks: the number the helper's request carries (`kind`; 0 is a decode).
    package enum Kind: UInt8, Sendable, CaseIterable {
        /// Format, stored size and orientation (`HeaderFacts`): what the tiled view opens an image by.
        case header = 4
        /// Everything the information overlay shows (`ImageInformation`).
        case information = 5
        /// The EXIF dates a sort by date taken reads (`ExifDates`), from the file's first bytes.
        case exifDates = 6
        /// A tiled TIFF's levels and profile (`TiledTIFFFacts`): what the tiled view opens one by.
        case tiledTIFF = 20
        /// An SVG's own size, parsed by librsvg: what the tiled view draws its pyramid from.
        case drawingSize = 21
        /// A whole-slide image's format and levels (`SlideFacts`), asked of the slide's own helper alone
        /// (`SlideHelperService`): OpenSlide opens a slide by its path, which other helpers cannot open.
        case slide = 24
    }

    package var kind: Kind {
        switch self {
        case .header: .header
        case .information: .information
        case .exifDates: .exifDates
        case .tiledTIFF: .tiledTIFF
        case .drawingSize: .drawingSize
        case .slide: .slide
        }
    }

    /// Answers `kind` about `file` (`name` stands for it in the answer and in log lines).
    package static func read(_ kind: Kind, of file: ImageFile, name: String) throws(ImageLoadError.Reason) -> ImageFacts {
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
        case .tiledTIFF:
            return .tiledTIFF(try TiledTIFFFacts.read(file))
        case .slide:
            throw .unsupportedFormat("a slide, read by a helper of its own")
        case .drawingSize:
            let bytes: Data
            do { bytes = try file.readAll() } catch { throw ImageLoadError.Reason(error) }
            do {
                return .drawingSize(try bytes.withUnsafeBytes { try SVGDocument($0).size })
            } catch let reason as ImageLoadError.Reason {
                throw reason
            } catch {
                throw .decodeFailed(String(describing: error))
            }
        }
    }
}
