import CGIF
import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging

/// Each format's frames, composited, with their delays and loop counts, from files the tests write.
final class AnimationReaderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private typealias Frame = GIFDecoderTests.Frame
    private let c0 = Tools.topLeft, c1 = Tools.topRight, c2 = Tools.bottomLeft, c3 = Tools.bottomRight

    private func frames(_ reader: any AnimationReading) throws -> [(pixels: PixelBuffer, delay: Duration)] {
        var all: [(pixels: PixelBuffer, delay: Duration)] = []
        while let frame = try reader.nextFrame() { all.append(frame) }
        return all
    }

    private func filled(_ index: UInt8, width: Int = 64, height: Int = 48) -> [UInt8] {
        Array(repeating: index, count: width * height)
    }

    func testGIFFramesDelaysAndLoopCount() throws {
        let data = GIFDecoderTests.gif(repeats: 3, frames: [
            Frame(width: 64, height: 48, indices: filled(0), delay: 20),
            Frame(width: 64, height: 48, indices: filled(1), delay: 0),
            Frame(width: 64, height: 48, indices: filled(2), delay: 5),
        ])
        XCTAssertTrue(AnimatedImage.isAnimated(data))
        let reader = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
        let read = try frames(reader)
        XCTAssertEqual(read.map(\.delay), [.milliseconds(200), .zero, .milliseconds(50)])
        XCTAssertEqual(read.map { $0.pixels.pixel(x: 5, y: 5) }, [c0, c1, c2])
        XCTAssertEqual(reader.plays, 4, "three repeats after the first play")
        XCTAssertEqual(reader.canvasSize, PixelSize(width: 64, height: 48))
    }

    func testAGIFWithoutLoopExtensionPlaysOnceAndAStillIsNoAnimation() throws {
        let one = GIFDecoderTests.gif(frames: [Frame(width: 64, height: 48, indices: filled(0))])
        XCTAssertFalse(AnimatedImage.isAnimated(one))
        let two = GIFDecoderTests.gif(frames: [Frame(width: 64, height: 48, indices: filled(0)),
                                               Frame(width: 64, height: 48, indices: filled(1))])
        let reader = try AnimatedImage.reader(for: two, pixelLimit: 100_000_000)
        XCTAssertEqual(try frames(reader).count, 2)
        XCTAssertEqual(reader.plays, 1)
        let forever = GIFDecoderTests.gif(repeats: 0, frames: [Frame(width: 64, height: 48, indices: filled(0)),
                                                               Frame(width: 64, height: 48, indices: filled(1))])
        let foreverReader = try AnimatedImage.reader(for: forever, pixelLimit: 100_000_000)
        _ = try foreverReader.nextFrame()
        XCTAssertEqual(foreverReader.plays, 0)
    }

    /// Disposal: "background" clears the frame's area to transparent, "previous" restores what was under
    /// it, "none" leaves it; a transparent colour lets the canvas show through.
    func testGIFDisposalAndTransparency() throws {
        var holed = filled(3, width: 8, height: 8)
        for i in 0..<32 { holed[i] = 4 }  // the top half is the transparent index
        let data = GIFDecoderTests.gif(frames: [
            Frame(width: 64, height: 48, indices: filled(0), disposal: DISPOSE_DO_NOT),
            Frame(left: 0, top: 0, width: 8, height: 8, indices: filled(1, width: 8, height: 8), disposal: DISPOSE_BACKGROUND),
            Frame(left: 32, top: 24, width: 8, height: 8, indices: filled(2, width: 8, height: 8), disposal: DISPOSE_PREVIOUS),
            Frame(left: 16, top: 16, width: 8, height: 8, indices: holed, transparentIndex: 4),
        ])
        let read = try frames(AnimatedImage.reader(for: data, pixelLimit: 100_000_000)).map(\.pixels)
        XCTAssertEqual(read.count, 4)
        XCTAssertEqual(read[1].pixel(x: 2, y: 2), c1)
        XCTAssertEqual(read[1].pixel(x: 20, y: 20), c0, "the rest of the canvas stays")
        XCTAssertEqual(read[2].pixel(x: 2, y: 2).a, 0, "frame 1's area cleared (background disposal)")
        XCTAssertEqual(read[2].pixel(x: 34, y: 26), c2)
        XCTAssertEqual(read[3].pixel(x: 34, y: 26), c0, "what was under frame 2 is back (previous disposal)")
        XCTAssertEqual(read[3].pixel(x: 2, y: 2).a, 0, "still cleared")
        XCTAssertEqual(read[3].pixel(x: 18, y: 17), c0, "the transparent half shows the canvas")
        XCTAssertEqual(read[3].pixel(x: 18, y: 22), c3)
    }

    /// img2webp writes the frames (it may store only what changes, blended or not); libwebp's animation
    /// decoder must put each whole frame back, with its duration and the loop count.
    func testWebPFramesDelaysAndLoopCount() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anim-webp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var base = PixelBuffer(width: 32, height: 24, filledWith: c0)
        try PNGEncoder.write(base, to: folder.appendingPathComponent("0.png").path)
        // Frame 1 changes a corner only; frame 2 is transparent where frame 1 was opaque.
        for y in 0..<8 { for x in 0..<8 { let i = (y * 32 + x) * 4; base.bytes[i] = c1.b; base.bytes[i + 1] = c1.g; base.bytes[i + 2] = c1.r } }
        try PNGEncoder.write(base, to: folder.appendingPathComponent("1.png").path)
        var clear = PixelBuffer(width: 32, height: 24, filledWith: c2)
        for i in stride(from: 0, to: clear.bytes.count, by: 4) where (i / 4) % 32 >= 16 { clear.bytes[i + 3] = 0 }
        try PNGEncoder.write(clear, to: folder.appendingPathComponent("2.png").path)
        let output = folder.appendingPathComponent("a.webp").path
        try Tools.run("img2webp", ["-loop", "2", "-d", "80", folder.appendingPathComponent("0.png").path,
                                   "-d", "10", folder.appendingPathComponent("1.png").path,
                                   "-d", "300", folder.appendingPathComponent("2.png").path, "-o", output], package: "webp")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertTrue(AnimatedImage.isAnimated(data))
        let reader = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
        let read = try frames(reader)
        XCTAssertEqual(reader.plays, 2)
        XCTAssertEqual(read.map(\.delay), [.milliseconds(80), .milliseconds(10), .milliseconds(300)])
        XCTAssertEqual(read[0].pixels.pixel(x: 20, y: 20), c0)
        XCTAssertEqual(read[1].pixels.pixel(x: 2, y: 2), c1)
        XCTAssertEqual(read[1].pixels.pixel(x: 20, y: 20), c0)
        XCTAssertEqual(read[2].pixels.pixel(x: 2, y: 2), c2)
        XCTAssertEqual(read[2].pixels.pixel(x: 20, y: 20).a, 0, "transparent, not frame 1 showing through")

        let still = folder.appendingPathComponent("s.webp").path
        try Tools.run("cwebp", ["-quiet", folder.appendingPathComponent("0.png").path, "-o", still], package: "webp")
        XCTAssertFalse(AnimatedImage.isAnimated(try Data(contentsOf: URL(fileURLWithPath: still))))

        // Decoded as a still (a cell, a thumbnail): the first frame, shrunk to the box when one is given.
        let decoded = try WebPDecoder().decode(data, format: .webp, targetSize: nil)
        XCTAssertEqual(decoded.size, PixelSize(width: 32, height: 24))
        XCTAssertEqual(decoded.bytes, read[0].pixels.bytes)
        let small = try WebPDecoder().decode(data, format: .webp, targetSize: PixelSize(width: 16, height: 16))
        XCTAssertEqual(small.size, PixelSize(width: 16, height: 12))
        XCTAssertEqual(small.pixel(x: 10, y: 6), c0)
    }

    func testAHugeCanvasIsRefusedFromItsHeader() {
        XCTAssertThrowsError(try AnimatedImage.reader(for: TestHeaders.gif(width: 60000, height: 60000), pixelLimit: 100_000_000)) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000))
        }
    }
}
