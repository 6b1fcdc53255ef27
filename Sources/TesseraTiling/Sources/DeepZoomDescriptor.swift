import Foundation
import TesseraCore

/// The contents of a `.dzi` file:
///
///     <Image xmlns="http://schemas.microsoft.com/deepzoom/2008" TileSize="256" Overlap="0" Format="jpeg">
///       <Size Width="W" Height="H"/>
///     </Image>
///
/// Read with a small attribute scanner rather than an XML library: the format is two elements, and
/// Foundation's XML parser lives in FoundationXML, which would tie the package to libxml2 at run time.
/// The scanner is strict about what matters (both elements present and closed, every number an integer in
/// range) and ignores the rest (namespaces, attribute order, quotes, white space, other elements).
package struct DeepZoomDescriptor: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var tileSize: Int
    package var overlap: Int
    /// The tile files' extension as the descriptor names it ("jpeg", "jpg", "png").
    package var format: String

    package init(width: Int, height: Int, tileSize: Int, overlap: Int, format: String) {
        self.width = width
        self.height = height
        self.tileSize = tileSize
        self.overlap = overlap
        self.format = format
    }

    package var geometry: DeepZoomGeometry {
        DeepZoomGeometry(width: width, height: height, tileSize: tileSize, overlap: overlap)
    }

    /// Largest side and tile size accepted: 2^20 pixels a side is already a 4 TB image.
    static let sideLimit = 1 << 20
    static let tileSizeLimit = 1 << 14

    /// Parses a descriptor; the error text says what is wrong, for the log.
    package static func parse(_ text: String) throws(DescriptorError) -> DeepZoomDescriptor {
        guard let image = element("Image", in: text) else { throw DescriptorError("no <Image> element") }
        guard image.isClosed else { throw DescriptorError("<Image> is not closed") }
        guard let size = element("Size", in: text) else { throw DescriptorError("no <Size> element") }
        guard size.isClosed else { throw DescriptorError("<Size> is not closed") }
        let tileSize = try integer("TileSize", of: image, in: 1...tileSizeLimit)
        let overlap = try integer("Overlap", of: image, in: 0...tileSizeLimit, default: 0)
        let width = try integer("Width", of: size, in: 1...sideLimit)
        let height = try integer("Height", of: size, in: 1...sideLimit)
        let format = (image.attributes["Format"] ?? "jpg").lowercased()
        guard !format.isEmpty, format.allSatisfy({ $0.isLetter || $0.isNumber }) else {
            throw DescriptorError("Format '\(format)' is not a file extension")
        }
        return DeepZoomDescriptor(width: width, height: height, tileSize: tileSize, overlap: overlap, format: format)
    }

    /// The text of a descriptor for these values, byte for byte the layout `vips dzsave` 8.14 writes. The
    /// one writer of `.dzi` files: the tile cutter uses it too.
    package var xml: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <Image xmlns="http://schemas.microsoft.com/deepzoom/2008"
          Format="\(format)"
          Overlap="\(overlap)"
          TileSize="\(tileSize)"
          >
          <Size\u{20}
            Height="\(height)"
            Width="\(width)"
          />
        </Image>

        """
    }

    /// `NAME_files` beside `NAME.dzi`.
    package static func tilesFolder(forDescriptorAt path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let name = url.deletingPathExtension().lastPathComponent
        return url.deletingLastPathComponent().appendingPathComponent("\(name)_files").path
    }

    // MARK: - Scanner

    package struct DescriptorError: Error, Sendable, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    private struct Element {
        var attributes: [String: String]
        /// Self-closing (`<Size .../>`) or followed by a matching end tag.
        var isClosed: Bool
    }

    /// The first `<name ...>` start tag in `text`, with its attributes.
    private static func element(_ name: String, in text: String) -> Element? {
        var searchStart = text.startIndex
        while let open = text.range(of: "<\(name)", range: searchStart..<text.endIndex) {
            searchStart = open.upperBound
            // "<Image" must not be the start of "<ImageFoo".
            guard open.upperBound < text.endIndex else { return nil }
            let next = text[open.upperBound]
            guard next.isWhitespace || next == ">" || next == "/" else { continue }
            guard let end = tagEnd(in: text, from: open.upperBound) else { return nil }
            let body = text[open.upperBound..<end]
            guard let attributes = attributes(in: body.hasSuffix("/") ? body.dropLast() : body) else { return nil }
            let selfClosing = body.hasSuffix("/")
            let closed = selfClosing || text.range(of: "</\(name)", range: end..<text.endIndex) != nil
            return Element(attributes: attributes, isClosed: closed)
        }
        return nil
    }

    /// The index of the `>` ending a tag, skipping quoted attribute values.
    private static func tagEnd(in text: String, from start: String.Index) -> String.Index? {
        var quote: Character?
        var i = start
        while i < text.endIndex {
            let c = text[i]
            if let q = quote {
                if c == q { quote = nil }
            } else if c == "\"" || c == "'" {
                quote = c
            } else if c == ">" {
                return i
            } else if c == "<" {
                return nil
            }
            i = text.index(after: i)
        }
        return nil
    }

    /// `name="value"` pairs (single or double quotes); nil when the text between them is not that.
    private static func attributes(in body: Substring) -> [String: String]? {
        var result: [String: String] = [:]
        var rest = body[...]
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard !rest.isEmpty else { return result }
            let name = rest.prefix(while: { !$0.isWhitespace && $0 != "=" })
            guard !name.isEmpty else { return nil }
            rest = rest.dropFirst(name.count).drop(while: \.isWhitespace)
            guard rest.first == "=" else { return nil }
            rest = rest.dropFirst().drop(while: \.isWhitespace)
            guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
            rest = rest.dropFirst()
            guard let close = rest.firstIndex(of: quote) else { return nil }
            // Namespaced names ("dz:TileSize") count by their local part.
            let local = name.split(separator: ":").last.map(String.init) ?? String(name)
            result[local] = String(rest[..<close]).trimmingCharacters(in: .whitespaces)
            rest = rest[rest.index(after: close)...]
        }
    }

    private static func integer(_ name: String, of element: Element, in range: ClosedRange<Int>,
                                default fallback: Int? = nil) throws(DescriptorError) -> Int {
        guard let text = element.attributes[name] else {
            if let fallback { return fallback }
            throw DescriptorError("\(name) is missing")
        }
        guard let value = Int(text) else { throw DescriptorError("\(name)=\"\(text)\" is not a whole number") }
        guard range.contains(value) else { throw DescriptorError("\(name)=\(value) is out of range") }
        return value
    }
}
