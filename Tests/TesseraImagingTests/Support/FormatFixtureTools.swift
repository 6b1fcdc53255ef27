import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// The picture the format tests encode, and the Debian encoders (heif-enc, cjxl, tiffcp, ...) that turn
/// it into files: four quadrants in distinct colours, so a mirrored, rotated or channel-swapped decode is
/// caught. A test whose tool is missing is skipped with the package to install (`make test` installs them).
enum FormatFixtureTools {
    static let topLeft = RGBA(r: 220, g: 30, b: 30)
    static let topRight = RGBA(r: 30, g: 200, b: 40)
    static let bottomLeft = RGBA(r: 40, g: 50, b: 210)
    static let bottomRight = RGBA(r: 240, g: 230, b: 60)
    static let upright = [topLeft, topRight, bottomLeft, bottomRight]

    static func quadrants(width: Int = 64, height: Int = 48, alpha: UInt8 = 255) -> PixelBuffer {
        var buffer = PixelBuffer(width: width, height: height, filledWith: topLeft)
        for y in 0..<height {
            for x in 0..<width {
                let c = y < height / 2 ? (x < width / 2 ? topLeft : topRight) : (x < width / 2 ? bottomLeft : bottomRight)
                let i = (y * width + x) * 4
                buffer.bytes[i] = c.b; buffer.bytes[i + 1] = c.g; buffer.bytes[i + 2] = c.r; buffer.bytes[i + 3] = alpha
            }
        }
        return buffer
    }

    /// The quadrants as a PNG at `path` (Tessera's own writer).
    static func writeQuadrantsPNG(to path: String, width: Int = 64, height: Int = 48, alpha: UInt8 = 255) throws {
        try PNGEncoder.write(quadrants(width: width, height: height, alpha: alpha), to: path)
    }

    /// Runs `tool` (looked up in /usr/bin) with `arguments`; skips the test when it is not installed, fails
    /// it when the tool fails.
    static func run(_ tool: String, _ arguments: [String], package: String,
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let url = URL(fileURLWithPath: "/usr/bin/\(tool)")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw XCTSkip("\(tool) is not installed (Debian package \(package))")
        }
        let run = try ChildProcess.run(url.path, arguments)
        guard run.status == 0 else {
            XCTFail("\(tool) \(arguments.joined(separator: " ")) failed: \(run.stderr)", file: file, line: line)
            throw XCTSkip("fixture not made")
        }
    }

    /// Samples the middle of each quadrant: top-left, top-right, bottom-left, bottom-right.
    static func assertQuadrants(_ image: PixelBuffer, _ expected: [RGBA] = upright, tolerance: Int, _ what: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        let w = image.width, h = image.height
        let points = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)]
        for ((x, y), want) in zip(points, expected) {
            let got = image.pixel(x: x, y: y)
            XCTAssertTrue(got.isClose(to: want, tolerance: tolerance), "\(what) at \(x),\(y): \(got), expected \(want)",
                          file: file, line: line)
        }
    }

    /// `data` with every occurrence of the 4-byte box or chunk `type` followed by `count` big-endian 32-bit
    /// fields (after `skip` bytes) set to `value`: a file whose header claims another size.
    static func patchingFields(after type: String, skip: Int, count: Int, to value: UInt32, in data: Data) -> Data {
        var bytes = [UInt8](data)
        let tag = Array(type.utf8)
        var i = 0
        while i + tag.count <= bytes.count {
            if bytes[i..<(i + tag.count)].elementsEqual(tag) {
                var p = i + tag.count + skip
                for _ in 0..<count where p + 4 <= bytes.count {
                    bytes[p] = UInt8(value >> 24); bytes[p + 1] = UInt8(value >> 16 & 0xFF)
                    bytes[p + 2] = UInt8(value >> 8 & 0xFF); bytes[p + 3] = UInt8(value & 0xFF)
                    p += 4
                }
            }
            i += 1
        }
        return Data(bytes)
    }
}
