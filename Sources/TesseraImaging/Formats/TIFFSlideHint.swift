import Foundation
import TesseraFiles

/// Whether a TIFF may be a whole-slide image stored as TIFF (the vendors OpenSlide reads in TIFF form), read
/// from the first directory's tags with bounds-checked reads in Swift, wherever the directory lies.
///
/// With helpers, only OpenSlide, in a helper of the slide's own, can say a TIFF is a slide, and starting
/// that helper costs a program's start; a plain pyramidal TIFF, the common case, is told apart here, in
/// this process, without parsing anything with C. It errs towards "may be": OpenSlide then decides.
/// The marks are OpenSlide's own: Aperio's "Aperio" description, Leica's and Philips' XML descriptions,
/// Trestle's "MedScan", Hamamatsu NDPI's private tag 65420 and Ventana's XMP packet (tag 700).
package enum TIFFSlideHint {
    /// Tags whose presence marks a slide.
    static let ndpiFormatFlag: UInt16 = 65420
    static let xmlPacket: UInt16 = 700
    static let imageDescription: UInt16 = 270

    /// False only for a TIFF whose first directory has none of the marks; true for anything unreadable.
    package static func mayBeSlide(_ file: ImageFile) -> Bool {
        func bytes(_ start: Int, _ count: Int) -> [UInt8]? {
            guard start >= 0, count > 0, start <= file.size - count else { return nil }
            var buffer = [UInt8](repeating: 0, count: count)
            let read = buffer.withUnsafeMutableBytes { try? file.read(into: $0.baseAddress!, from: start, to: start + count) }
            return read == start + count ? buffer : nil
        }
        guard let header = bytes(0, 16) else { return true }
        let bigEndian: Bool
        switch (header[0], header[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: return true
        }
        func integer(_ b: [UInt8], _ at: Int, _ width: Int) -> Int? {
            guard at >= 0, at + width <= b.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<width {
                let byte = UInt64(b[at + (bigEndian ? i : width - 1 - i)])
                value = value << 8 | byte
            }
            return value < UInt64(Int.max) ? Int(value) : nil
        }
        guard let magic = integer(header, 2, 2), magic == 42 || magic == 43 else { return true }
        let big = magic == 43
        let (countWidth, entrySize, offsetWidth) = big ? (8, 20, 8) : (2, 12, 4)
        guard let directory = integer(header, big ? 8 : 4, offsetWidth),
              let countBytes = bytes(directory, countWidth), let count = integer(countBytes, 0, countWidth),
              count > 0, count < 4096, let entries = bytes(directory + countWidth, count * entrySize) else { return true }
        for index in 0..<count {
            let entry = index * entrySize
            guard let tag = integer(entries, entry, 2) else { return true }
            if tag == ndpiFormatFlag || tag == xmlPacket { return true }
            guard tag == imageDescription else { continue }
            guard let length = integer(entries, entry + 4, offsetWidth) else { return true }
            let wanted = min(length, 256)
            let text: [UInt8]?
            if length <= offsetWidth {
                text = Array(entries[(entry + 4 + offsetWidth)..<(entry + 4 + offsetWidth + wanted)])
            } else {
                text = integer(entries, entry + 4 + offsetWidth, offsetWidth).flatMap { bytes($0, wanted) }
            }
            guard let text else { return true }
            let description = String(decoding: text, as: UTF8.self)
            return description.hasPrefix("Aperio") || description.hasPrefix("<?xml") || description.contains("MedScan")
        }
        return false
    }
}
