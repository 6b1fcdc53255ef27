#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// The XMP sidecars beside an image, and reading one.
///
/// darktable and digiKam name a photo's sidecar after the whole file name (`IMG_1.CR2.xmp`), so a raw
/// file and the JPEG beside it each have their own; Adobe's programs replace the extension (`IMG_1.xmp`),
/// which the two then share. Tessera writes the first kind and reads both.
package enum XMPSidecar {
    /// The namespace of `xmp:Rating`.
    package static let basicNamespace = "http://ns.adobe.com/xap/1.0/"
    package static let ratingProperty = "xmp:Rating"
    /// The most bytes a sidecar may have to be read: darktable's histories make sidecars of a few hundred
    /// kilobytes at most, and a larger file is not parsed on a worker that reads a folder's ratings.
    package static let sizeLimit = 16 << 20

    /// `NAME.EXT.xmp` for the image `NAME.EXT`: the sidecar Tessera writes.
    package static func path(for imagePath: String) -> String {
        imagePath + ".xmp"
    }

    /// `NAME.xmp` for the image `NAME.EXT`; nil when the name has no extension to replace, or is itself a
    /// sidecar's.
    package static func adobePath(for imagePath: String) -> String? {
        let scalars = imagePath.unicodeScalars
        let nameStart = scalars.lastIndex(of: "/").map(scalars.index(after:)) ?? scalars.startIndex
        guard let dot = scalars[nameStart...].lastIndex(of: "."), dot != nameStart,
              String(scalars[scalars.index(after: dot)...]).lowercased() != "xmp" else { return nil }
        return String(scalars[..<dot]) + ".xmp"
    }

    /// A sidecar's bytes and the version they are of.
    package struct Contents {
        package var bytes: Data
        package var version: FileVersion
    }

    /// The sidecar at `path`, nil when there is none; throws why it cannot be read (in words).
    package static func read(_ path: String) throws(ReadFailure) -> Contents? {
        let file: ImageFile
        do {
            file = try ImageFile(path: path)
        } catch .missing {
            return nil
        } catch .empty {
            // An empty file is an empty sidecar: nothing in it to keep.
            guard let version = FileVersion.ofFile(atPath: path) else { return nil }
            return Contents(bytes: Data(), version: version)
        } catch {
            throw ReadFailure(description: error.description)
        }
        guard file.size <= sizeLimit else {
            throw ReadFailure(description: "larger than \(sizeLimit >> 20) MiB")
        }
        do {
            return Contents(bytes: try file.readAll(), version: file.version)
        } catch {
            throw ReadFailure(description: error.description)
        }
    }

    /// Why a sidecar could not be read, in words.
    package struct ReadFailure: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// The packet `bytes` hold, for a sidecar: empty for a file of nothing but white space, nil when they
    /// are not XMP. Exempi takes any well-formed XML without RDF for an empty packet; such a file is not
    /// taken for one (writing into it would lose what it holds) unless it names the RDF namespace, as an
    /// empty packet of any writer does. Call inside `XMPToolkit.withLock`.
    package static func packet(parsing bytes: Data) -> XMPPacket? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return XMPPacket() }
        guard let packet = bytes.withUnsafeBytes({ XMPPacket(parsing: $0) }) else { return nil }
        if packet.isEmpty, ByteSearch.firstRange(of: rdfNamespace, in: bytes) == nil { return nil }
        return packet
    }

    private static let rdfNamespace = Array("http://www.w3.org/1999/02/22-rdf-syntax-ns#".utf8)
}
