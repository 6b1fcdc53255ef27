import CZlib
import Foundation

/// Whether the first bytes of a file are an SVG document: text whose first element is `<svg`, after an
/// optional byte order mark, XML declaration, processing instructions, comments and doctype (with its
/// internal subset, as Illustrator writes). Gzip-compressed SVG (.svgz) is inflated first, as far as the
/// bytes given go. Other XML (a Deep Zoom descriptor, an XHTML page) is not SVG.
enum SVGSniffer {
    static func isSVG(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 3, bytes[0] == 0x1F, bytes[1] == 0x8B, bytes[2] == 0x08 {
            return rootIsSVG(inflatedPrefix(of: bytes))
        }
        return rootIsSVG(bytes)
    }

    /// Walks past everything that may precede the root element; true when the root element is `svg`.
    static func rootIsSVG(_ text: [UInt8]) -> Bool {
        var i = 0
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        func skipSpace() { while i < text.count, [0x20, 0x09, 0x0A, 0x0D].contains(text[i]) { i += 1 } }
        func at(_ literal: String) -> Bool {
            let bytes = Array(literal.utf8)
            return i + bytes.count <= text.count && text[i..<(i + bytes.count)].elementsEqual(bytes)
        }
        /// Moves past the next `terminator`; false when the text ends first.
        func skip(past terminator: String) -> Bool {
            let bytes = Array(terminator.utf8)
            while i + bytes.count <= text.count {
                if text[i..<(i + bytes.count)].elementsEqual(bytes) { i += bytes.count; return true }
                i += 1
            }
            return false
        }
        while true {
            skipSpace()
            if at("<?") {
                guard skip(past: "?>") else { return false }
            } else if at("<!--") {
                guard skip(past: "-->") else { return false }
            } else if at("<!DOCTYPE") {
                // The internal subset in brackets may hold '>' of its own.
                while i < text.count, text[i] != UInt8(ascii: ">"), text[i] != UInt8(ascii: "[") { i += 1 }
                if i < text.count, text[i] == UInt8(ascii: "[") { guard skip(past: "]") else { return false } }
                guard skip(past: ">") else { return false }
            } else {
                guard at("<svg"), i + 4 < text.count else { return false }
                return [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(text[i + 4])
            }
        }
    }

    /// What the gzip stream in `compressed` inflates to, up to `ImageFormat.sniffLength` bytes; what there
    /// is when the stream is cut short or damaged.
    static func inflatedPrefix(of compressed: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        // 16 + MAX_WBITS: a gzip header and trailer around the deflate data.
        guard inflateInit2_(&stream, 16 + MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return [] }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: ImageFormat.sniffLength)
        let produced = compressed.withUnsafeBufferPointer { input -> Int in
            output.withUnsafeMutableBufferPointer { out -> Int in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                _ = inflate(&stream, Z_SYNC_FLUSH)
                return out.count - Int(stream.avail_out)
            }
        }
        return Array(output.prefix(produced))
    }
}
