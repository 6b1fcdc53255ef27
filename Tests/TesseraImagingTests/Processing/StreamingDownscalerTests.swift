import XCTest
@testable import TesseraCore
@testable import TesseraImaging

final class StreamingDownscalerTests: XCTestCase {
    private func noise(_ w: Int, _ h: Int, seed: UInt64) -> PixelBuffer {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for i in 0..<bytes.count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            bytes[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return PixelBuffer(width: w, height: h, bytes: bytes)
    }

    func testRowByRowGivesExactlyWhatTheWholeBufferScalerGives() {
        for (source, target) in [((97, 61), (40, 25)), ((640, 480), (400, 300)), ((333, 1000), (33, 100)),
                                 ((50, 50), (50, 50)), ((7, 1), (3, 1)), ((1, 9), (1, 2)), ((1000, 3), (1, 1))] {
            let image = noise(source.0, source.1, seed: UInt64(source.0 * 31 + source.1))
            let scaler = StreamingDownscaler(from: image.size, to: PixelSize(width: target.0, height: target.1))
            image.bytes.withUnsafeBufferPointer { all in
                for y in 0..<image.height {
                    scaler.consume(row: UnsafeBufferPointer(rebasing: all[(y * image.bytesPerRow)..<((y + 1) * image.bytesPerRow)]))
                }
            }
            let expected = PixelScaler.scaled(image, to: PixelSize(width: target.0, height: target.1))
            XCTAssertEqual(scaler.result().bytes, expected.bytes, "\(source) -> \(target)")
        }
    }
}
