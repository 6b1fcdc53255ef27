import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// SVG through librsvg: drawn at the size it is shown, its own size read from width and height or the
/// viewBox, gzip-compressed files too.
final class SVGDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private let loader = ImageLoader(decoders: [SVGDecoder()])

    /// The quadrants as four rectangles in a `width` x `height` user space; `size` is the root's
    /// attributes (width, height, viewBox).
    private func quadrants(_ size: String = "width=\"64\" height=\"48\"", width: Int = 64, height: Int = 48,
                           opacity: Double = 1) -> Data {
        func rect(_ x: Int, _ y: Int, _ c: RGBA) -> String {
            "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width / 2)\" height=\"\(height / 2)\" fill=\"rgb(\(c.r),\(c.g),\(c.b))\" fill-opacity=\"\(opacity)\"/>"
        }
        let body = rect(0, 0, Tools.topLeft) + rect(width / 2, 0, Tools.topRight)
            + rect(0, height / 2, Tools.bottomLeft) + rect(width / 2, height / 2, Tools.bottomRight)
        return Data("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" \(size)>\(body)</svg>\n".utf8)
    }

    func testDrawnAtItsOwnSizeWithoutATarget() throws {
        let data = quadrants()
        XCTAssertEqual(ImageHeader.read(data)?.size, PixelSize(width: 64, height: 48))
        let image = try loader.load(data: data, name: "q.svg", fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
        Tools.assertQuadrants(image, tolerance: 0, "SVG")
    }

    /// A cell gets the document drawn at the cell's size, not a full-size picture scaled down.
    func testDrawnAtTheTargetSize() throws {
        let recorder = RecordingDecoder(formats: [.svg], .forward(SVGDecoder()))
        let image = try ImageLoader(decoders: [recorder]).load(data: quadrants(), name: "q.svg", fitting: PixelSize(width: 32, height: 32))
        XCTAssertEqual(image.size, PixelSize(width: 32, height: 24))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 32, height: 24), "rendered at the target")
        Tools.assertQuadrants(image, tolerance: 0, "SVG at 32x24")
    }

    /// Asked directly for more than its own size (as a magnified zoom level would), it draws that many
    /// pixels rather than scaling up a smaller picture.
    func testDrawnSharpAboveItsOwnSize() throws {
        let image = try SVGDecoder().decode(quadrants(), format: .svg, targetSize: PixelSize(width: 256, height: 256))
        XCTAssertEqual(image.size, PixelSize(width: 256, height: 192))
        XCTAssertEqual(image.pixel(x: 127, y: 10), Tools.topLeft, "a hard edge: drawn, not interpolated")
        XCTAssertEqual(image.pixel(x: 128, y: 10), Tools.topRight)
    }

    func testSizeFromViewBoxOrUnitsOrTheDefault() throws {
        XCTAssertEqual(ImageHeader.read(quadrants("viewBox=\"0 0 64 48\""))?.size, PixelSize(width: 64, height: 48))
        XCTAssertEqual(ImageHeader.read(quadrants("width=\"100%\" height=\"100%\" viewBox=\"0 0 64 48\""))?.size,
                       PixelSize(width: 64, height: 48))
        XCTAssertEqual(ImageHeader.read(quadrants("width=\"1in\" height=\"0.5in\""))?.size, PixelSize(width: 96, height: 48))
        XCTAssertEqual(ImageHeader.read(quadrants(""))?.size, PixelSize(width: 512, height: 512), "a document that states no size")
        let scaled = try loader.load(data: quadrants("width=\"128\" height=\"96\" viewBox=\"0 0 64 48\""), name: "v.svg", fitting: nil)
        XCTAssertEqual(scaled.size, PixelSize(width: 128, height: 96))
        Tools.assertQuadrants(scaled, tolerance: 0, "viewBox scaled to the stated size")
    }

    func testTranslucencyIsStraightAlphaOnTransparency() throws {
        let image = try loader.load(data: quadrants("width=\"64\" height=\"64\"", width: 64, height: 32, opacity: 0.5),
                                    name: "t.svg", fitting: nil)
        let top = image.pixel(x: 16, y: 8)
        XCTAssertTrue(top.isClose(to: RGBA(r: Tools.topLeft.r, g: Tools.topLeft.g, b: Tools.topLeft.b, a: 128), tolerance: 2), "\(top)")
        XCTAssertEqual(image.pixel(x: 16, y: 48).a, 0, "nothing drawn below the rectangles")
    }

    func testGzippedSVG() throws {
        let svgz = try ChildProcess.run("/bin/gzip", ["-c"], input: quadrants()).output
        XCTAssertEqual(ImageFormat.sniff(svgz), .svg)
        let image = try loader.load(data: svgz, name: "q.svgz", fitting: nil)
        Tools.assertQuadrants(image, tolerance: 0, "SVGZ")
    }

    func testTruncatedAndBrokenDocuments() {
        let data = quadrants()
        XCTAssertThrowsError(try loader.load(data: data.prefix(data.count - 40), name: "cut.svg", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
        // Its size cannot be read either, which the loader reports as it does for every format.
        let broken = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect x=5/></svg>".utf8)
        XCTAssertThrowsError(try loader.load(data: broken, name: "broken.svg", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
        XCTAssertThrowsError(try SVGDecoder().decode(broken, format: .svg, targetSize: nil)) { error in
            guard case .decodeFailed(let message)? = error as? ImageLoadError.Reason else { return XCTFail("\(error)") }
            XCTAssertFalse(message.isEmpty, "librsvg says what is wrong")
        }
    }

    /// A document that says it is 60000 x 60000 pixels is refused like any image that large, before drawing.
    func testHugeStatedSizeIsRefusedBeforeDrawing() {
        let recorder = RecordingDecoder(formats: [.svg], .forward(SVGDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: quadrants("width=\"60000\" height=\"60000\""),
                                                                      name: "bomb.svg", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }
}
