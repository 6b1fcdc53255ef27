import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging

/// An AVIF image sequence made by avifenc from PNG frames: libavif's frames and durations. libheif
/// (the still decoder) shows the first.
final class AVIFAnimationTests: XCTestCase {
    private typealias Tools = FormatFixtureTools

    func testSequenceFramesAndDurations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("anim-avif-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let colours = [Tools.topLeft, Tools.topRight, Tools.bottomLeft]
        var arguments = ["--timescale", "1000", "--lossless"]
        for (index, (colour, duration)) in zip(colours, [200, 500, 300]).enumerated() {
            let path = folder.appendingPathComponent("\(index).png").path
            try PNGEncoder.write(PixelBuffer(width: 32, height: 24, filledWith: colour), to: path)
            arguments += ["--duration", "\(duration)", path]
        }
        let output = folder.appendingPathComponent("a.avif").path
        try Tools.run("avifenc", arguments + [output], package: "libavif-bin")
        let data = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertEqual(ImageFormat.sniff(data), .avif)
        XCTAssertTrue(AnimatedImage.isAnimated(data))
        XCTAssertTrue(AnimatedImage.isAnimated(fileAt: output))
        let reader = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
        var read: [(pixels: PixelBuffer, delay: Duration)] = []
        while let frame = try reader.nextFrame() { read.append(frame) }
        XCTAssertEqual(read.map(\.delay), [.milliseconds(200), .milliseconds(500), .milliseconds(300)])
        XCTAssertEqual(reader.plays, 0, "libavif 0.11 reads no repetition count")
        for (frame, colour) in zip(read, colours) {
            XCTAssertEqual(frame.pixels.size, PixelSize(width: 32, height: 24))
            XCTAssertTrue(frame.pixels.pixel(x: 10, y: 10).isClose(to: colour, tolerance: 3), "\(frame.pixels.pixel(x: 10, y: 10))")
        }
        // A cut sequence: the reader refuses it whole or plays the frames before the cut.
        if let cut = try? AnimatedImage.reader(for: data.prefix(data.count - 40), pixelLimit: 100_000_000) {
            var count = 0
            while (try? cut.nextFrame()) ?? nil != nil { count += 1 }
            XCTAssertLessThan(count, 3)
        }

        let still = folder.appendingPathComponent("s.avif").path
        try Tools.run("avifenc", ["--lossless", folder.appendingPathComponent("0.png").path, still], package: "libavif-bin")
        XCTAssertFalse(AnimatedImage.isAnimated(try Data(contentsOf: URL(fileURLWithPath: still))))
        XCTAssertThrowsError(try AnimatedImage.reader(for: data, pixelLimit: 100)) {
            XCTAssertEqual($0 as? ImageLoadError.Reason, .tooLarge(width: 32, height: 24, limit: 100))
        }
    }
}
