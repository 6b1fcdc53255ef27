import TesseraCore
import TesseraImaging
import XCTest

/// The orientation group checked against pixels: the composition table must agree with what `apply`
/// does (itself checked against hand-written expectations in OrientationTests), for every pair.
final class OrientationTurnTests: XCTestCase {
    /// 3x2, every pixel different, so any two different transforms give different buffers.
    private let stored = PixelBuffer(width: 3, height: 2, bytes: (0..<6).flatMap { [UInt8($0), 0, 0, 255] })

    func testEveryOrientationFollowedByEveryOtherMatchesThePixels() {
        for first in ImageOrientation.allCases {
            for second in ImageOrientation.allCases {
                let expected = second.apply(to: first.apply(to: stored))
                let composed = first.followed(by: second)
                XCTAssertEqual(pixels(composed.apply(to: stored)), pixels(expected), "\(first) then \(second) gave \(composed)")
            }
        }
    }

    func testEveryTurnOfEveryOrientationShowsThePictureTurned() {
        // The turn applied to what is shown, written independently of the table: a right turn of what
        // the screen shows is the clockwise turn of those pixels, and so on.
        for orientation in ImageOrientation.allCases {
            let shown = orientation.apply(to: stored)
            for turn in OrientationTurn.allCases {
                let expected = switch turn {
                case .rotateRight: ImageOrientation.rotated90.apply(to: shown)
                case .rotateLeft: ImageOrientation.rotated270.apply(to: shown)
                case .flipHorizontal: ImageOrientation.mirrored.apply(to: shown)
                case .flipVertical: ImageOrientation.mirroredVertically.apply(to: shown)
                }
                let turned = orientation.turned(turn)
                XCTAssertEqual(pixels(turned.apply(to: stored)), pixels(expected), "\(orientation) turned \(turn) gave \(turned)")
                XCTAssertEqual(turned.apply(to: stored).size, expected.size)
            }
        }
    }

    func testInversesUndo() {
        for orientation in ImageOrientation.allCases {
            XCTAssertEqual(orientation.followed(by: orientation.inverse), .up, "\(orientation)")
            XCTAssertEqual(orientation.inverse.followed(by: orientation), .up, "\(orientation)")
            XCTAssertEqual(pixels(orientation.inverse.apply(to: orientation.apply(to: stored))), pixels(stored))
            for turn in OrientationTurn.allCases {
                XCTAssertEqual(orientation.turned(turn).turned(turn.inverse), orientation, "\(orientation) \(turn)")
            }
        }
    }

    func testFourQuarterTurnsAndTwoFlipsComeBack() {
        for orientation in ImageOrientation.allCases {
            var right = orientation, left = orientation
            var seen: Set<ImageOrientation> = []
            for _ in 0..<4 {
                right = right.turned(.rotateRight)
                left = left.turned(.rotateLeft)
                seen.insert(right)
            }
            XCTAssertEqual(right, orientation)
            XCTAssertEqual(left, orientation)
            XCTAssertEqual(seen.count, 4, "four right turns pass through four different orientations")
            XCTAssertEqual(orientation.turned(.flipHorizontal).turned(.flipHorizontal), orientation)
            XCTAssertEqual(orientation.turned(.flipVertical).turned(.flipVertical), orientation)
            // Both flips make a half turn.
            XCTAssertEqual(orientation.turned(.flipHorizontal).turned(.flipVertical), orientation.turned(.rotateRight).turned(.rotateRight))
        }
    }

    func testTheEXIFValuesAUserMeets() {
        // A phone's portrait photo (6) turned left is upright; an upright one turned right is 6.
        XCTAssertEqual(ImageOrientation.rotated90.turned(.rotateLeft), .up)
        XCTAssertEqual(ImageOrientation.up.turned(.rotateRight), .rotated90)
        XCTAssertEqual(ImageOrientation.up.turned(.rotateLeft), .rotated270)
        XCTAssertEqual(ImageOrientation.up.turned(.flipHorizontal), .mirrored)
        XCTAssertEqual(ImageOrientation.rotated90.turned(.flipHorizontal), .transposed)
    }

    private func pixels(_ buffer: PixelBuffer) -> [Int] {
        [buffer.width, buffer.height] + stride(from: 0, to: buffer.bytes.count, by: 4).map { Int(buffer.bytes[$0]) }
    }
}
