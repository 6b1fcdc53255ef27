import CTurboJPEG
import Foundation
import Synchronization
import TesseraSDL
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraTiling
@testable import TesseraUI

/// A JPEG larger than the window in the single view: decoded at the size shown, and at full resolution
/// only where the view is, so its memory follows the screen rather than the photo.
final class TiledJPEGViewTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-jpeg-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `image` as a baseline or progressive JPEG (4:4:4, quality 95) at `name`.
    private func writeJPEG(_ image: PixelBuffer, name: String, progressive: Bool = false) throws -> String {
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var jpeg: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let rc = image.bytes.withUnsafeBufferPointer {
            tjCompress2(handle, $0.baseAddress, Int32(image.width), Int32(image.width * 4), Int32(image.height),
                        Int32(TJPF_BGRA.rawValue), &jpeg, &size, Int32(TJSAMP_444.rawValue), 95, progressive ? TJFLAG_PROGRESSIVE : 0)
        }
        XCTAssertEqual(rc, 0)
        defer { tjFree(jpeg) }
        let path = folder.appendingPathComponent(name).path
        try Data(bytes: try XCTUnwrap(jpeg), count: Int(size)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testALargeJPEGIsDecodedAtTheSizeShownAndAtFullSizeOnlyWhereTheViewIs() throws {
        let image = TiledFixtures.gradient(width: 3200, height: 2400)
        let path = try writeJPEG(image, name: "photo.jpg")
        let harness = try TiledViewHarness(path: path, width: 320, height: 240)
        let view = harness.view

        // At fit (a tenth): sharp, from tiles no finer than the level the window needs (400 x 300).
        var frame = try harness.runUntilSharp()
        XCTAssertEqual(view.zoom ?? 0, 0.1, accuracy: 1e-9)
        let geometry = try XCTUnwrap(view.geometry)
        XCTAssertLessThan(geometry.tileSize, 3200, "the image is read in tiles, not whole")
        let finest = try XCTUnwrap(view.heldTiles.map(\.level).max())
        XCTAssertEqual(geometry.levelSize(finest), PixelSize(width: 400, height: 300))
        // At a tenth, the filters' blur leaves only the middle of each ramp to check.
        var result = TiledFixtures.mismatches(frame, view: view, image: image.size, floor: 12)
        XCTAssertGreaterThan(result.checked, 20)
        XCTAssertEqual(result.count, 0, "fit: \(result.worst)")

        // 100 % on the top-left corner: full-size tiles of that corner and its margin, not of the image.
        harness.send(.mouseMotion(x: 0, y: 0, isLeftDown: false))
        harness.press("1")
        frame = try harness.runUntilSharp()
        XCTAssertEqual(view.deviceScale ?? 0, 1, accuracy: 1e-9)
        result = TiledFixtures.mismatches(frame, view: view, image: image.size, floor: 12)
        XCTAssertEqual(result.count, 0, "100 %: \(result.worst)")
        let full = view.heldTiles.filter { $0.level == geometry.maxLevel }
        XCTAssertFalse(full.isEmpty)
        XCTAssertLessThan(full.count, geometry.tileCount(geometry.maxLevel))
        for tile in full {
            let region = geometry.region(of: tile)
            XCTAssertLessThanOrEqual(region.width * region.height, 1024 * 1024, "\(tile)")
            XCTAssertLessThan(region.x, 320 + 1024, "\(tile) is far right of the view")
            XCTAssertLessThan(region.y, 240 + 1024, "\(tile) is far below the view")
        }
        XCTAssertEqual(harness.recorder.report().tilesFailed, 0)
    }

    /// Turned by its EXIF orientation, the photo's tiles are read from where they lie in the file.
    func testAnUprightPortraitShowsItsTilesInPlace() throws {
        let image = TiledFixtures.gradient(width: 1400, height: 2000)
        // Stored turned a quarter anticlockwise with orientation 6, which turns it back clockwise.
        let stored = ImageOrientation.rotated270.apply(to: image)
        var jpeg = try Data(contentsOf: URL(fileURLWithPath: try writeJPEG(stored, name: "stored.jpg")))
        jpeg = Data(jpeg.prefix(2)) + Self.exifOrientation6 + jpeg.dropFirst(2)
        let path = folder.appendingPathComponent("portrait.jpg").path
        try jpeg.write(to: URL(fileURLWithPath: path))

        let harness = try TiledViewHarness(path: path, width: 280, height: 400)
        var frame = try harness.runUntilSharp()
        XCTAssertTrue(harness.view.tileSource is JPEGRegionSource)
        XCTAssertEqual(harness.view.geometry?.width, 1400)
        var result = TiledFixtures.mismatches(frame, view: harness.view, image: image.size, floor: 12)
        XCTAssertEqual(result.count, 0, "fit: \(result.worst)")
        harness.send(.mouseMotion(x: 140, y: 200, isLeftDown: false))
        harness.press("1")
        frame = try harness.runUntilSharp()
        result = TiledFixtures.mismatches(frame, view: harness.view, image: image.size, floor: 12)
        XCTAssertEqual(result.count, 0, "100 %: \(result.worst)")
    }

    /// A progressive JPEG whose 1/8 scale is still larger than a tile is cut, as a giant is, and its cut
    /// starts only once the overview's decode is over: libjpeg holds all its coefficients for each of them.
    func testAProgressiveJPEGFarLargerThanTheScreenIsCutAfterItsOverview() throws {
        let path = try writeJPEG(TiledFixtures.gradient(width: 8400, height: 240), name: "progressive.jpg",
                                 progressive: true)
        let order = try openingOrder(path)
        XCTAssertEqual(order.first, "cutting", "\(order)")
        let overview = try XCTUnwrap(order.firstIndex(of: "overview 1050x30"), "\(order)")
        let cutStarts = try XCTUnwrap(order.firstIndex(of: "cut starts"), "\(order)")
        XCTAssertLessThan(overview, cutStarts, "the overview's decode is over before the cut's begins: \(order)")
        XCTAssertEqual(order.last, "cut finished", "\(order)")
    }

    /// A progressive JPEG within the rule is shown as one picture per level, with no cut to wait for.
    func testASmallerProgressiveJPEGIsShownWhole() throws {
        let path = try writeJPEG(TiledFixtures.gradient(width: 4000, height: 240), name: "progressive.jpg",
                                 progressive: true)
        XCTAssertEqual(try openingOrder(path), ["source SingleImageTileSource"])
    }

    /// What the opener delivers for `path`, in order, with "cut starts" where the cut takes its first step.
    private func openingOrder(_ path: String) throws -> [String] {
        var configuration = TiledImageOpener.Configuration(
            path: path, decoders: ImageDecoders.viewer, colour: nil, pixelLimit: 100_000_000,
            maxTextureSize: PixelSize(width: 0, height: 0),
            pyramidCache: TilePyramidCache(root: folder.appendingPathComponent("pyramids").path),
            diskCache: nil, policy: TilePyramidPolicy())
        // Each event is marked as the opener queues it, so the cut's first step falls where it happens.
        let marks = Mutex<[String]>([])
        configuration.cutStep = { marks.withLock { if !$0.contains("cut starts") { $0.append("cut starts") } } }
        let arrived = DispatchSemaphore(value: 0)
        let executor = WorkExecutor(.threads(1))
        let opener = TiledImageOpener(configuration, lane: SerialWorkLane(rank: .visible, on: executor),
                                      memoryBudget: nil) {
            marks.withLock { $0.append("event") }
            arrived.signal()
        }
        var events: [String] = []
        while events.last.map({ !["cut finished", "failed"].contains($0) && !$0.hasPrefix("source Single") }) ?? true {
            guard arrived.wait(timeout: .now() + 60) == .success else {
                XCTFail("the opener stopped after \(events)")
                break
            }
            events += opener.events.drain().compactMap(Self.describe)
        }
        var described = events.makeIterator()
        return marks.withLock { $0 }.compactMap { $0 == "event" ? described.next() : $0 }
    }

    /// An event as the order tests it; progress, which the cut queues without a call of `onEvent`, is left out.
    private static func describe(_ event: TiledOpenEvent) -> String? {
        switch event {
        case .source(let source, _): "source \(type(of: source))"
        case .cutting: "cutting"
        case .cutFinished: "cut finished"
        case .overview(let pixels): "overview \(pixels.width)x\(pixels.height)"
        case .progress: nil
        case .failed: "failed"
        case .animated: "animated"
        }
    }

    /// An APP1 segment holding a little-endian TIFF whose one IFD entry is Orientation = 6.
    private static let exifOrientation6 = Data([
        0xFF, 0xE1, 0x00, 0x22, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00,  // APP1, length 34, "Exif\0\0"
        0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00,              // "II", 42, IFD at 8
        0x01, 0x00,                                                  // one entry
        0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x06, 0x00, 0x00, 0x00,  // 0x0112 SHORT 1 = 6
        0x00, 0x00, 0x00, 0x00,                                      // no next IFD
    ])
}
