import Foundation
import Synchronization
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraTiling

/// Callers written against `DecodingService` ask the service they are given and decode nothing around it:
/// a service that notes its questions sees each decode, fact, rows opening and drawing they need, and their
/// results are the in-process ones.
final class DecodingServiceTests: XCTestCase {
    /// Decoding in process that notes what it is asked.
    private final class RecordingDecoding: DecodingService {
        private let inProcess = InProcessDecoding()
        private let questions = Mutex<[String]>([])

        var asked: [String] { questions.withLock { $0 } }
        private func note(_ question: String) { questions.withLock { $0.append(question) } }

        var isolatesLibraries: Bool { false }

        func load(_ file: ImageFile, with loader: ImageLoader, fitting box: PixelSize?, convertingColour: Bool,
                  cancellation: DecodeCancellation?) throws(ImageLoadError.Reason) -> PixelBuffer {
            note("load")
            return try inProcess.load(file, with: loader, fitting: box, convertingColour: convertingColour,
                                      cancellation: cancellation)
        }

        func load(data: Data, name: String, with loader: ImageLoader,
                  fitting box: PixelSize?) throws(ImageLoadError.Reason) -> PixelBuffer {
            note("load data")
            return try inProcess.load(data: data, name: name, with: loader, fitting: box)
        }

        func facts(_ kind: ImageFacts.Kind, of file: ImageFile) throws(ImageLoadError.Reason) -> ImageFacts {
            note("facts \(kind)")
            return try inProcess.facts(kind, of: file)
        }

        func rows(of file: ImageFile, fallbackDecoders: [any ImageDecoding], pixelLimitForWholeDecode: Int,
                  priority: WorkerPriority,
                  isCancelled: (@Sendable () -> Bool)?) throws(TileCutError.Reason) -> any ScanlineSource {
            note("rows")
            return try inProcess.rows(of: file, fallbackDecoders: fallbackDecoders,
                                      pixelLimitForWholeDecode: pixelLimitForWholeDecode, priority: priority,
                                      isCancelled: isCancelled)
        }

        func animationPlays(path: String, options: AnimationFeed.Options) -> AnimationPlays {
            note("animation")
            return inProcess.animationPlays(path: path, options: options)
        }

        func isAnimated(fileAt path: String, byteLimit: Int) -> Bool {
            note("is animated")
            return inProcess.isAnimated(fileAt: path, byteLimit: byteLimit)
        }

        func tiledTIFF(_ file: ImageFile) throws(ImageLoadError.Reason) -> any TiledTIFFReading {
            note("tiled TIFF")
            return try inProcess.tiledTIFF(file)
        }

        func svgDrawing(_ file: ImageFile) throws(ImageLoadError.Reason) -> any SVGTileDrawing {
            note("SVG")
            return try inProcess.svgDrawing(file)
        }

        func jpegRegions(_ file: ImageFile) -> any JPEGRegionDecoding {
            note("JPEG regions")
            return inProcess.jpegRegions(file)
        }

        func slide(at path: String, acceptGenericTIFF: Bool) throws(ImageLoadError.Reason) -> (any SlideReading)? {
            note("slide")
            return try inProcess.slide(at: path, acceptGenericTIFF: acceptGenericTIFF)
        }

        func shutdown() {}
        func stepBack(to priority: WorkerPriority) {}
    }

    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-service-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private let photo = SampleImages.url("img25-small.jpg").path

    func testTheLoaderDecodesThroughItsService() throws {
        let service = RecordingDecoding()
        let box = PixelSize(width: 64, height: 64)
        let pixels = try ImageLoader(decoders: ImageDecoders.standard(), decoding: service).load(path: photo, fitting: box)
        XCTAssertEqual(service.asked, ["load"])
        XCTAssertEqual(pixels.bytes, try ImageLoader(decoders: ImageDecoders.standard()).load(path: photo, fitting: box).bytes)

        let bytes = try Data(contentsOf: URL(fileURLWithPath: photo))
        _ = try ImageLoader(decoders: ImageDecoders.standard(), decoding: service).load(data: bytes, name: "photo", fitting: box)
        XCTAssertEqual(service.asked, ["load", "load data"])
    }

    func testFactsAreReadThroughTheService() throws {
        let service = RecordingDecoding()
        XCTAssertEqual(try ImageProbe.probe(photo, decoding: service), try ImageProbe.probe(photo))
        XCTAssertEqual(try ImageInformation.read(path: photo, decoding: service), try ImageInformation.read(path: photo))
        XCTAssertEqual(ItemFactReader.dateTaken(ofFileAt: photo, decoding: service), ItemFactReader.dateTaken(ofFileAt: photo))
        XCTAssertEqual(service.asked, ["facts header", "facts information", "facts exifDates"])
    }

    func testTheCutterReadsItsRowsThroughTheService() throws {
        let service = RecordingDecoding()
        var options = TileCutterOptions()
        options.decoding = service
        _ = try TileCutter(options: options).cut(imageAt: photo, into: folder.appendingPathComponent("cut").path)
        XCTAssertEqual(service.asked, ["rows"])
    }

    func testAnSVGIsDrawnThroughTheService() throws {
        let svg = folder.appendingPathComponent("drawing.svg")
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="300" height="200">
            <rect x="10" y="20" width="120" height="90" fill="#c04020"/></svg>
            """.utf8).write(to: svg)
        let service = RecordingDecoding()
        let source = try SVGTileSource(path: svg.path, pixelLimit: 100_000_000, maxMagnification: 1, colour: nil,
                                       decoding: service)
        let tile = TileID(level: source.geometry.maxLevel, column: 0, row: 0)
        let drawn = try source.loadTile(tile)
        XCTAssertEqual(service.asked, ["SVG"])
        let inProcess = try SVGTileSource(path: svg.path, pixelLimit: 100_000_000, maxMagnification: 1, colour: nil)
        XCTAssertEqual(drawn.bytes, try inProcess.loadTile(tile).bytes)
    }
}
