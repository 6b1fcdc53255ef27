import TesseraCore
import XCTest
@testable import TesseraImaging

/// The histogram counts each channel and luminance of the pixels shown, and the clipped ones; the mask
/// marks them where they are.
final class HistogramTests: XCTestCase {
    private func set(_ pixels: inout PixelBuffer, x: Int, y: Int, _ colour: RGBA) {
        let i = (y * pixels.width + x) * 4
        pixels.bytes.replaceSubrange(i..<(i + 4), with: [colour.b, colour.g, colour.r, colour.a])
    }

    /// 16 x 16: the top half white, then a quarter black, then a quarter of one colour; one transparent
    /// pixel in the colour's rows.
    private func picture() -> PixelBuffer {
        var pixels = PixelBuffer(width: 16, height: 16, filledWith: RGBA(r: 255, g: 255, b: 255))
        for y in 8..<12 { for x in 0..<16 { set(&pixels, x: x, y: y, RGBA(r: 0, g: 0, b: 0)) } }
        for y in 12..<16 { for x in 0..<16 { set(&pixels, x: x, y: y, RGBA(r: 100, g: 150, b: 200)) } }
        set(&pixels, x: 0, y: 15, RGBA(r: 100, g: 150, b: 200, a: 0))
        return pixels
    }

    func testEachChannelAndLuminanceAreCounted() {
        let histogram = Histogram(picture())
        XCTAssertEqual(histogram.pixelCount, 255, "the transparent pixel is not counted")
        XCTAssertEqual(histogram.red[255], 128)
        XCTAssertEqual(histogram.red[0], 64)
        XCTAssertEqual(histogram.red[100], 63)
        XCTAssertEqual(histogram.green[150], 63)
        XCTAssertEqual(histogram.blue[200], 63)
        XCTAssertEqual(histogram.luminance[255], 128)
        XCTAssertEqual(histogram.luminance[0], 64)
        XCTAssertEqual(histogram.luminance[143], 63, "BT.709's weights: 0.2126 x 100 + 0.7152 x 150 + 0.0722 x 200")
        XCTAssertEqual(histogram.red.reduce(0, +), 255)
        XCTAssertEqual(histogram.clippedHighlights, 128)
        XCTAssertEqual(histogram.crushedShadows, 64)
        XCTAssertEqual(histogram.clippedShares.highlights, 128.0 / 255, accuracy: 1e-9)
    }

    func testOneChannelAt255IsAClippedHighlight() {
        let histogram = Histogram(PixelBuffer(width: 4, height: 4, filledWith: RGBA(r: 255, g: 90, b: 10)))
        XCTAssertEqual(histogram.clippedHighlights, 16)
        XCTAssertEqual(histogram.crushedShadows, 0)
    }

    func testTheMaskMarksClippedHighlightsRedAndCrushedShadowsBlue() {
        let mask = Histogram.clippingMask(of: picture())
        XCTAssertEqual(mask.size, PixelSize(width: 16, height: 16))
        let highlight = mask.pixel(x: 3, y: 3), shadow = mask.pixel(x: 3, y: 9), plain = mask.pixel(x: 3, y: 13)
        XCTAssertEqual(highlight.a, 255)
        XCTAssertGreaterThan(Int(highlight.r), Int(highlight.b) + 100, "red")
        XCTAssertEqual(shadow.a, 255)
        XCTAssertGreaterThan(Int(shadow.b), Int(shadow.r) + 100, "blue")
        XCTAssertEqual(plain.a, 0, "pixels with detail are left clear")
    }

    /// The drawing is as tall as the highest bin between the ends: the white spike does not flatten the
    /// colour's bars, which reach the top.
    func testThePictureIsScaledToTheBinsBetweenTheEnds() {
        let drawn = Histogram(picture()).picture(width: 256, height: 50)
        XCTAssertGreaterThan(drawn.pixel(x: 100, y: 1).a, 0, "red's bar at 100 reaches the top")
        XCTAssertEqual(drawn.pixel(x: 60, y: 49).a, 0, "no pixel has 60 in any channel or luminance")
    }
}
