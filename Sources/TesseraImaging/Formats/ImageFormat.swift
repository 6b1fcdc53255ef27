import Foundation

/// The container format of an image file, as recognised from its first bytes.
///
/// Formats are identified by magic bytes only, never by file extension: photo collections are full of
/// `.png` files that are really JPEGs (and vice versa), and the decoder must be chosen by what the bytes
/// are, not by what the name claims.
package enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, gif, webp, bmp, tiff
    /// HEIF with HEVC pictures (HEIC, as phones write them), or any other HEIF that is not AVIF.
    case heif
    /// HEIF with AV1 pictures.
    case avif
    /// JPEG XL, bare codestream or ISO-BMFF container.
    case jxl
    /// SVG, plain or gzip-compressed (.svgz).
    case svg
    /// A camera's raw sensor data: DNG, CR2, CR3, NEF, ARW, RAF, ORF, RW2.
    case raw
    case unknown

    /// How many leading bytes `sniff` looks at. Callers that read files in chunks need at least this many.
    /// SVG needs the most: its root element may follow an XML declaration, comments and a doctype; and a
    /// camera's Make, which tells a NEF or ARW from a plain TIFF, sits after the first directory.
    package static let sniffLength = 4096

    /// A short upper-case name for messages ("JPEG", "WEBP", "JPEG XL").
    package var displayName: String {
        switch self {
        case .jxl: "JPEG XL"
        default: rawValue.uppercased()
        }
    }

    /// Identifies the format from the first bytes of a file (`sniffLength` bytes are enough; more are ignored).
    ///
    /// Generic over the collection so callers can pass `Data`, a `Data` slice or `[UInt8]` without copying
    /// the whole file; only the prefix is examined.
    package static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat where Bytes.Element == UInt8 {
        let b = Array(bytes.prefix(sniffLength))
        func starts(with magic: [UInt8], at offset: Int = 0) -> Bool {
            guard b.count >= offset + magic.count else { return false }
            return b[offset..<(offset + magic.count)].elementsEqual(magic)
        }
        // JPEG: SOI marker followed by the start of another marker.
        if starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts(with: Array("GIF87a".utf8)) || starts(with: Array("GIF89a".utf8)) { return .gif }
        if starts(with: Array("RIFF".utf8)) && starts(with: Array("WEBP".utf8), at: 8) { return .webp }
        // JPEG XL: the bare codestream's signature, or the container's signature box.
        if starts(with: [0xFF, 0x0A])
            || starts(with: [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) {
            return .jxl
        }
        if starts(with: Array("ftyp".utf8), at: 4), let format = b.withUnsafeBytes(isoBaseMediaFormat) { return format }
        if starts(with: Array("FUJIFILMCCD-RAW".utf8)) { return .raw }
        // Olympus (ORF) and Panasonic (RW2) raw files are TIFF with a magic number of their own.
        if starts(with: Array("IIRO".utf8)) || starts(with: Array("IIRS".utf8)) || starts(with: Array("MMOR".utf8))
            || starts(with: [0x49, 0x49, 0x55, 0x00]) {
            return .raw
        }
        // Classic TIFF (magic 42) and BigTIFF (magic 43), either byte order.
        if starts(with: [0x49, 0x49, 0x2A, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2A])
            || starts(with: [0x49, 0x49, 0x2B, 0x00]) || starts(with: [0x4D, 0x4D, 0x00, 0x2B]) {
            // Canon's CR2 says "CR" right after the header.
            if starts(with: Array("CR".utf8), at: 8) { return .raw }
            return b.withUnsafeBytes(isCameraRaw) ? .raw : .tiff
        }
        // "BM" alone is only two bytes and plenty of text files start with it, so when the DIB header
        // size is available it must be one of the sizes Windows ever defined.
        if starts(with: [0x42, 0x4D]) {
            guard b.count >= 18 else { return .bmp }
            let dibSize = UInt32(b[14]) | UInt32(b[15]) << 8 | UInt32(b[16]) << 16 | UInt32(b[17]) << 24
            if [12, 16, 40, 52, 56, 64, 108, 124].contains(dibSize) { return .bmp }
        }
        if SVGSniffer.isSVG(b) { return .svg }
        return .unknown
    }

    /// An ISO base media file (whose first box is `ftyp`) by its brands: the major brand, then the
    /// compatible ones. AVIF files name `mif1` too, so AV1 brands are looked for first.
    private static func isoBaseMediaFormat(_ raw: UnsafeRawBufferPointer) -> ImageFormat? {
        let r = ByteReader(raw)
        guard let size = r.u32be(0), size >= 16, let major = r.ascii(8, 4) else { return nil }
        if major == "crx " { return .raw }  // Canon CR3
        var brands = [major]
        var offset = 16
        while offset + 4 <= min(Int(size), raw.count), let brand = r.ascii(offset, 4) {
            brands.append(brand)
            offset += 4
        }
        let av1: Set = ["avif", "avis"]
        let hevcOrGeneric: Set = ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs", "mif1", "msf1"]
        if av1.contains(major) { return .avif }
        if hevcOrGeneric.contains(major) && major != "mif1" && major != "msf1" { return .heif }
        if brands.contains(where: av1.contains) { return .avif }
        if brands.contains(where: hevcOrGeneric.contains) { return .heif }
        return nil
    }

    /// A TIFF-structured file that is a camera's raw data rather than an image: a DNG (it has a
    /// DNGVersion tag), or a Nikon NEF or Sony ARW, whose first directory names the maker and points to
    /// further directories (the raw data and its previews). A plain TIFF from such a camera has no such
    /// directories.
    private static func isCameraRaw(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard let directory = TIFFDirectory(raw) else { return false }
        if directory.contains(TIFFDirectory.Tag.dngVersion) { return true }
        guard directory.contains(TIFFDirectory.Tag.subIFDs), let make = directory.text(TIFFDirectory.Tag.make)?.uppercased()
        else { return false }
        return make.hasPrefix("NIKON") || make.hasPrefix("SONY")
    }
}
