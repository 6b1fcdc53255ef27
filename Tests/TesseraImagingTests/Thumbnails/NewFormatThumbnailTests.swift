import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// The freedesktop thumbnail cache serves every format: the first visit decodes once (shrinking on load:
/// an SVG drawn at the thumbnail size, a RAW file's preview, a TIFF streamed) and stores the thumbnail,
/// the second reads it without decoding. Failures of the file's own making are remembered as for JPEG.
final class NewFormatThumbnailTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var log: CapturedLog!

    override func setUpWithError() throws {
        dir = try TemporaryDirectory()
        log = CapturedLog()
    }

    override func tearDown() {
        dir = nil
        log = nil
    }

    private func svg(width: Int, height: Int) -> Data {
        Data(("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\">"
              + "<rect width=\"\(width)\" height=\"\(height)\" fill=\"rgb(30,200,40)\"/></svg>").utf8)
    }

    func testSVGTIFFAndRAWAreThumbnailedOnceAndReadBack() throws {
        let files: [(String, Data, ImageFormat, PixelSize)] = [
            ("drawing.svg", svg(width: 1024, height: 768), .svg, PixelSize(width: 256, height: 192)),
            ("scan.tif", TestTIFF.file([TestTIFF.Page(width: 640, height: 480,
                                                      samples: Array(repeating: 90, count: 640 * 480 * 3), samplesPerPixel: 3,
                                                      photometric: 2)]),
             .tiff, PixelSize(width: 256, height: 192)),
            ("camera.dng", RawDecoderTests.dng(rawWidth: 1024, rawHeight: 768, previewWidth: 512, previewHeight: 384), .raw,
             PixelSize(width: 256, height: 192)),  // its 512x384 preview at 1/2: a thumbnail's size itself
        ]
        for (name, data, format, decodedSize) in files {
            let path = try dir.write(data, to: name)
            let recorder = RecordingDecoder(formats: [format], .forward(ImageDecoders.standard().first { $0.canDecode(format) }!))
            let loader = ThumbnailingLoader(loader: ImageLoader(decoders: [recorder]),
                                            store: ThumbnailStore(root: dir.path("cache/thumbnails"), logger: log.logger))
            let box = PixelSize(width: 200, height: 150)
            let first = try loader.load(path: path, fitting: box)
            XCTAssertEqual(first.size, box, name)
            XCTAssertEqual(recorder.calls.map(\.resultSize), [decodedSize], "\(name): one decode, shrunk on load")
            let second = try loader.load(path: path, fitting: box)
            XCTAssertEqual(second.size, box, name)
            XCTAssertEqual(recorder.calls.count, 1, "\(name): the second visit reads the thumbnail")
        }
        XCTAssertEqual(log.warnings, [])
    }
}
