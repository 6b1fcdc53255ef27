import CGIF
import Foundation
import TesseraCore
import TesseraImaging
import XCTest

/// GIF through giflib, on files written with giflib's own encoder.
final class GIFDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private let loader = ImageLoader(decoders: [GIFDecoder()])

    /// A frame to write: its place on the screen, colour indices row by row, and options.
    struct Frame {
        var left = 0, top = 0, width: Int, height: Int
        var indices: [UInt8]
        var interlaced = false
        var transparentIndex: Int32 = NO_TRANSPARENT_COLOR
        /// Centiseconds; with `disposal`, written in a graphic control extension when either is set.
        var delay: Int? = nil
        var disposal: Int32? = nil
    }

    /// The palette: the quadrants' colours, then black.
    private static let palette = Tools.upright + [RGBA(r: 0, g: 0, b: 0)]

    private static func quadrantIndices(width: Int = 64, height: Int = 48) -> [UInt8] {
        (0..<(width * height)).map { p in UInt8((p / width < height / 2 ? 0 : 2) + (p % width < width / 2 ? 0 : 1)) }
    }

    /// A GIF written by giflib: an 8-colour global table, a NETSCAPE2.0 loop extension when `repeats` is
    /// given, then `frames`.
    static func gif(screenWidth: Int = 64, screenHeight: Int = 48, repeats: Int? = nil, frames: [Frame]) -> Data {
        final class Sink { var data = Data() }
        let sink = Sink()
        var error: Int32 = 0
        let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), { gif, bytes, count in
            let sink = Unmanaged<Sink>.fromOpaque(gif!.pointee.UserData).takeUnretainedValue()
            sink.data.append(bytes!, count: Int(count))
            return count
        }, &error)!
        var colours = (palette + Array(repeating: RGBA(r: 0, g: 0, b: 0), count: 8 - palette.count))
            .map { GifColorType(Red: $0.r, Green: $0.g, Blue: $0.b) }
        let map = GifMakeMapObject(8, &colours)
        defer { GifFreeMapObject(map) }
        EGifSetGifVersion(gif, true)
        precondition(EGifPutScreenDesc(gif, Int32(screenWidth), Int32(screenHeight), 3, 0, map) == GIF_OK)
        if let repeats {
            precondition(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK)
            precondition(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)) == GIF_OK)
            precondition(EGifPutExtensionBlock(gif, 3, [1, UInt8(repeats & 0xFF), UInt8(repeats >> 8)]) == GIF_OK)
            precondition(EGifPutExtensionTrailer(gif) == GIF_OK)
        }
        for frame in frames {
            if frame.transparentIndex != NO_TRANSPARENT_COLOR || frame.delay != nil || frame.disposal != nil {
                var control = GraphicsControlBlock(DisposalMode: frame.disposal ?? DISPOSE_DO_NOT, UserInputFlag: false,
                                                   DelayTime: Int32(frame.delay ?? 10),
                                                   TransparentColor: frame.transparentIndex)
                var controlBytes = [GifByteType](repeating: 0, count: 4)
                _ = EGifGCBToExtension(&control, &controlBytes)
                precondition(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, controlBytes) == GIF_OK)
            }
            precondition(EGifPutImageDesc(gif, Int32(frame.left), Int32(frame.top), Int32(frame.width), Int32(frame.height),
                                          frame.interlaced, nil) == GIF_OK)
            // giflib takes the rows in file order: for an interlaced frame, the passes one after another.
            let order = frame.interlaced
                ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { stride(from: $0.0, to: frame.height, by: $0.1) }
                : Array(0..<frame.height)
            for row in order {
                var line = Array(frame.indices[(row * frame.width)..<((row + 1) * frame.width)])
                precondition(EGifPutLine(gif, &line, Int32(frame.width)) == GIF_OK)
            }
        }
        precondition(EGifCloseFile(gif, &error) == GIF_OK)
        return sink.data
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
