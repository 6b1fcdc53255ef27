import CGIF
import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// GIF through giflib, on files written with giflib's own encoder.
final class GIFDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private let loader = ImageLoader(decoders: [GIFDecoder()])

    typealias Frame = GIFFixtures.Frame

    /// The palette: the quadrants' colours, then black.
    private static let palette = Tools.upright + [RGBA(r: 0, g: 0, b: 0)]

    private static func quadrantIndices(width: Int = 64, height: Int = 48) -> [UInt8] {
        (0..<(width * height)).map { p in UInt8((p / width < height / 2 ? 0 : 2) + (p % width < width / 2 ? 0 : 1)) }
    }

    /// A GIF written by giflib over the quadrants' palette (see `GIFFixtures`).
    static func gif(screenWidth: Int = 64, screenHeight: Int = 48, repeats: Int? = nil, frames: [Frame]) -> Data {
        GIFFixtures.gif(screenWidth: screenWidth, screenHeight: screenHeight, palette: palette, repeats: repeats, frames: frames)
    }

    func testFirstFrameIsTheQuadrants() throws {
        for interlaced in [false, true] {
            let data = Self.gif(frames: [Frame(width: 64, height: 48, indices: Self.quadrantIndices(), interlaced: interlaced),
                                         Frame(width: 64, height: 48, indices: Array(repeating: 4, count: 64 * 48))])
            let image = try loader.load(data: data, name: "q.gif", fitting: nil)
            XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
            Tools.assertQuadrants(image, tolerance: 0, interlaced ? "interlaced GIF" : "GIF")
            // Rows one apart land in the right place, which a wrong pass order would swap.
            XCTAssertEqual(image.pixel(x: 10, y: 23), Tools.topLeft)
            XCTAssertEqual(image.pixel(x: 10, y: 24), Tools.bottomLeft)
        }
    }

    func testTransparentColourAndAFrameSmallerThanTheScreen() throws {
        var indices = Self.quadrantIndices(width: 32, height: 24)
        for i in indices.indices where indices[i] == 3 { indices[i] = 4 }  // bottom-right becomes the transparent index
        let data = Self.gif(frames: [Frame(left: 16, top: 12, width: 32, height: 24, indices: indices, transparentIndex: 4)])
        let image = try loader.load(data: data, name: "t.gif", fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
        XCTAssertEqual(image.pixel(x: 20, y: 14), Tools.topLeft, "the frame sits at its offset")
        XCTAssertEqual(image.pixel(x: 2, y: 2).a, 0, "the screen outside the frame is transparent")
        XCTAssertEqual(image.pixel(x: 40, y: 30).a, 0, "the transparent colour is see-through")
        XCTAssertEqual(image.pixel(x: 20, y: 30), Tools.bottomLeft)
    }

    /// A frame that reaches past the screen is cut to it rather than allocated whole.
    func testFrameBeyondTheScreenIsClipped() throws {
        let data = Self.gif(screenWidth: 16, screenHeight: 12, frames: [Frame(left: 8, top: 6, width: 64, height: 48, indices: Self.quadrantIndices())])
        let image = try loader.load(data: data, name: "c.gif", fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 16, height: 12))
        XCTAssertEqual(image.pixel(x: 12, y: 9), Tools.topLeft)
        XCTAssertEqual(image.pixel(x: 2, y: 2).a, 0)
    }

    func testTruncatedAndHugeFiles() {
        let data = Self.gif(frames: [Frame(width: 64, height: 48, indices: Self.quadrantIndices())])
        XCTAssertThrowsError(try loader.load(data: data.prefix(data.count / 2), name: "cut.gif", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .truncated, "\(error)")
        }
        let recorder = RecordingDecoder(formats: [.gif], .forward(GIFDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: TestHeaders.gif(width: 60000, height: 60000),
                                                                      name: "bomb.gif", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }
}
