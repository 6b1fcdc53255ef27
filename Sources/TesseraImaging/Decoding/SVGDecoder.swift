import Foundation
import TesseraCore

/// SVG (and gzip-compressed SVG) through librsvg, rendered at the size it is shown: the target size when
/// there is one, so a cell is drawn at its own resolution rather than scaled from another; its own size
/// (or `SVGDocument.defaultSize` when it states none) otherwise. A target larger than its own size is
/// drawn at that size too, sharp, though the loader never asks for one (it never enlarges). The single
/// view draws an SVG tile by tile at every zoom instead (`SVGTileSource`).
package struct SVGDecoder: ImageDecoding {
    package init() {}

    package func canDecode(_ format: ImageFormat) -> Bool { format == .svg }

    package func decode(_ data: Data, format: ImageFormat, targetSize: PixelSize?) throws -> PixelBuffer {
        try data.withUnsafeBytes { raw throws(ImageLoadError.Reason) -> PixelBuffer in
            let document = try SVGDocument(raw)
            let natural = document.size
            return try document.render(targetSize.map { natural.aspectFit(in: $0, allowUpscale: true) } ?? natural)
        }
    }
}
