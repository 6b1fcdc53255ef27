import TesseraCore
import XCTest
@testable import TesseraBench

/// PSNR as `bench thumbs --quality` reports it: over the colour channels only, infinite for identical
/// images.
final class ScaledDecodeQualityTests: XCTestCase {
    func testIdenticalImagesAreInfinitelyClose() {
        let a = PixelBuffer(width: 4, height: 3, filledWith: RGBA(r: 10, g: 20, b: 30))
        XCTAssertEqual(ScaledDecodeQuality.psnr(a, a), .infinity)
    }

    func testOneLevelOffInEveryChannelIs48Decibels() {
        let a = PixelBuffer(width: 4, height: 3, filledWith: RGBA(r: 10, g: 20, b: 30, a: 255))
        // Alpha differs too, and is left out.
        let b = PixelBuffer(width: 4, height: 3, filledWith: RGBA(r: 11, g: 19, b: 31, a: 0))
        XCTAssertEqual(ScaledDecodeQuality.psnr(a, b), 10 * log10(255.0 * 255.0), accuracy: 1e-9)
    }
}
