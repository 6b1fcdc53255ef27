import CTesseraGLib
import Foundation
import TesseraCore

/// An SVG document parsed by librsvg, rendered at any size. The per-file state an SVG decoder holds;
/// not shared between threads.
package final class SVGDocument {
    private let svg: OpaquePointer

    /// The size a document that states none (no width and height, no viewBox) is drawn at.
    static let defaultSize = PixelSize(width: 512, height: 512)

    /// Parses `bytes` (plain or gzip-compressed SVG).
    package init(_ bytes: UnsafeRawBufferPointer) throws(ImageLoadError.Reason) {
        guard let base = bytes.bindMemory(to: UInt8.self).baseAddress, !bytes.isEmpty else { throw .empty }
        var status = TESSERA_GLIB_OK
        var message = [CChar](repeating: 0, count: 256)
        guard let svg = tessera_svg_open(base, bytes.count, &status, &message, message.count) else {
            throw ImageLoadError.Reason(status, message)
        }
        self.svg = svg
    }

    deinit { tessera_svg_close(svg) }

    /// The document's own size in whole pixels (rounded up, at 96 dpi), or `defaultSize` when it states none.
    var size: PixelSize {
        var width = 0.0, height = 0.0
        tessera_svg_size(svg, &width, &height)
        guard width > 0, height > 0 else { return Self.defaultSize }
        // Clamped far above any pixel limit, so an absurd size is refused as too large rather than trapping.
        let clamp = { (value: Double) in Int(min(value.rounded(.up), 1e9)) }
        return PixelSize(width: max(1, clamp(width)), height: max(1, clamp(height)))
    }

    /// The whole document drawn into `size` (its aspect kept, as the document says), on transparency.
    func render(_ size: PixelSize) throws(ImageLoadError.Reason) -> PixelBuffer {
        try render(PixelRegion(x: 0, y: 0, width: size.width, height: size.height),
                   ofDrawing: (Double(size.width), Double(size.height)))
    }

    /// The part `region` of the document drawn `drawing` pixels wide and high (its aspect kept), on
    /// transparency: one tile of a drawing that is never made whole.
    package func render(_ region: PixelRegion, ofDrawing drawing: (width: Double, height: Double)) throws(ImageLoadError.Reason) -> PixelBuffer {
        var message = [CChar](repeating: 0, count: 256)
        var status = TESSERA_GLIB_OK
        // librsvg's cairo surface clears every byte before drawing.
        let bytes = [UInt8](unsafeUninitializedCapacity: region.width * region.height * 4) { pixels, initialised in
            status = tessera_svg_render(svg, drawing.width, drawing.height, Int32(region.x), Int32(region.y),
                                        Int32(region.width), Int32(region.height), pixels.baseAddress, &message, message.count)
            initialised = pixels.count
        }
        guard status == TESSERA_GLIB_OK else { throw ImageLoadError.Reason(status, message) }
        return PixelBuffer(width: region.width, height: region.height, bytes: bytes)
    }

    /// The document's size for `ImageHeader`; nil when it cannot be parsed.
    static func size(_ bytes: UnsafeRawBufferPointer) -> (Int, Int)? {
        guard let document = try? SVGDocument(bytes) else { return nil }
        return (document.size.width, document.size.height)
    }
}

extension ImageLoadError.Reason {
    /// A failure of CTesseraGLib's librsvg or gdk-pixbuf wrappers, in the loader's words.
    init(_ status: tessera_glib_status, _ message: [CChar]) {
        self = status == TESSERA_GLIB_TRUNCATED ? .truncated : .decodeFailed(CText.string(message))
    }
}
