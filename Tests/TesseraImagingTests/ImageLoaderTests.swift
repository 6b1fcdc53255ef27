import Foundation
import TesseraBench
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import XCTest

final class ImageLoaderTests: XCTestCase {
    private func reason(_ body: () throws(ImageLoadError) -> PixelBuffer,
                        file: StaticString = #filePath, line: UInt = #line) -> ImageLoadError.Reason? {
        do {
            let image = try body()
            XCTFail("expected a failure, got \(image.size)", file: file, line: line)
            return nil
        } catch {
            return error.reason
        }
    }

    // MARK: - Refusals before decoding

    /// Header-only files claiming 60000x60000 are refused from the header; a decoder that would accept
    /// them records a call, and there must be none.
    func testHugeHeadersAreRefusedWithoutDecoding() throws {
        let dir = try TemporaryDirectory()
        let recorder = RecordingDecoder()
        let loader = ImageLoader(decoders: [recorder])
        let files: [(String, Data, ImageFormat)] = [
            ("huge.png", TestHeaders.png(width: 60000, height: 60000), .png),
            ("huge.gif", TestHeaders.gif(width: 60000, height: 60000), .gif),
            ("huge.bmp", TestHeaders.bmp(width: 60000, height: -60000), .bmp),
            ("huge.webp", TestHeaders.webpExtended(width: 60000, height: 60000), .webp),
            ("huge.tif", TestHeaders.tiff(width: 60000, height: 60000, bigEndian: false), .tiff),
            ("huge.jpg", TestJPEG.claiming(width: 60000, height: 60000), .jpeg),
            // Bigger than the loader's header probe, so the early check on the first bytes refuses them.
            ("padded.png", TestHeaders.png(width: 60000, height: 60000) + Data(count: 300 << 10), .png),
            ("padded.jpg", TestJPEG.claiming(width: 60000, height: 60000) + Data(count: 300 << 10), .jpeg),
        ]
        for (name, data, format) in files {
            XCTAssertEqual(ImageFormat.sniff(data), format)
            let path = try dir.write(data, to: name)
            XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: path, fitting: nil) },
                           .tooLarge(width: 60000, height: 60000, limit: 100_000_000), name)
            XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: data, name: name, fitting: PixelSize(width: 200, height: 200)) },
                           .tooLarge(width: 60000, height: 60000, limit: 100_000_000), name)
        }
        XCTAssertEqual(recorder.calls, [], "no decoder may run for an oversized header")
    }

    func testPixelLimitIsConfigurableAndInclusive() throws {
        let recorder = RecordingDecoder()
        let loader = ImageLoader(decoders: [recorder], pixelLimit: 100 * 100)
        XCTAssertNoThrow(try loader.load(data: TestHeaders.png(width: 100, height: 100), name: "ok", fitting: nil))
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: TestHeaders.png(width: 101, height: 100), name: "big", fitting: nil) },
                       .tooLarge(width: 101, height: 100, limit: 10_000))
        XCTAssertEqual(recorder.calls.count, 1)
    }

    /// A decoder that produces more pixels than the header promised is caught after the fact.
    func testDecodedImageLargerThanLimitIsRefused() {
        let liar = RecordingDecoder(.solid(PixelSize(width: 200, height: 200)))
        let loader = ImageLoader(decoders: [liar], pixelLimit: 100 * 100)
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: TestHeaders.gif(width: 10, height: 10), name: "g", fitting: nil) },
                       .tooLarge(width: 200, height: 200, limit: 10_000))
    }

    func testMissingEmptyDirectoryRandomAndOversizedFiles() throws {
        let dir = try TemporaryDirectory()
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()], byteLimit: 4096)

        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: dir.path("nope.jpg"), fitting: nil) }, .missing)
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: dir.path("nope/deeper.jpg"), fitting: nil) }, .missing)

        let empty = try dir.write(Data(), to: "empty.jpg")
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: empty, fitting: nil) }, .empty)

        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: dir.url.path, fitting: nil) }, .notAnImage)

        var generator = SplitMix64(seed: 42)
        let random = Data((0..<3000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        XCTAssertEqual(ImageFormat.sniff(random), .unknown)
        let noise = try dir.write(random, to: "noise.jpg")
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: noise, fitting: nil) }, .notAnImage)

        let big = try dir.write(Data(count: 5000), to: "big.jpg")
        let tooBig = reason { () throws(ImageLoadError) in try loader.load(path: big, fitting: nil) }
        XCTAssertEqual(tooBig, .fileTooLarge(bytes: 5000, limit: 4096))
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: Data(count: 5000), name: "mem", fitting: nil) },
                       .fileTooLarge(bytes: 5000, limit: 4096))
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: Data(), name: "mem", fitting: nil) }, .empty)
    }

    /// A FIFO must not block a worker waiting for a writer.
    func testFIFOIsNotAnImageAndDoesNotBlock() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("pipe.jpg")
        guard mkfifo(path, 0o600) == 0 else { throw XCTSkip("mkfifo failed: \(errno)") }
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: path, fitting: nil) }, .notAnImage)
    }

    func testUnreadableFileReportsStrerror() throws {
        guard geteuid() != 0 else { throw XCTSkip("root can read a mode-000 file") }
        let dir = try TemporaryDirectory()
        let path = try dir.write(TestJPEG.solid(width: 4, height: 4, color: RGBA(r: 1, g: 1, b: 1)), to: "locked.jpg")
        chmod(path, 0)
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(path: path, fitting: nil) }, .unreadable("Permission denied"))
    }

    func testUnsupportedFormatWhenNoDecoderClaimsIt() {
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: TestHeaders.png(width: 5, height: 5), name: "p", fitting: nil) },
                       .unsupportedFormat("PNG"))
    }

    func testFirstMatchingDecoderWins() throws {
        let first = RecordingDecoder(formats: [.gif])
        let second = RecordingDecoder(formats: [.gif, .png])
        let loader = ImageLoader(decoders: [first, second])
        _ = try loader.load(data: TestHeaders.png(width: 5, height: 5), name: "p", fitting: nil)
        _ = try loader.load(data: TestHeaders.gif(width: 5, height: 5), name: "g", fitting: nil)
        XCTAssertEqual(first.calls.map(\.format), [.gif])
        XCTAssertEqual(second.calls.map(\.format), [.png])
    }

    func testDecoderErrorsAreMapped() {
        let png = TestHeaders.png(width: 5, height: 5)
        let cases: [(any Error & Sendable, ImageLoadError.Reason)] = [
            (ImageLoadError.Reason.truncated, .truncated),
            (ImageLoadError(path: "inner", reason: .decodeFailed("bad")), .decodeFailed("bad")),
            (SomeDecoderError(), .decodeFailed("codec exploded")),
        ]
        for (thrown, expected) in cases {
            let loader = ImageLoader(decoders: [RecordingDecoder(.fail(thrown))])
            do {
                _ = try loader.load(data: png, name: "x.png", fitting: nil)
                XCTFail("expected \(expected)")
            } catch {
                XCTAssertEqual(error, ImageLoadError(path: "x.png", reason: expected))
            }
        }
    }

    // MARK: - Truncation

    /// A JPEG cut in its data is shown as far as it goes (libjpeg pads the rest with grey), saying why.
    func testATruncatedJPEGIsShownAsFarAsItGoesAndSaysSo() throws {
        let dir = try TemporaryDirectory()
        let jpeg = TestJPEG.encode(.bgra(TestPixels.gradient(width: 256, height: 256)), quality: 90)
        let path = try dir.write(Data(jpeg.prefix(jpeg.count / 2)), to: "half.jpg")
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        let whole = try loader.load(data: jpeg, name: "whole.jpg", fitting: nil)
        XCTAssertNil(whole.damage)
        let half = try loader.load(path: path, fitting: nil)
        XCTAssertEqual(half.size, PixelSize(width: 256, height: 256))
        XCTAssertEqual(half.damage, "Premature end of JPEG file")
        XCTAssertEqual(half.bytes.prefix(256 * 4 * 32), whole.bytes.prefix(256 * 4 * 32), "the top is the picture")
        XCTAssertNotEqual(half.bytes.suffix(256 * 4 * 32), whole.bytes.suffix(256 * 4 * 32), "the rest could not be read")
        XCTAssertNotNil(try loader.load(path: path, fitting: PixelSize(width: 32, height: 32)).damage,
                        "scaled decoding notices the damage too")
    }

    /// A header that is all there but names no size, or that its library refuses, is damaged, not
    /// "truncated".
    func testADamagedHeaderIsNotCalledTruncated() throws {
        let loader = ImageLoader(decoders: ImageDecoders.standard())
        let jpeg = [UInt8](TestJPEG.encode(.bgra(TestPixels.gradient(width: 64, height: 48)), quality: 90))
        var unknownComponent = jpeg
        let scan = try XCTUnwrap(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        unknownComponent[scan + 5] = 9
        guard case .decodeFailed(let why)? = reason({ () throws(ImageLoadError) in
            try loader.load(data: Data(unknownComponent), name: "x.jpg", fitting: nil)
        }) else { return XCTFail("a damaged JPEG header") }
        XCTAssertTrue(why.hasPrefix("damaged header: "), why)

        var noSize = [UInt8](TestHeaders.png(width: 1, height: 1))
        noSize.replaceSubrange(16..<24, with: [0, 0, 0, 0, 0, 0, 0, 0])
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: Data(noSize), name: "x.png", fitting: nil) },
                       .decodeFailed("the header gives the image no size (0 × 0)"))
        XCTAssertEqual(reason { () throws(ImageLoadError) in
            try loader.load(data: Data(jpeg.prefix(40)), name: "x.jpg", fitting: nil)
        }, .truncated, "a file that ends in its headers is truncated")
    }

    func testHeaderCutShortIsTruncated() {
        let loader = ImageLoader(decoders: [RecordingDecoder()])
        let jpeg = TestJPEG.solid(width: 64, height: 64, color: RGBA(r: 5, g: 5, b: 5))
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: jpeg.prefix(40), name: "j", fitting: nil) }, .truncated)
        XCTAssertEqual(reason { () throws(ImageLoadError) in try loader.load(data: TestHeaders.png(width: 5, height: 5).prefix(18), name: "p", fitting: nil) },
                       .truncated)
    }

    // MARK: - Successful loads

    func testOnePixelJPEGLoads() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.write(TestJPEG.solid(width: 1, height: 1, color: RGBA(r: 10, g: 200, b: 90)), to: "dot.jpg")
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        let full = try loader.load(path: path, fitting: nil)
        XCTAssertEqual(full.size, PixelSize(width: 1, height: 1))
        XCTAssertTrue(full.pixel(x: 0, y: 0).isClose(to: RGBA(r: 10, g: 200, b: 90), tolerance: 3), "\(full.pixel(x: 0, y: 0))")
        let boxed = try loader.load(path: path, fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(boxed.size, PixelSize(width: 1, height: 1), "never enlarged")
    }

    /// A file larger than the header probe is read completely (the probe is only an early check).
    func testLargeFileIsReadPastTheHeaderProbe() throws {
        let dir = try TemporaryDirectory()
        var generator = SplitMix64(seed: 7)
        var noise = PixelBuffer(width: 700, height: 500, filledWith: RGBA(r: 0, g: 0, b: 0))
        for i in noise.bytes.indices where i % 4 != 3 { noise.bytes[i] = UInt8(truncatingIfNeeded: generator.next()) }
        let jpeg = TestJPEG.encode(.bgra(noise), quality: 100)
        XCTAssertGreaterThan(jpeg.count, 256 << 10, "the test needs a file bigger than the probe")
        let path = try dir.write(jpeg, to: "noise.jpg")
        let image = try ImageLoader(decoders: [TurboJPEGDecoder()]).load(path: path, fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 700, height: 500))
    }

    /// The loader passes the box fitted to the image's aspect as the decoder's target, and finishes with
    /// exactly that size.
    func testTargetSizeIsTheAspectFittedBox() throws {
        let recorder = RecordingDecoder(.solid(PixelSize(width: 1000, height: 500)))
        let loader = ImageLoader(decoders: [recorder])
        let image = try loader.load(data: TestHeaders.png(width: 1000, height: 500), name: "p",
                                    fitting: PixelSize(width: 300, height: 300))
        XCTAssertEqual(recorder.calls.first?.targetSize, PixelSize(width: 300, height: 150))
        XCTAssertEqual(image.size, PixelSize(width: 300, height: 150))
    }

    /// 4000x3000 into 400x300: TurboJPEG decodes at 1/4 (1000x750, twice the target), the scaler finishes at 400x300, and
    /// the result matches full decode + the same scaler closely (PSNR >= 35 dB on a smooth gradient).
    func testScaledJPEGDecodingMatchesFullDecode() throws {
        let source = TestPixels.gradient(width: 4000, height: 3000)
        let jpeg = TestJPEG.encode(.bgra(source), quality: 95)
        let dir = try TemporaryDirectory()
        let path = try dir.write(jpeg, to: "big.jpg")
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let loader = ImageLoader(decoders: [recorder])

        let box = PixelSize(width: 400, height: 300)
        let scaled = try loader.load(path: path, fitting: box)
        XCTAssertEqual(recorder.calls, [RecordingDecoder.Call(format: .jpeg, targetSize: box,
                                                                resultSize: PixelSize(width: 1000, height: 750))])
        XCTAssertEqual(scaled.size, box)

        let full = try loader.load(path: path, fitting: nil)
        XCTAssertEqual(full.size, PixelSize(width: 4000, height: 3000))
        let reference = PixelScaler.scaled(full, to: box)
        let psnr = TestPixels.psnr(scaled, reference)
        XCTAssertGreaterThanOrEqual(psnr, 35, "PSNR \(psnr) dB")
        // And both are close to the original gradient scaled the same way.
        let original = PixelScaler.scaled(source, to: box)
        XCTAssertGreaterThanOrEqual(TestPixels.psnr(reference, original), 35)
        print("1/8 decode + scale vs full decode + scale: PSNR \(psnr) dB; vs scaled original: \(TestPixels.psnr(scaled, original)) dB")
    }

    func testErrorDescriptionIsPathAndShortText() {
        let loader = ImageLoader(decoders: [])
        do {
            _ = try loader.load(path: "/definitely/not/here.jpg", fitting: nil)
            XCTFail("expected failure")
        } catch {
            XCTAssertEqual(error.description, "/definitely/not/here.jpg: File not found")
        }
    }
}
