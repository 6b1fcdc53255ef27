import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest
@testable import TesseraBench

/// `ThumbsBench` over JPEG samples (TurboJPEG only, so no SDL): every file is counted in every pass, the
/// median pass is reported, and each cache mode runs without touching the user's cache.
final class ThumbsBenchTests: XCTestCase {
    private let files = ["img1-baseline.jpg", "img2-portrait.jpg", "img12-gray.jpg", "img25-small.jpg"]
        .map { SampleImages.url($0).path }

    func testEveryPassThumbnailsEveryFileAndTheMedianPassIsReported() throws {
        let report = try ThumbsBench(files: files, size: 128, workers: 2, runs: 3)
            .run(loader: ImageLoader(decoders: ImageDecoders.standard()))
        XCTAssertEqual(report.runs.count, 3)
        XCTAssertEqual(report.result.wallSeconds, report.runs.sorted()[1], "the median of three")
        XCTAssertEqual(report.result.files, 4)
        XCTAssertEqual(report.result.failures, [])
        XCTAssertFalse(report.everyFileFailed)
        XCTAssertGreaterThan(report.result.thumbnailsPerSecond, 0)
        XCTAssertLessThanOrEqual(report.result.imageMs.p50, report.result.imageMs.max)
        XCTAssertNil(report.quality)
        XCTAssertTrue(report.text.hasPrefix("4 files to 128 px, 2 workers, thumbnail cache: none\n"), report.text)
    }

    func testCacheModesAndQuality() throws {
        let loader = ImageLoader(decoders: ImageDecoders.standard())
        for mode in ThumbnailCacheMode.allCases {
            let report = try ThumbsBench(files: files, size: 128, workers: 2, cache: mode).run(loader: loader)
            XCTAssertEqual(report.cache, mode)
            XCTAssertEqual(report.result.failures, [], "\(mode)")
        }
        let report = try ThumbsBench(files: files, size: 128, workers: 2, measuresQuality: true).run(loader: loader)
        let jpeg = try XCTUnwrap(report.quality?.first { $0.format == "JPEG" })
        XCTAssertGreaterThanOrEqual(jpeg.files, 3, "the photos shrink while decoding, so they differ from a full decode")
        XCTAssertGreaterThan(jpeg.minimumDB, 25, "DCT scaling stays close to a full decode")
        XCTAssertLessThanOrEqual(jpeg.minimumDB, jpeg.medianDB)
        XCTAssertTrue(report.text.contains("JPEG: PSNR vs full decode + same scaler over \(jpeg.files) files"), report.text)
    }

    func testAFileThatFailsIsListed() throws {
        let report = try ThumbsBench(files: files + ["/no/such/file.jpg"], size: 64, workers: 1)
            .run(loader: ImageLoader(decoders: ImageDecoders.standard()))
        XCTAssertEqual(report.result.failures.count, 1)
        XCTAssertTrue(report.text.contains("1 failed:\n  "), report.text)
        XCTAssertFalse(report.everyFileFailed)
    }
}
