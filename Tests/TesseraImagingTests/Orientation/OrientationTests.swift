import Foundation
import TesseraBench
import TesseraCore
import TesseraImaging
import TesseraTestBasics
import XCTest

final class OrientationTests: XCTestCase {
    // MARK: - The transform

    /// Stored 3x2 image   a b c    and what each orientation shows, written out by hand from the EXIF
    ///                    d e f    definitions (e.g. 6: row 0 is the right-hand side, column 0 the top).
    func testEveryOrientationOnASmallImage() {
        let (a, b, c, d, e, f): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (1, 2, 3, 4, 5, 6)
        let stored = image(width: 3, [a, b, c, d, e, f])
        let expected: [ImageOrientation: (Int, [UInt8])] = [
            .up: (3, [a, b, c, d, e, f]),
            .mirrored: (3, [c, b, a, f, e, d]),
            .rotated180: (3, [f, e, d, c, b, a]),
            .mirroredVertically: (3, [d, e, f, a, b, c]),
            .transposed: (2, [a, d, b, e, c, f]),
            .rotated90: (2, [d, a, e, b, f, c]),
            .transversed: (2, [f, c, e, b, d, a]),
            .rotated270: (2, [c, f, b, e, a, d]),
        ]
        for orientation in ImageOrientation.allCases {
            let (width, labels) = expected[orientation]!
            let result = orientation.apply(to: stored)
            XCTAssertEqual(result.width, width, "\(orientation)")
            XCTAssertEqual(result.height, 6 / width, "\(orientation)")
            XCTAssertEqual(labelsOf(result), labels, "orientation \(orientation)")
            XCTAssertEqual(result.size, orientation.orientedSize(stored.size))
        }
    }

