import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// The Swift header readers the viewer uses for its decode-memory estimate when decodes run in helpers
/// (`ImageHeader.Readers.memorySafe`) against the libraries they stand in for: TurboJPEG, libheif and
/// libjxl give the same sizes on the same files, and broken bytes read as nothing, never as a crash.
final class MemorySafeHeaderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private var directory: TemporaryDirectory!

    override func setUpWithError() throws { directory = try TemporaryDirectory() }
    override func tearDown() { directory = nil }

    private func safe(_ data: Data, isWholeFile: Bool = true) -> ImageHeader? {
        ImageHeader.read(data, isWholeFile: isWholeFile, readers: .memorySafe)
    }

    func testJPEGFrameSizeIsTurboJPEGs() throws {
        let names = ["img1-baseline.jpg", "img2-portrait.jpg", "img3-progressive.jpg", "img10-panorama.jpg",
                     "img12-gray.jpg", "img22-uhd.jpg", "img25-small.jpg"]
        for name in names {
            let data = try Data(contentsOf: SampleImages.url(name))
            let library = try XCTUnwrap(ImageHeader.read(data), name)
            XCTAssertEqual(safe(data), library, name)
            // EXIF and ICC segments in front of the frame header are walked over, as TurboJPEG does.
            let padded = TestExif.jpeg(data, inserting: TestExif.app1(orientation: 6) + [0xFF, 0xE2, 0xFF, 0xFF]
                                       + [UInt8](repeating: 7, count: 0xFFFD))
            XCTAssertEqual(safe(padded), ImageHeader.read(padded), name)
            XCTAssertEqual(safe(padded), library, name)
        }
    }

    func testHEIFAndAVIFDeclaredSizeIsLibheifs() throws {
        for (name, width, height, arguments) in [("a.heic", 64, 48, ["-p", "chroma=444"]), ("b.avif", 64, 48, ["-A", "-p", "chroma=444"]),
                                                 ("c.heic", 640, 480, []), ("d.avif", 320, 640, ["-A"])] {
            let source = directory.path("source-\(name).png")
            try Tools.writeQuadrantsPNG(to: source, width: width, height: height)
            let output = directory.path(name)
            try Tools.run("heif-enc", ["-q", "60"] + arguments + [source, "-o", output], package: "libheif-examples")
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let library = try XCTUnwrap(ImageHeader.read(data), name)
            XCTAssertEqual(library.size, PixelSize(width: width, height: height), name)
            XCTAssertEqual(safe(data), library, name)
            // The boxes come before the pictures: a prefix holding them is enough.
            XCTAssertEqual(safe(data.prefix(4096), isWholeFile: false), library, name)
        }
    }

    /// A meta box made by hand: the primary item's `ispe` turned by its `irot`, whatever order the
    /// properties are listed in, and a `clap` left out (the estimate errs high).
    func testRotationTurnsTheDeclaredSize() throws {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array(type.utf8) + payload
        }
        func u32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func file(angle: UInt8?) -> Data {
            var properties = [box("clap", [UInt8](repeating: 1, count: 32)), box("ispe", [0, 0, 0, 0] + u32(300) + u32(200))]
            if let angle { properties.append(box("irot", [angle])) }
            let indices = (1...properties.count).map { UInt8($0) }
            // Item 2 is not the primary one and has no properties; item 1 has them all.
            let ipma = box("ipma", [0, 0, 0, 0] + u32(2) + [0, 2, 0] + [0, 1, UInt8(indices.count)] + indices)
            let meta = box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 24)) + box("pitm", [0, 0, 0, 0, 0, 1])
                           + box("iprp", box("ipco", properties.flatMap { $0 }) + ipma))
            return Data(box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta)
        }
        XCTAssertEqual(safe(file(angle: nil))?.size, PixelSize(width: 300, height: 200))
        XCTAssertEqual(safe(file(angle: 1))?.size, PixelSize(width: 200, height: 300))
        XCTAssertEqual(safe(file(angle: 2))?.size, PixelSize(width: 300, height: 200))
        XCTAssertEqual(safe(file(angle: 3))?.size, PixelSize(width: 200, height: 300))
        // Cut anywhere inside the boxes: nothing, never a wrong size.
        let whole = file(angle: 1)
        for length in 0..<whole.count {
            let got = safe(whole.prefix(length), isWholeFile: false)
            XCTAssertTrue(got == nil || got?.size == PixelSize(width: 200, height: 300), "cut at \(length): \(String(describing: got))")
        }
    }

    func testJXLSizeHeaderIsLibjxls() throws {
        for (name, width, height, arguments) in [("a.jxl", 64, 48, ["-d", "0"]), ("b.jxl", 333, 97, ["-d", "1"]),
                                                 ("c.jxl", 256, 256, ["-d", "1", "--container=1"]), ("d.jxl", 90, 160, ["-d", "2"])] {
            let source = directory.path("source-\(name).png")
            try Tools.writeQuadrantsPNG(to: source, width: width, height: height)
            let output = directory.path(name)
            try Tools.run("cjxl", [source, output] + arguments, package: "libjxl-tools")
            let data = try Data(contentsOf: URL(fileURLWithPath: output))
            let library = try XCTUnwrap(ImageHeader.read(data), name)
            XCTAssertEqual(library.size, PixelSize(width: width, height: height), name)
            XCTAssertEqual(safe(data), library, name)
        }
    }

    /// Codestream headers written bit by bit: small and large sizes, each aspect ratio, each orientation,
    /// read as libjxl reads them.
    func testEveryWayOfCodingTheSizeReadsAsLibjxlReadsIt() throws {
        var checked = 0
        for small in [true, false] {
            for ratio in 0...7 {
                for orientation in 1...8 {
                    let height = small ? 72 : 1234, width = small ? 40 : 4321
                    var bits: [Bool] = []
                    func put(_ value: Int, _ count: Int) { for i in 0..<count { bits.append(value >> i & 1 == 1) } }
                    put(small ? 1 : 0, 1)
                    if small { put(height / 8 - 1, 5) } else { put(1, 2); put(height - 1, 13) }
                    put(ratio, 3)
                    if ratio == 0 { if small { put(width / 8 - 1, 5) } else { put(1, 2); put(width - 1, 13) } }
                    // ImageMetadata: not all default, extra fields, the orientation; no intrinsic size, preview
                    // or animation; 8-bit integer samples, 16-bit buffers suffice, no extra channels, XYB;
                    // default colour encoding and tone mapping, no extensions; default transform data.
                    put(0, 1); put(1, 1); put(orientation - 1, 3)
                    put(0, 1); put(0, 1); put(0, 1); put(0, 1); put(0, 2); put(1, 1); put(0, 2); put(1, 1)
                    put(1, 1); put(1, 1); put(0, 2); put(1, 1)
                    var bytes: [UInt8] = [0xFF, 0x0A]
                    for start in stride(from: 0, to: bits.count, by: 8) {
                        bytes.append(bits[start..<min(start + 8, bits.count)].enumerated().reduce(0) { $0 | ($1.element ? 1 << $1.offset : 0) })
                    }
                    let data = Data(bytes + [UInt8](repeating: 0, count: 64))
                    guard let library = ImageHeader.read(data) else { continue }
                    XCTAssertEqual(safe(data), library, "small \(small), ratio \(ratio), orientation \(orientation)")
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 64, "libjxl read most of the headers")
    }

    /// Cut short or with bytes changed, a file reads as nothing or a size; the readers never trap.
    func testBrokenBytesNeverTrap() throws {
        var files = [try Data(contentsOf: SampleImages.url("img1-baseline.jpg"))]
        for (name, tool, arguments) in [("x.heic", "heif-enc", ["-q", "50"]), ("x.avif", "heif-enc", ["-A", "-q", "50"]),
                                        ("x.jxl", "cjxl", ["-d", "1", "--container=1"])] {
            let source = directory.path("source-\(name).png")
            try Tools.writeQuadrantsPNG(to: source, width: 96, height: 64)
            let output = directory.path(name)
            try Tools.run(tool, tool == "cjxl" ? [source, output] + arguments : arguments + [source, "-o", output],
                          package: tool == "cjxl" ? "libjxl-tools" : "libheif-examples")
            files.append(try Data(contentsOf: URL(fileURLWithPath: output)))
        }
        var generator = SystemRandomNumberGenerator()
        for data in files {
            for length in stride(from: 0, to: min(data.count, 2048), by: 3) { _ = safe(data.prefix(length), isWholeFile: false) }
            for _ in 0..<300 {
                var bytes = [UInt8](data.prefix(2048))
                for _ in 0..<4 { bytes[Int.random(in: 12..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
                _ = safe(Data(bytes))
            }
        }
    }

    func testSVGAndRawAreLeftToTheirLibraries() throws {
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>"#.utf8)
        XCTAssertNotNil(ImageHeader.read(svg))
        XCTAssertNil(safe(svg))
        // The formats read in Swift anyway read the same either way.
        for name in ["img5-alpha.png", "img8-lossy.webp", "img15.gif", "img16.bmp"] {
            let data = try Data(contentsOf: SampleImages.url(name))
            XCTAssertEqual(safe(data), ImageHeader.read(data), name)
        }
    }
}
