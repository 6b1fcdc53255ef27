import Foundation
import TesseraTestSupport
import XCTest
@testable import TesseraCore
@testable import TesseraImaging

/// Decodes asked to stop part way: PNG between batches of rows, WebP between slices of input, JPEG before
/// it starts. Counted, not timed: `DecodeCancellation(cancellingAtCheck:)` sets itself at a known check.
final class DecodeCancellationTests: XCTestCase {
    private func png(_ pixels: PixelBuffer) -> Data {
        pixels.bytes.withUnsafeBytes { bgra in
            try! PNGEncoder.encode(bgra.baseAddress!, stride: pixels.bytesPerRow, width: pixels.width, height: pixels.height,
                                   channels: .rgba) { Data($0) }
        }
    }

    /// Noise (so compressed files stay big and a decode has many slices) over a gradient, alpha varying.
    private func noise(_ w: Int, _ h: Int, alpha: Bool = false) -> PixelBuffer {
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        var seed: UInt32 = 12345
        for i in stride(from: 0, to: bytes.count, by: 4) {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            let x = (i / 4) % w, y = (i / 4) / w
            bytes[i] = UInt8(truncatingIfNeeded: x &+ Int(seed >> 24) / 4)
            bytes[i + 1] = UInt8(truncatingIfNeeded: y &+ Int(seed >> 16 & 0xFF) / 4)
            bytes[i + 2] = UInt8(truncatingIfNeeded: seed >> 8)
            bytes[i + 3] = alpha ? UInt8(truncatingIfNeeded: 96 + (x + y) % 160) : 255
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    private func assertCancelled(_ body: () throws -> PixelBuffer, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertTrue(error is DecodeCancelled, "\(error)", file: file, line: line)
        }
    }

    // MARK: - PNG

    func testACancelledPNGDecodeStopsAfterTheBatchItWasInAndItsFileDecodesAgain() throws {
        let source = noise(640, 960)
        let data = png(source)
        let box = PixelSize(width: 100, height: 150)
        for target in [box, nil] {
            let cancellation = DecodeCancellation(cancellingAtCheck: 4)
            assertCancelled { try PNGDecoder().decode(data, format: .png, targetSize: target, cancellation: cancellation) }
            // One look before the reader opens, then one per batch: stopped before its 3rd batch of rows.
            XCTAssertEqual(cancellation.checks, 4)
            let rowsRead = (cancellation.checks - 2) * PNGDecoder.batchRows
            XCTAssertLessThan(rowsRead * 10, source.height, "stopped within the first tenth")

            let whole = DecodeCancellation()
            let again = try PNGDecoder().decode(data, format: .png, targetSize: target, cancellation: whole)
            XCTAssertEqual(whole.checks, 1 + (source.height + PNGDecoder.batchRows - 1) / PNGDecoder.batchRows)
            XCTAssertEqual(again.bytes, try PNGDecoder().decode(data, format: .png, targetSize: target).bytes)
        }
    }

    func testTheLoaderReportsACancelledDecodeAsCancelled() throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write(png(noise(320, 480)), to: "big.png")
        let loader = ImageLoader(decoders: ImageDecoders.standard())
        let box = PixelSize(width: 64, height: 64)
        XCTAssertThrowsError(try loader.load(path: path, fitting: box, cancellation: DecodeCancellation(cancellingAtCheck: 3))) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .cancelled)
        }
        XCTAssertNil(ThumbnailingLoader.record(for: .cancelled), "a cancelled decode is not the file's fault")
        let cancelled = DecodeCancellation()
        cancelled.cancel()
        XCTAssertThrowsError(try ThumbnailingLoader(loader: loader, store: nil).load(path: path, fitting: box, cancellation: cancelled))
        let image = try loader.load(path: path, fitting: box, cancellation: DecodeCancellation())
        XCTAssertEqual(image.bytes, try loader.load(path: path, fitting: box).bytes)
    }

    func testJPEGLooksAtTheSignalBeforeItStarts() throws {
        let data = TestJPEG.solid(width: 64, height: 48, color: RGBA(r: 10, g: 20, b: 30))
        let cancelled = DecodeCancellation()
        cancelled.cancel()
        assertCancelled { try TurboJPEGDecoder().decode(data, format: .jpeg, targetSize: nil, cancellation: cancelled) }
        XCTAssertEqual(try TurboJPEGDecoder().decode(data, format: .jpeg, targetSize: nil, cancellation: DecodeCancellation()).size,
                       PixelSize(width: 64, height: 48))
    }

    // MARK: - WebP

    private static var cwebp: String? {
        ["/usr/bin/cwebp", "/usr/local/bin/cwebp"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `source` encoded by cwebp with `arguments`.
    private func webp(_ source: PixelBuffer, _ arguments: [String], in folder: TemporaryDirectory) throws -> Data {
        guard let cwebp = Self.cwebp else { throw XCTSkip("cwebp is not installed; no WebP encoder is reachable from Swift here") }
        let input = try folder.write(png(source), to: "source-\(UUID().uuidString).png")
        let output = folder.path("out-\(UUID().uuidString).webp")
        let run = try ChildProcess.run(cwebp, ["-quiet"] + arguments + [input, "-o", output])
        guard run.status == 0 else { throw XCTSkip("cwebp failed: \(run.stderr)") }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    func testIncrementalWebPDecodingGivesTheSamePixelsAsTheOneShotDecode() throws {
        let folder = try TemporaryDirectory()
        let files = [
            ("lossy", try webp(noise(700, 500), ["-q", "90"], in: folder)),
            ("lossy with alpha", try webp(noise(700, 500, alpha: true), ["-q", "80"], in: folder)),
            ("lossless with alpha", try webp(noise(700, 500, alpha: true), ["-lossless", "-exact"], in: folder)),
        ]
        for (name, data) in files {
            XCTAssertGreaterThan(data.count, 2 * WebPDecoder.sliceBytes, "\(name): several slices")
            for target in [nil, PixelSize(width: 160, height: 120), PixelSize(width: 333, height: 333)] {
                let oneShot = try WebPDecoder().decode(data, format: .webp, targetSize: target)
                let signal = DecodeCancellation()
                let incremental = try WebPDecoder().decode(data, format: .webp, targetSize: target, cancellation: signal)
                XCTAssertEqual(incremental.size, oneShot.size, "\(name) \(String(describing: target))")
                XCTAssertTrue(incremental.bytes == oneShot.bytes, "\(name) \(String(describing: target)): pixels differ")
                XCTAssertGreaterThan(signal.checks, 2, "\(name): looked at between slices")
            }
        }
    }

    func testACancelledWebPDecodeStopsBetweenSlicesAndItsFileDecodesAgain() throws {
        let folder = try TemporaryDirectory()
        for data in [try webp(noise(900, 700), ["-q", "95"], in: folder),
                     try webp(noise(900, 700), ["-lossless"], in: folder)] {
            let slices = (data.count + WebPDecoder.sliceBytes - 1) / WebPDecoder.sliceBytes
            XCTAssertGreaterThan(slices, 6)
            let cancellation = DecodeCancellation(cancellingAtCheck: 3)
            assertCancelled {
                try WebPDecoder().decode(data, format: .webp, targetSize: PixelSize(width: 200, height: 150), cancellation: cancellation)
            }
            // One look before decoding, then one per slice: two slices of the file were fed.
            XCTAssertEqual(cancellation.checks, 3)
            let again = try WebPDecoder().decode(data, format: .webp, targetSize: PixelSize(width: 200, height: 150),
                                                 cancellation: DecodeCancellation())
            XCTAssertEqual(again.size, PixelSize(width: 193, height: 150))
        }
    }

    func testATruncatedWebPDecodedInSlicesIsDamagedAsWhenDecodedAtOnce() throws {
        let folder = try TemporaryDirectory()
        let data = try webp(noise(400, 300), ["-q", "90"], in: folder)
        let cut = Data(data.prefix(data.count * 2 / 3))
        let sliced = try WebPDecoder().decode(cut, format: .webp, targetSize: nil, cancellation: DecodeCancellation())
        let atOnce = try WebPDecoder().decode(cut, format: .webp, targetSize: nil)
        XCTAssertEqual(sliced.damage, "the file ends inside the image data: it is truncated")
        XCTAssertEqual(sliced.damage, atOnce.damage)
        XCTAssertEqual(sliced.bytes, atOnce.bytes)
    }
}
