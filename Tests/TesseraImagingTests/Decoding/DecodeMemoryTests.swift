import Foundation
import TesseraCore
import XCTest
@testable import TesseraImaging

final class DecodeMemoryTests: XCTestCase {
    private let cell = PixelSize(width: 400, height: 300)

    /// A 5120x2880 HEIC decoded for a cell is estimated at its libraries' whole-frame working memory; the
    /// same photo as a JPEG, which TurboJPEG shrinks on load, at a few megabytes.
    func testLibrariesThatDecodeWholeFramesCostMoreThanThoseThatShrinkOnLoad() {
        let photo = PixelSize(width: 5120, height: 2880)
        func estimate(_ format: ImageFormat) -> Int {
            DecodeMemory.estimate(header: ImageHeader(format: format, width: photo.width, height: photo.height),
                                  fileBytes: 2 << 20, fitting: cell)
        }
        XCTAssertLessThan(estimate(.jpeg), 8 << 20)
        XCTAssertLessThan(estimate(.png), 8 << 20)
        XCTAssertGreaterThan(estimate(.heif), 128 << 20)
        XCTAssertGreaterThan(estimate(.avif), estimate(.heif))
        XCTAssertGreaterThan(estimate(.jxl), estimate(.avif))
        // Two HEIC decodes of this size together pass the default 256 MB budget, so they run one at a time.
        XCTAssertGreaterThan(2 * estimate(.heif), 256 << 20)
    }

    func testFullSizeCostsTheWholeOutput() {
        let header = ImageHeader(format: .jpeg, width: 4000, height: 3000)
        XCTAssertGreaterThanOrEqual(DecodeMemory.estimate(header: header, fileBytes: 0, fitting: nil), 4000 * 3000 * 4)
        XCTAssertLessThan(DecodeMemory.estimate(header: header, fileBytes: 0, fitting: cell), 4000 * 3000)
    }

    func testTheEstimateOfAFileReadsItsHeader() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decode-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let gif = folder.appendingPathComponent("wide.gif").path
        let data = TestHeaders.gif(width: 4000, height: 3000)
        try data.write(to: URL(fileURLWithPath: gif))
        XCTAssertEqual(DecodeMemory.estimate(path: gif, fitting: cell),
                       DecodeMemory.estimate(header: ImageHeader(format: .gif, width: 4000, height: 3000),
                                             fileBytes: data.count, fitting: cell))
        XCTAssertGreaterThan(DecodeMemory.estimate(path: gif, fitting: cell), 4000 * 3000 * 5)
        XCTAssertEqual(DecodeMemory.estimate(path: folder.appendingPathComponent("missing.gif").path, fitting: cell), 0)
    }
}
