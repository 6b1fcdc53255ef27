import Foundation
import TesseraCore
import TesseraImaging
import XCTest

/// Camera RAW through libraw, on a DNG written here: a JPEG preview of the quadrants in its first
/// directory and, in a SubIFD, sensor data of one even grey, so the colours say whether the preview or
/// the developed sensor data was shown.
final class RawDecoderTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private typealias H = TestTIFF
    private let loader = ImageLoader(decoders: [RawDecoder()])

    /// A DNG of `rawWidth` x `rawHeight` sensor sites with a JPEG preview of `previewWidth` x `previewHeight`.
    /// With `claimedSize`, the sensor directory states that size while holding the data of the real one.
    static func dng(rawWidth: Int = 256, rawHeight: Int = 192, previewWidth: Int = 128, previewHeight: Int = 96,
                    orientation: UInt16? = nil, claimedSize: PixelSize? = nil) -> Data {
        let preview = TestJPEG.encode(.bgra(Tools.quadrants(width: previewWidth, height: previewHeight)))
        // XYZ to camera: sRGB's matrix, so the camera is linear sRGB; four decimals as signed rationals.
        let xyzToCamera: [Double] = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
        let matrix = xyzToCamera.flatMap { H.le32(UInt32(bitPattern: Int32(($0 * 10000).rounded()))) + H.le32(10000) }
        let sensor = H.Page(width: claimedSize?.width ?? rawWidth, height: claimedSize?.height ?? rawHeight,
                            samples: Array(repeating: 20000, count: rawWidth * rawHeight),
                            samplesPerPixel: 1, bitsPerSample: 16, photometric: 32803,
                            extraEntries: [(33421, 3, 2, H.le16(2) + H.le16(2)), (33422, 1, 4, [0, 1, 1, 2]),
                                           (50717, 4, 1, H.le32(65535))])
        var first = H.Page(width: previewWidth, height: previewHeight, samples: [], samplesPerPixel: 3, photometric: 6,
                           subfileType: 1, orientation: orientation, subPages: [sensor], compression: 7, stripData: [UInt8](preview))
        let model = Array("Tessera Test".utf8) + [0]
        first.extraEntries = [
            (271, 2, 8, Array("Tessera".utf8) + [0]), (272, 2, model.count, model),
            (50706, 1, 4, [1, 4, 0, 0]), (50707, 1, 4, [1, 1, 0, 0]), (50708, 2, model.count, model),
            (50721, 10, 9, matrix), (50728, 5, 3, (0..<3).flatMap { _ in H.le32(1) + H.le32(1) }), (50778, 3, 1, H.le16(21)),
        ]
        return H.file([first])
    }

    func testCellsShowThePreviewAndTheSingleViewTheSensorData() throws {
        let data = Self.dng()
        XCTAssertEqual(ImageFormat.sniff(data), .raw)
        XCTAssertEqual(ImageHeader.read(data)?.size, PixelSize(width: 256, height: 192))
        XCTAssertNil(ImageHeader.read(data, isWholeFile: false), "a prefix might give wrong sizes, so none")

        let recorder = RecordingDecoder(formats: [.raw], .forward(RawDecoder()))
        let loader = ImageLoader(decoders: [recorder])
        let cell = try loader.load(data: data, name: "a.dng", fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(cell.size, PixelSize(width: 64, height: 48))
        Tools.assertQuadrants(cell, tolerance: 12, "the embedded preview")
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 64, height: 48),
                       "the JPEG preview at 1/2, the cell's size itself, as TurboJPEG decodes any JPEG")
        let tiny = try loader.load(data: data, name: "a.dng", fitting: PixelSize(width: 16, height: 16))
        XCTAssertEqual(tiny.size, PixelSize(width: 16, height: 12))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 16, height: 12), "the preview decoded at 1/8 scale")

        let full = try loader.load(data: data, name: "a.dng", fitting: nil)
        XCTAssertEqual(full.size, PixelSize(width: 256, height: 192))
        let centre = full.pixel(x: 128, y: 96)
        XCTAssertEqual(Int(centre.r), Int(centre.g), accuracy: 12, "\(centre): even grey sensor data, developed")
        XCTAssertEqual(Int(centre.b), Int(centre.g), accuracy: 12, "\(centre)")
        XCTAssertFalse(full.pixel(x: 64, y: 48).isClose(to: Tools.topLeft, tolerance: 40), "not the preview")
    }

    /// A preview smaller than the target is not stretched: the sensor data is developed, at half size
    /// when that covers the target.
    func testSmallPreviewGivesWayToDevelopment() throws {
        let data = Self.dng(previewWidth: 32, previewHeight: 24)
        let recorder = RecordingDecoder(formats: [.raw], .forward(RawDecoder()))
        let loader = ImageLoader(decoders: [recorder])
        _ = try loader.load(data: data, name: "b.dng", fitting: PixelSize(width: 100, height: 100))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 128, height: 96), "half-size development")
        _ = try loader.load(data: data, name: "b.dng", fitting: PixelSize(width: 200, height: 200))
        XCTAssertEqual(recorder.calls.last?.resultSize, PixelSize(width: 256, height: 192), "full development")
    }

    /// A camera held upright (orientation 6): the preview is turned to match the developed picture.
    func testPreviewIsTurnedAsTheSensorDataIs() throws {
        let data = Self.dng(orientation: 6)
        XCTAssertEqual(ImageHeader.read(data)?.size, PixelSize(width: 192, height: 256))
        let cell = try loader.load(data: data, name: "c.dng", fitting: PixelSize(width: 64, height: 64))
        XCTAssertEqual(cell.size, PixelSize(width: 48, height: 64))
        let c = Tools.upright
        Tools.assertQuadrants(cell, [c[2], c[0], c[3], c[1]], tolerance: 12, "turned preview")
        XCTAssertEqual(try loader.load(data: data, name: "c.dng", fitting: nil).size, PixelSize(width: 192, height: 256))
    }

    /// A small file whose sensor directory claims 60000 x 60000 sites is refused before anything is developed.
    func testHugeClaimedSensorIsRefusedBeforeDecoding() {
        let bomb = Self.dng(claimedSize: PixelSize(width: 60000, height: 60000))
        let recorder = RecordingDecoder(formats: [.raw], .forward(RawDecoder()))
        XCTAssertThrowsError(try ImageLoader(decoders: [recorder]).load(data: bomb, name: "bomb.dng", fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .tooLarge(width: 60000, height: 60000, limit: 100_000_000), "\(error)")
        }
        XCTAssertTrue(recorder.calls.isEmpty)
    }

    func testTruncatedAndUnknownRawFiles() {
        let data = Self.dng()
        XCTAssertThrowsError(try loader.load(data: data.prefix(data.count / 2), name: "cut.dng", fitting: nil)) { error in
            let reason = (error as? ImageLoadError)?.reason
            XCTAssertTrue(reason == .truncated || { if case .decodeFailed = reason { true } else { false } }(), "\(error)")
        }
        // Olympus's magic with nothing libraw can identify behind it.
        XCTAssertThrowsError(try loader.load(data: TestHeaders.tiff(entries: [.long(256, 64), .long(257, 48)], magic: 0x4F52),
                                             name: "x.orf", fitting: nil))
    }
}
