import Foundation
import XCTest
@testable import TesseraCore
@testable import TesseraImaging
@testable import TesseraUI

/// Measurement reaches the viewer only through its observer: a run without a report has none anywhere,
/// and a run with one still fills every field of the report.
final class ViewerMeasurementTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-measure-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    /// Three opaque images, a transparent one (its cell makes its texture inside a frame) and a file that
    /// is not an image; the script opens the second image alone, then (unless `staysAlone`) goes back to
    /// the strip.
    private func options(report: ReportOptions?, staysAlone: Bool = false) throws -> ViewerOptions {
        var paths: [String] = []
        for (index, colour) in [RGBA(r: 200, g: 40, b: 40), RGBA(r: 40, g: 200, b: 40), RGBA(r: 40, g: 40, b: 200)].enumerated() {
            let path = folder.appendingPathComponent("p\(index).png").path
            try PNGWriter.write(PixelBuffer(width: 800, height: 600, filledWith: colour), to: path)
            paths.append(path)
        }
        let clear = folder.appendingPathComponent("p3.png").path
        try PNGWriter.write(PixelBuffer(width: 300, height: 200, filledWith: RGBA(r: 200, g: 200, b: 40, a: 100)), to: clear)
        let broken = folder.appendingPathComponent("p4.jpg").path
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: broken))
        var options = ViewerOptions(items: (paths + [clear, broken]).map { CarouselItem(path: $0) })
        options.headless = true
        options.useThumbnailCache = false
        // Every picture fades in, however soon it lands, so the report has fades to count.
        options.carousel.quickArrival = .zero
        let back = staysAlone ? "" : "key escape\nwait 0.05\nwait-idle\n"
        options.script = try InputScript.parse("wait-idle\nkey right\nwait 0.3\nkey enter\nwait 0.05\nwait-idle\n" + back)
        options.report = report
        return options
    }

    func testARunWithoutAReportHasNoObserverAnywhere() throws {
        let viewer = try Viewer(options: try options(report: nil, staysAlone: true))
        XCTAssertNil(viewer.recorder)
        XCTAssertNil(viewer.parts.observer)
        XCTAssertNil(viewer.parts.carouselView.observer)
        XCTAssertNil(viewer.parts.pipeline.observation)
        XCTAssertNil(try viewer.run())
        // The single view the script opened, and its tiles' pipeline: without an observer too.
        let detail = try XCTUnwrap(viewer.modes.detail)
        XCTAssertNotNil(detail.geometry, "its pyramid is open")
        XCTAssertNil(detail.observer)
        XCTAssertNil(detail.tilePipelineObservation)
    }

    func testAMeasuredRunFillsEveryField() throws {
        let reportPath = folder.appendingPathComponent("run.json").path
        let viewer = try Viewer(options: try options(report: ReportOptions(path: reportPath, frameTimes: true)))
        XCTAssertNotNil(viewer.parts.carouselView.observer)
        XCTAssertNotNil(viewer.parts.pipeline.observation)
        let report = try XCTUnwrap(try viewer.run())
        XCTAssertGreaterThan(report.frames, 30)
        XCTAssertGreaterThan(report.frameMs.p50, 0)
        XCTAssertGreaterThanOrEqual(report.frameMs.max, report.frameMs.p99)
        XCTAssertEqual(report.frameTimes?.count, report.frames)
        XCTAssertEqual(report.frameTimes?.reduce(0) { $0 + $1[2] }, Double(report.placeholderCellFrames))
        XCTAssertEqual(report.items, 5)
        XCTAssertEqual(report.errors.map(\.item), [folder.appendingPathComponent("p4.jpg").path])
        XCTAssertGreaterThanOrEqual(report.decodes, 5)
        XCTAssertEqual(report.mainThreadDecodes, 0)
        XCTAssertGreaterThan(report.decodedBytes, 0)
        XCTAssertGreaterThan(report.cache.misses, 0)
        XCTAssertEqual(report.cache.costLimitBytes, 256 << 20)
        XCTAssertGreaterThan(report.cellsCreated, 0)
        XCTAssertGreaterThan(report.placeholderCellFrames, 0)
        XCTAssertGreaterThan(report.visibleCellFrames, report.placeholderCellFrames)
        XCTAssertGreaterThan(report.fadingFrames, 0)
        XCTAssertGreaterThan(report.cellTexturesMadeInFrames, 0)
        XCTAssertGreaterThan(report.uploadBytes, 0)
        XCTAssertEqual(report.strategy, "adaptive")
        XCTAssertEqual(report.videoDriver, "dummy")
        XCTAssertEqual(report.pixelScale, 1)
        XCTAssertGreaterThan(report.peakRSSBytes, 0)
        XCTAssertEqual(report.fileChanges, 0)
        // The single view the script opened.
        XCTAssertNotNil(report.tilesRequested)
        XCTAssertNotNil(report.tilesDecoded)
        XCTAssertNotNil(report.tilesCancelled)
        XCTAssertNotNil(report.tilesFailed)
        XCTAssertNotNil(report.firstFrameMs)
        XCTAssertNotNil(report.sharpMs)
        XCTAssertEqual(report.holeFrames, 0)
        XCTAssertNil(report.movingFrameMs, "the strip does not single out moving frames")
        XCTAssertNil(report.downloads)
        // The file says the same.
        let written = try JSONDecoder().decode(RunReport.self, from: Data(contentsOf: URL(fileURLWithPath: reportPath)))
        XCTAssertEqual(written.frames, report.frames)
        XCTAssertEqual(written.frameTimes?.count, report.frames)
        XCTAssertEqual(written.uploadBytes, report.uploadBytes)
    }

    /// The report names the driver the window was made with and the scale it drew at, under the names
    /// the benchmarks read.
    func testTheReportCarriesTheVideoDriverAndTheForcedPixelScale() throws {
        let reportPath = folder.appendingPathComponent("scaled.json").path
        var options = try options(report: ReportOptions(path: reportPath, frameTimes: false))
        options.script = nil
        options.frameLimit = 5
        options.pixelScale = 2
        let report = try XCTUnwrap(try Viewer(options: options).run())
        XCTAssertEqual(report.videoDriver, "dummy")
        XCTAssertEqual(report.pixelScale, 2)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: reportPath)))
            as? [String: Any])
        XCTAssertEqual(json["video_driver"] as? String, "dummy")
        XCTAssertEqual(json["pixel_scale"] as? Double, 2)
    }
}
