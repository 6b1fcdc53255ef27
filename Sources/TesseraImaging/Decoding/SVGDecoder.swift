import Foundation
import TesseraCore

/// SVG (and gzip-compressed SVG) through librsvg, rendered at the size it is shown: the target size when
/// there is one, so a cell is drawn at its own resolution rather than scaled from another; its own size
/// (or `SVGDocument.defaultSize` when it states none) otherwise. Never larger than its own size, as the
/// loader never enlarges: showing a vector image sharper than 100 % is the zoomed view's business
/// (docs/FORMATS.md).
public struct SVGDecoder: ImageDecoding {
    public init() {}

    public func canDecode(_ format: ImageFormat) -> Bool { format == .svg }

    public func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            let document = try SVGDocument(raw)
            let natural = document.size
            return try document.render(targetSize.map { natural.aspectFit(in: $0) } ?? natural)
        }
    }
}
