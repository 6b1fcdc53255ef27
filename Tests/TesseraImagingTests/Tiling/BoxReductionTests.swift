import Foundation
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

final class BoxReductionTests: XCTestCase {
    func testMatchesTheNaiveRoundedMeanForEveryWidth() {
        var generator = SystemRandomNumberGenerator()
        for width in 1...19 {
            let upper = (0..<(width * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let lower = (0..<(width * 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let outWidth = (width + 1) / 2
            var out = [UInt8](repeating: 0, count: outWidth * 4 + 4)
            upper.withUnsafeBytes { u in
                lower.withUnsafeBytes { l in
                    out.withUnsafeMutableBytes { o in
                        BoxReduction.halveRows(u.baseAddress!, l.baseAddress!, sourceWidth: width, into: o.baseAddress!)
                    }
                }
            }
            for x in 0..<outWidth {
                let x1 = min(2 * x + 1, width - 1)
                for c in 0..<4 {
                    let sum = Int(upper[2 * x * 4 + c]) + Int(upper[x1 * 4 + c]) + Int(lower[2 * x * 4 + c]) + Int(lower[x1 * 4 + c])
                    XCTAssertEqual(Int(out[x * 4 + c]), (sum + 2) >> 2, "width \(width) x \(x) channel \(c)")
                }
            }
            XCTAssertEqual(out[outWidth * 4], 0, "nothing written past the row")
        }
    }

    func testExtremesDoNotOverflow() {
        let white = [UInt8](repeating: 255, count: 8 * 4)
        var out = [UInt8](repeating: 0, count: 4 * 4)
        white.withUnsafeBytes { w in
            out.withUnsafeMutableBytes { BoxReduction.halveRows(w.baseAddress!, w.baseAddress!, sourceWidth: 8, into: $0.baseAddress!) }
        }
        XCTAssertEqual(out, [UInt8](repeating: 255, count: 16))
    }
}
