import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging

/// An animated JPEG XL made by cjxl from a GIF: libjxl's composited frames, their durations in ticks
/// turned into time.
final class JXLAnimationTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private typealias Frame = GIFDecoderTests.Frame

    func testFramesDelaysAndLoopCountFromCJXL() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anim-jxl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("a.gif"), jxl = folder.appendingPathComponent("a.jxl")
        // The second frame covers only the top-left corner: libjxl must put it over the first.
        try GIFDecoderTests.gif(repeats: 2, frames: [
            Frame(width: 64, height: 48, indices: Array(repeating: 0, count: 64 * 48), delay: 20),
            Frame(width: 16, height: 16, indices: Array(repeating: 1, count: 256), delay: 50),
            Frame(width: 64, height: 48, indices: Array(repeating: 2, count: 64 * 48), delay: 30),
        ]).write(to: gif)
        try Tools.run("cjxl", [gif.path, jxl.path, "-d", "0", "--quiet"], package: "libjxl-tools")
        let data = try Data(contentsOf: jxl)
        XCTAssertTrue(AnimatedImage.isAnimated(data))
        let reader = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
        var read: [(pixels: PixelBuffer, delay: Duration)] = []
        while let frame = try reader.nextFrame() { read.append(frame) }
        XCTAssertEqual(read.map(\.delay), [.milliseconds(200), .milliseconds(500), .milliseconds(300)])
        // cjxl 0.7 writes no loop count (from a GIF or an APNG alike; jxlinfo says "looping"): forever.
        XCTAssertEqual(reader.plays, 0)
        XCTAssertEqual(read.first?.pixels.size, PixelSize(width: 64, height: 48))
        XCTAssertTrue(read[0].pixels.pixel(x: 30, y: 30).isClose(to: Tools.topLeft, tolerance: 2))
        XCTAssertTrue(read[1].pixels.pixel(x: 4, y: 4).isClose(to: Tools.topRight, tolerance: 2))
        XCTAssertTrue(read[1].pixels.pixel(x: 30, y: 30).isClose(to: Tools.topLeft, tolerance: 2), "composited over the first")
        XCTAssertTrue(read[2].pixels.pixel(x: 4, y: 4).isClose(to: Tools.bottomLeft, tolerance: 2))

        // A still is not an animation.
        let still = folder.appendingPathComponent("s.jxl")
        try Tools.writeQuadrantsPNG(to: folder.appendingPathComponent("s.png").path)
        try Tools.run("cjxl", [folder.appendingPathComponent("s.png").path, still.path, "--quiet"], package: "libjxl-tools")
        XCTAssertFalse(AnimatedImage.isAnimated(try Data(contentsOf: still)))
    }
}
