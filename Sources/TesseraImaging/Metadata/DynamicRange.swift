import CHeif
import CJXL
import Foundation
import TesseraCore
import TesseraFiles

/// How an image holds light brighter than an SDR screen's white, as the information overlay names it.
/// PQ and HLG pictures are rendered for the screen (`HDRRendering`); a gain-map photo shows its SDR base
/// image, which is what an SDR screen is meant to show.
package enum DynamicRange: String, Sendable, Equatable, Codable {
    /// SMPTE ST 2084 (H.273 transfer 16).
    case pq = "HDR (PQ)"
    /// ARIB STD-B67 (H.273 transfer 18).
    case hlg = "HDR (HLG)"
    /// An SDR picture with a gain map for HDR screens: Ultra HDR and ISO 21496-1 JPEGs, Apple's HEICs.
    case gainMap = "HDR (gain map)"

    /// The range of the image file `bytes`, from its headers alone; nil for SDR or what cannot be read.
    static func of(_ bytes: UnsafeRawBufferPointer, format: ImageFormat) -> DynamicRange? {
        switch format {
        case .jpeg: return jpegHasGainMap(bytes) ? .gainMap : nil
        case .heif, .avif:
            guard let file = try? HEIFFile(bytes), let primary = try? file.primaryImage() else { return nil }
            if let points = primary.colourCodePoints, let range = of(points) { return range }
            return primary.auxiliaryTypes.contains(appleGainMap) ? .gainMap : nil
        case .jxl:
            return JXLDecoder.colourCodePoints(bytes).flatMap(of)
        case .png:
            return PNGDecoder.codePoints(in: bytes).flatMap(of)
        default:
            return nil
        }
    }

    /// The range code points declare.
    static func of(_ points: ColourCodePoints) -> DynamicRange? {
        switch HDRRendering.transfer(of: points) {
        case .pq: .pq
        case .hlg: .hlg
        case nil: nil
        }
    }

    /// The auxiliary image type Apple's HEICs give their gain map.
    static let appleGainMap = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// Whether a JPEG's header segments announce a gain map: Ultra HDR's XMP (the `hdrgm` namespace in
    /// APP1) or ISO 21496-1's APP2 marker.
    static func jpegHasGainMap(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ultraHDR = Array("http://ns.adobe.com/hdr-gain-map/1.0/".utf8)
        let iso = Array("urn:iso:std:iso:ts:21496:-1".utf8)
        var found = false
        JPEGSegments.walk(bytes) { segment in
            let payload = UnsafeRawBufferPointer(rebasing: bytes[segment.payload])
            if segment.marker == 0xE1, ByteSearch.firstRange(of: ultraHDR, in: payload) != nil { found = true }
            if segment.marker == 0xE2, payload.starts(with: iso) { found = true }
            return !found
        }
        return found
    }
}
