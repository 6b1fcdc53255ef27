import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

final class ImageFormatTests: XCTestCase {
    func testSniffsEveryFormatByMagicBytes() {
        XCTAssertEqual(ImageFormat.sniff(TestJPEG.solid(width: 8, height: 8, color: RGBA(r: 1, g: 2, b: 3))), .jpeg)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.png(width: 1, height: 1)), .png)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.gif(width: 1, height: 1)), .gif)
        XCTAssertEqual(ImageFormat.sniff(Data("GIF87a".utf8) + Data(count: 10)), .gif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.webpLossy(width: 1, height: 1)), .webp)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.bmp(width: 1, height: 1)), .bmp)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(width: 1, height: 1, bigEndian: false)), .tiff)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(width: 1, height: 1, bigEndian: true)), .tiff)
    }

    func testUnknownAndTooShortInputs() {
        XCTAssertEqual(ImageFormat.sniff(Data()), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data([0xFF, 0xD8])), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data("hello, world, this is text".utf8)), .unknown)
        XCTAssertEqual(ImageFormat.sniff(Data("RIFF\0\0\0\0WAVEfmt ".utf8)), .unknown, "a RIFF that isn't WebP")
        // Text that happens to start with "BM" is not a bitmap.
        XCTAssertEqual(ImageFormat.sniff(Data("BMW and other cars are listed here".utf8)), .unknown)
    }

    func testSniffAcceptsArraysAndSlices() {
        let png = TestHeaders.png(width: 3, height: 4)
        XCTAssertEqual(ImageFormat.sniff([UInt8](png)), .png)
        let padded = Data([1, 2, 3]) + png
        XCTAssertEqual(ImageFormat.sniff(padded.dropFirst(3)), .png, "a Data slice with a non-zero start index")
    }

    /// The extension is irrelevant: a JPEG saved as .png decodes as JPEG, a PNG saved as .jpg is a PNG.
    func testWrongExtensionStillDecodesByContent() throws {
        let dir = try TemporaryDirectory()
        let jpeg = TestJPEG.solid(width: 20, height: 10, color: RGBA(r: 200, g: 40, b: 10))
        let path = try dir.write(jpeg, to: "actually-a-jpeg.png")
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        let image = try loader.load(path: path, fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 20, height: 10))
        XCTAssertTrue(image.pixel(x: 10, y: 5).isClose(to: RGBA(r: 200, g: 40, b: 10), tolerance: 3))

        let png = try dir.write(TestHeaders.png(width: 5, height: 5), to: "actually-a-png.jpg")
        let recorder = RecordingDecoder(formats: [.png])
        _ = try ImageLoader(decoders: [TurboJPEGDecoder(), recorder]).load(path: png, fitting: nil)
        XCTAssertEqual(recorder.calls.map(\.format), [.png])
    }
}

/// The formats beyond the classic ones, each told by its bytes, and their look-alikes told apart.
final class ImageFormatNewFormatsTests: XCTestCase {
    func testHEIFAndAVIFByTheirBrands() {
        for major in ["heic", "heix", "hevc", "heim", "heis", "hevm", "hevs"] {
            XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: major, compatible: ["mif1"])), .heif, major)
        }
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "mif1", compatible: ["heic", "mif1"])), .heif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "msf1", compatible: ["msf1"])), .heif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "avif", compatible: ["mif1", "miaf"])), .avif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "avis", compatible: ["msf1"])), .avif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "mif1", compatible: ["avif", "miaf"])), .avif)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "crx ", compatible: ["crx ", "isom"])), .raw, "Canon CR3")
        // A video is an ISO base media file too, and not an image.
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.isoBaseMedia(major: "isom", compatible: ["isom", "mp41"])), .unknown)
    }

    func testJPEGXLCodestreamAndContainer() {
        XCTAssertEqual(ImageFormat.sniff(Data([0xFF, 0x0A, 0xFA, 0x7F])), .jxl)
        let container: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]
        XCTAssertEqual(ImageFormat.sniff(Data(container + [0, 0, 0, 0x14] + Array("ftypjxl ".utf8))), .jxl)
    }

    func testSVGAfterDeclarationsCommentsAndDoctype() {
        let svgs = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"/>",
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg>",
            "<?xml version=\"1.0\"?>\n<!-- Created with Inkscape (http://www.inkscape.org/) -->\n\n<svg\n   width=\"210mm\">",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [\n"
                + "<!ENTITY ns_flows \"http://ns.adobe.com/Flows/1.0/\">\n<!ENTITY ns_extend \"http://ns.adobe.com/Extensibility/1.0/\">\n]>\n"
                + "<svg version=\"1.1\">",
            "  \n<!-- a > b -->\t<svg>",
        ]
        for text in svgs { XCTAssertEqual(ImageFormat.sniff(Data(text.utf8)), .svg, text) }
        let notSVGs = [
            "<?xml version=\"1.0\"?><Image xmlns=\"http://schemas.microsoft.com/deepzoom/2008\" TileSize=\"256\">",
            "<!DOCTYPE html><html><body><svg></svg></body></html>",
            "<svgfoo/>",
            "<?xml version=\"1.0\"?>\n<!-- a comment that never ends",
            "just <svg> in text",
        ]
        for text in notSVGs { XCTAssertEqual(ImageFormat.sniff(Data(text.utf8)), .unknown, text) }
    }

    func testGzippedSVGIsSVGAndOtherGzipIsNot() throws {
        let svg = try gzip(Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8))
        XCTAssertEqual(ImageFormat.sniff(svg), .svg)
        XCTAssertEqual(ImageFormat.sniff(svg.prefix(20)), .unknown, "too little of the stream to see the root element")
        XCTAssertEqual(ImageFormat.sniff(try gzip(Data("plain text, compressed".utf8))), .unknown)
    }

    func testCameraRawsAmongTIFFs() {
        typealias E = TestHeaders.TIFFEntry
        let size = [E.long(256, 64), E.long(257, 48)]
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size)), .tiff)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size + [.bytes(50706, [1, 4, 0, 0])])), .raw, "DNG")
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size, afterHeader: Array("CR".utf8) + [2, 0, 0, 0, 0, 0])), .raw, "CR2")
        let nef = size + [.ascii(271, "NIKON CORPORATION"), .long(330, 1000)]
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: nef)), .raw, "NEF")
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size + [.ascii(271, "SONY"), .long(330, 1000)])), .raw, "ARW")
        // A Nikon scanner's or camera's plain TIFF names the maker but has no raw directories.
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size + [.ascii(271, "NIKON CORPORATION")])), .tiff)
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size + [.ascii(271, "Canon"), .long(330, 1000)])), .tiff,
                       "a pyramid TIFF with sub-directories from a Canon-named scan")
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size, magic: 0x4F52)), .raw, "ORF (IIRO)")
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size, magic: 0x5352)), .raw, "ORF (IIRS)")
        XCTAssertEqual(ImageFormat.sniff(TestHeaders.tiff(entries: size, magic: 0x55)), .raw, "RW2")
        XCTAssertEqual(ImageFormat.sniff(Data("FUJIFILMCCD-RAW 0201FF383501".utf8)), .raw, "RAF")
    }

    func testDisplayNames() {
        XCTAssertEqual(ImageFormat.jxl.displayName, "JPEG XL")
        XCTAssertEqual(ImageFormat.heif.displayName, "HEIF")
        XCTAssertEqual(ImageFormat.raw.displayName, "RAW")
    }

    private func gzip(_ data: Data) throws -> Data {
        try ChildProcess.run("/bin/gzip", ["-c"], input: data).output
    }
}
