import CTesseraJPEG
import Foundation

/// What a JPEG's markers say about its colours: the ICC profile of its APP2 chunks, and whether its
/// pixels are CMYK, stored inverted as Adobe writes them. Read by libjpeg (`tessera_jpeg.h`).
struct JPEGColour: Equatable {
    var profile: [UInt8]?
    var isCMYK = false
    /// An APP14 "Adobe" marker: CMYK values are inverted (255 = no ink).
    var sawAdobeMarker = false

    /// Copies what `colour` holds; its profile stays the C side's to free.
    init(_ colour: tessera_jpeg_colour) {
        if let icc = colour.icc, colour.icc_size > 0 {
            profile = Array(UnsafeBufferPointer(start: icc, count: Int(colour.icc_size)))
        }
        isCMYK = colour.is_cmyk != 0
        sawAdobeMarker = colour.saw_adobe_marker != 0
    }

    /// The colour description of the JPEG in `bytes`; nil when libjpeg cannot read its header.
    static func read(_ bytes: UnsafeRawBufferPointer) -> JPEGColour? {
        guard !bytes.isEmpty, let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
        var colour = tessera_jpeg_colour()
        var message = [CChar](repeating: 0, count: 256)
        let length = message.count
        let status = message.withUnsafeMutableBufferPointer {
            tessera_jpeg_read_colour(base, bytes.count, &colour, $0.baseAddress, length)
        }
        guard status == TESSERA_IMAGE_OK else { return nil }
        defer { free(colour.icc) }
        return JPEGColour(colour)
    }

    /// The CMYK conversion for this JPEG's pixels (only meaningful when `isCMYK`).
    func cmykConversion(name: String, manager: ColourManager = .shared) -> CMYKConversion {
        CMYKConversion(profile: profile, inverted: sawAdobeMarker, name: name, manager: manager)
    }
}