    /// Sizes that cross the 64-pixel blocks of the loop, checked against a per-pixel formula.
    func testLargeOddSizesMatchThePerPixelDefinition() {
        let w = 131, h = 70
        var generator = SplitMix64(seed: 3)
        let stored = PixelBuffer(width: w, height: h, bytes: (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
        for orientation in ImageOrientation.allCases {
            let result = orientation.apply(to: stored)
            var mismatches = 0
            for y in 0..<result.height {
                for x in 0..<result.width {
                    let (sx, sy): (Int, Int) = switch orientation {
                    case .up: (x, y)
                    case .mirrored: (w - 1 - x, y)
                    case .rotated180: (w - 1 - x, h - 1 - y)
                    case .mirroredVertically: (x, h - 1 - y)
                    case .transposed: (y, x)
                    case .rotated90: (y, h - 1 - x)
                    case .transversed: (w - 1 - y, h - 1 - x)
                    case .rotated270: (w - 1 - y, x)
                    }
                    if result.pixel(x: x, y: y) != stored.pixel(x: sx, y: sy) { mismatches += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "\(orientation)")
        }
    }

    /// Each orientation followed by its inverse is the identity.
    func testATurnKeepsWhatTheBufferSaysOfItsSource() {
        var buffer = PixelBuffer(width: 4, height: 2, filledWith: RGBA(r: 1, g: 2, b: 3))
        buffer.knownOpaque = true
        buffer.sourceSize = PixelSize(width: 400, height: 200)
        buffer.colourProfile = [1, 2, 3]
        let turned = ImageOrientation.rotated90.apply(to: buffer)
        XCTAssertEqual(turned.size, PixelSize(width: 2, height: 4))
        XCTAssertEqual(turned.knownOpaque, true)
        XCTAssertEqual(turned.sourceSize, PixelSize(width: 200, height: 400), "the source turns with the pixels")
        XCTAssertEqual(turned.colourProfile, [1, 2, 3])
    }

    func testInverses() {
        let stored = TestPixels.gradient(width: 37, height: 23)
        let inverse: [ImageOrientation: ImageOrientation] = [
            .up: .up, .mirrored: .mirrored, .rotated180: .rotated180, .mirroredVertically: .mirroredVertically,
            .transposed: .transposed, .rotated90: .rotated270, .transversed: .transversed, .rotated270: .rotated90,
        ]
        for orientation in ImageOrientation.allCases {
            let back = inverse[orientation]!.apply(to: orientation.apply(to: stored))
            XCTAssertEqual(back.size, stored.size)
            XCTAssertEqual(back.bytes, stored.bytes, "\(orientation)")
        }
    }

    /// The loader scales in the stored orientation and turns the small result; that must equal turning
    /// the full image first and scaling it (up to float rounding).
    func testScalingCommutesWithTurning() {
        var generator = SplitMix64(seed: 9)
        var source = TestPixels.gradient(width: 301, height: 187)
        for i in source.bytes.indices where i % 4 != 3 {
            source.bytes[i] = UInt8(clamping: Int(source.bytes[i]) + Int(generator.next() % 61) - 30)
        }
        for orientation in ImageOrientation.allCases {
            let upright = orientation.orientedSize(PixelSize(width: 301, height: 187)).aspectFit(in: PixelSize(width: 64, height: 64))
            let turnedFirst = PixelScaler.scaled(orientation.apply(to: source), to: upright)
            let scaledFirst = orientation.apply(to: PixelScaler.scaled(source, to: orientation.orientedSize(upright)))
            XCTAssertEqual(turnedFirst.size, scaledFirst.size)
            let worst = zip(turnedFirst.bytes, scaledFirst.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "\(orientation)")
        }
    }

    func testExifValues() {
        XCTAssertNil(ImageOrientation(exifValue: 0))
        XCTAssertNil(ImageOrientation(exifValue: 9))
        XCTAssertEqual(ImageOrientation(exifValue: 6), .rotated90)
        XCTAssertEqual(ImageOrientation.allCases.filter(\.swapsAxes), [.transposed, .rotated90, .transversed, .rotated270])
    }

    // MARK: - Through the loader, from real JPEGs

    /// An asymmetric 64x32 picture (red, green / blue, white quadrants) stored with each of the eight
    /// EXIF orientations: the loaded image has the corners where a viewer must show them.
    func testEightTaggedJPEGsLoadUpright() throws {
        let dir = try TemporaryDirectory()
        let loader = ImageLoader(decoders: [TurboJPEGDecoder()])
        let (r, g, b, w) = (RGBA(r: 230, g: 20, b: 20), RGBA(r: 20, g: 230, b: 20), RGBA(r: 20, g: 20, b: 230), RGBA(r: 250, g: 250, b: 250))
        let jpeg = TestJPEG.encode(.bgra(quadrants(width: 64, height: 32, r, g, b, w)), quality: 95)
        // Corners of the shown image: top-left, top-right, bottom-left, bottom-right.
        let expected: [Int: [RGBA]] = [
            1: [r, g, b, w], 2: [g, r, w, b], 3: [w, b, g, r], 4: [b, w, r, g],
            5: [r, b, g, w], 6: [b, r, w, g], 7: [w, g, b, r], 8: [g, w, r, b],
        ]
        for value in 1...8 {
            let tagged = TestExif.jpeg(jpeg, orientation: UInt16(value), bigEndian: value % 2 == 0)
            let path = try dir.write(tagged, to: "o\(value).jpg")
            let image = try loader.load(path: path, fitting: nil)
            XCTAssertEqual(image.size, value >= 5 ? PixelSize(width: 32, height: 64) : PixelSize(width: 64, height: 32), "\(value)")
            let corners = [image.pixel(x: 4, y: 4), image.pixel(x: image.width - 5, y: 4),
                           image.pixel(x: 4, y: image.height - 5), image.pixel(x: image.width - 5, y: image.height - 5)]
            for (corner, (got, want)) in zip(["top-left", "top-right", "bottom-left", "bottom-right"], zip(corners, expected[value]!)) {
                XCTAssertTrue(got.isClose(to: want, tolerance: 12), "orientation \(value) \(corner): \(got), expected \(want)")
            }
            // Fitted into a box, the upright image is what gets fitted.
            let boxed = try loader.load(path: path, fitting: PixelSize(width: 16, height: 16))
            XCTAssertEqual(boxed.size, value >= 5 ? PixelSize(width: 8, height: 16) : PixelSize(width: 16, height: 8), "\(value)")
            XCTAssertTrue(boxed.pixel(x: 1, y: 1).isClose(to: expected[value]![0], tolerance: 16), "\(value) boxed: \(boxed.pixel(x: 1, y: 1))")
        }
    }

    /// A 4000x3000 photo tagged 6 is a 3000x4000 portrait: fitted to 300x300 it is 225x300, and the decoder
    /// is asked for the stored orientation (300x225), so shrink-on-load picks the right factor.
    func testBoxIsFittedToTheUprightSizeAndTheDecoderTargetIsStored() throws {
        let header = TestJPEG.claiming(width: 4000, height: 3000)
        let tagged = TestExif.jpeg(header, orientation: 6)
        let recorder = RecordingDecoder(.solid(PixelSize(width: 500, height: 375)))
        let loader = ImageLoader(decoders: [recorder])
        let image = try loader.load(data: tagged, name: "portrait", fitting: PixelSize(width: 300, height: 300))
        XCTAssertEqual(image.size, PixelSize(width: 225, height: 300))
        XCTAssertEqual(recorder.calls.first?.targetSize, PixelSize(width: 300, height: 225))

        // A box shaped like the portrait: the stored target is its transposition.
        let tall = try loader.load(data: tagged, name: "portrait", fitting: PixelSize(width: 300, height: 400))
        XCTAssertEqual(tall.size, PixelSize(width: 300, height: 400))
        XCTAssertEqual(recorder.calls.last?.targetSize, PixelSize(width: 400, height: 300))
    }

    func testScaledDecodeOfARotatedJPEGUsesTheRightFactor() throws {
        let jpeg = TestExif.jpeg(TestJPEG.encode(.bgra(TestPixels.gradient(width: 640, height: 480))), orientation: 8)
        let recorder = RecordingDecoder(.forward(TurboJPEGDecoder()))
        let image = try ImageLoader(decoders: [recorder]).load(data: jpeg, name: "r", fitting: PixelSize(width: 75, height: 100))
        XCTAssertEqual(image.size, PixelSize(width: 75, height: 100))
        XCTAssertEqual(recorder.calls, [RecordingDecoder.Call(format: .jpeg, targetSize: PixelSize(width: 100, height: 75),
                                                               resultSize: PixelSize(width: 320, height: 240))])  // 1/2: twice the target
    }

    func testOrientationCanBeTurnedOff() throws {
        let tagged = TestExif.jpeg(TestJPEG.encode(.bgra(TestPixels.gradient(width: 40, height: 20))), orientation: 6)
        let image = try ImageLoader(decoders: [TurboJPEGDecoder()], applyOrientation: false).load(data: tagged, name: "t", fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 40, height: 20))
    }

    /// The pixel limit still refuses a huge header before any decoder runs, rotated or not.
    func testHugeRotatedHeaderIsRefusedWithoutDecoding() {
        let recorder = RecordingDecoder()
        let loader = ImageLoader(decoders: [recorder])
        let tagged = TestExif.jpeg(TestJPEG.claiming(width: 60000, height: 20000), orientation: 6)
        XCTAssertThrowsError(try loader.load(data: tagged, name: "huge", fitting: PixelSize(width: 100, height: 100))) {
            XCTAssertEqual(($0 as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 20000, limit: 100_000_000))
        }
        XCTAssertEqual(recorder.calls, [])
    }

    // MARK: - Helpers

    /// One pixel per label, label in the blue byte.
    private func image(width: Int, _ labels: [UInt8]) -> PixelBuffer {
        PixelBuffer(width: width, height: labels.count / width, bytes: labels.flatMap { [$0, 0, 0, 255] })
    }

    private func labelsOf(_ buffer: PixelBuffer) -> [UInt8] {
        stride(from: 0, to: buffer.bytes.count, by: 4).map { buffer.bytes[$0] }
    }

    private func quadrants(width: Int, height: Int, _ tl: RGBA, _ tr: RGBA, _ bl: RGBA, _ br: RGBA) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, filledWith: tl)
        for y in 0..<height {
            for x in 0..<width {
                let c = y < height / 2 ? (x < width / 2 ? tl : tr) : (x < width / 2 ? bl : br)
                let i = (y * width + x) * 4
                buffer.bytes[i] = c.b; buffer.bytes[i + 1] = c.g; buffer.bytes[i + 2] = c.r; buffer.bytes[i + 3] = c.a
            }
        }
        return buffer
    }
}
