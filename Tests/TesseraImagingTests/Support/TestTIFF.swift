import Foundation

/// Little-endian TIFFs written by hand, with every tag under the test's control (extra samples, colour
/// maps, subfile types, orientation, ICC, SubIFDs, DNG's tags); `tiffcp` then compresses or tiles them
/// where a test needs that.
enum TestTIFF {
    typealias Entry = (tag: UInt16, type: UInt16, count: Int, bytes: [UInt8])

    struct Page {
        var width: Int
        var height: Int
        /// Samples, row by row, interleaved; each is 8 or 16 bits as `bitsPerSample` says.
        var samples: [UInt16]
        var samplesPerPixel: Int
        var bitsPerSample = 8
        /// 0 white is zero, 1 black is zero, 2 RGB, 3 palette, 5 separated (CMYK), 6 YCbCr, 32803 CFA.
        var photometric: UInt16
        /// 1 associated alpha, 2 unassociated alpha, for a last sample beyond the colour ones.
        var extraSample: UInt16?
        /// Red, then green, then blue entries, 16 bits each (palette images).
        var colourMap: [UInt16]?
        var subfileType: UInt32 = 0
        var orientation: UInt16?
        var icc: [UInt8]?
        /// Pages reachable only through this page's SubIFDs tag.
        var subPages: [Page] = []
        var compression: UInt16 = 1
        /// The strip's bytes as they go in the file (a JPEG for compression 7); `samples` when nil.
        var stripData: [UInt8]?
        /// Further entries (DNG's, say).
        var extraEntries: [Entry] = []
    }

    /// The quadrants as 8-bit RGB samples (or RGBA with `alpha`).
    static func quadrantSamples(width: Int, height: Int, colours: [(UInt8, UInt8, UInt8)], alpha: UInt8? = nil) -> [UInt16] {
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]
                samples += [UInt16(c.0), UInt16(c.1), UInt16(c.2)]
                if let alpha { samples.append(UInt16(alpha)) }
            }
        }
        return samples
    }

    /// `pages` in one file: header, then each page's directory followed by its values and its one strip.
    static func file(_ pages: [Page]) -> Data {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 0, 0, 0, 0]
        var nextPointer = 4  // where the offset of the next directory goes
        for page in pages {
            let offset = write(page, into: &out)
            patch32(&out, at: nextPointer, UInt32(offset))
            nextPointer = offset + 2 + entries(page).count * 12
        }
        return Data(out)
    }

    /// The page's entries sorted by tag, as TIFF requires; the strip (273) and SubIFD (330) offsets are
    /// placeholders, patched once known.
    private static func entries(_ page: Page) -> [Entry] {
        var list: [Entry] = [
            (254, 4, 1, le32(page.subfileType)),
            (256, 4, 1, le32(UInt32(page.width))),
            (257, 4, 1, le32(UInt32(page.height))),
            (258, 3, page.samplesPerPixel, (0..<page.samplesPerPixel).flatMap { _ in le16(UInt16(page.bitsPerSample)) }),
            (259, 3, 1, le16(page.compression)),
            (262, 3, 1, le16(page.photometric)),
            (273, 4, 1, le32(0)),
            (277, 3, 1, le16(UInt16(page.samplesPerPixel))),
            (278, 4, 1, le32(UInt32(page.height))),
            (279, 4, 1, le32(UInt32(stripBytes(page).count))),
            (284, 3, 1, le16(1)),
        ]
        if let orientation = page.orientation { list.append((274, 3, 1, le16(orientation))) }
        if let map = page.colourMap { list.append((320, 3, map.count, map.flatMap(le16))) }
        if !page.subPages.isEmpty { list.append((330, 4, page.subPages.count, [UInt8](repeating: 0, count: 4 * page.subPages.count))) }
        if let extra = page.extraSample { list.append((338, 3, 1, le16(extra))) }
        if let icc = page.icc { list.append((34675, 7, icc.count, icc)) }
        list += page.extraEntries
        return list.sorted { $0.tag < $1.tag }
    }

    private static func stripBytes(_ page: Page) -> [UInt8] {
        page.stripData ?? page.samples.flatMap { page.bitsPerSample == 16 ? le16($0) : [UInt8($0)] }
    }

    /// Appends `page` (and its sub-pages); returns its directory's offset.
    private static func write(_ page: Page, into out: inout [UInt8]) -> Int {
        if out.count % 2 == 1 { out.append(0) }
        let start = out.count
        let entries = entries(page)
        let valuesStart = start + 2 + entries.count * 12 + 4
        var values: [UInt8] = []
        out += le16(UInt16(entries.count))
        var positions: [UInt16: Int] = [:]  // where each tag's value (or its offset) sits
        for (tag, type, n, bytes) in entries {
            out += le16(tag) + le16(type) + le32(UInt32(n))
            if bytes.count <= 4 {
                positions[tag] = out.count
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                positions[tag] = valuesStart + values.count
                out += le32(UInt32(valuesStart + values.count))
                values += bytes
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        out += le32(0)  // next directory: patched by `file`
        out += values
        patch32(&out, at: positions[273]!, UInt32(out.count))
        out += stripBytes(page)
        for (i, sub) in page.subPages.enumerated() {
            let offset = write(sub, into: &out)
            patch32(&out, at: positions[330]! + i * 4, UInt32(offset))
        }
        return start
    }

    private static func patch32(_ out: inout [UInt8], at i: Int, _ v: UInt32) {
        out.replaceSubrange(i..<(i + 4), with: le32(v))
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}
