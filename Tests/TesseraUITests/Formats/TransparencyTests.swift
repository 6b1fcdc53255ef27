import Foundation
import TesseraCore
import TesseraImaging
import TesseraUI
import XCTest

/// Transparent images are shown over the neutral grey backdrop the strip draws under every image, not
/// over black (which is what a texture without blending, or a premultiplication bug, would give).
final class TransparencyTests: XCTestCase {
    func testHalfTransparentImageIsBlendedOverNeutralGrey() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-alpha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("half.png").path
        FormatFixtures.png(.rgba8, width: 200, height: 150, alpha: 128, to: image)

        var options = ViewerOptions(items: [CarouselItem(path: image)])
        options.headless = true
        options.screenshotPath = folder.appendingPathComponent("frame.png").path
        _ = try Viewer(options: options).run()
        let frame = try PNGDecoder().decode(try Data(contentsOf: URL(fileURLWithPath: options.screenshotPath!)),
                                                 format: .png, targetSize: nil)

        // Each quadrant colour at alpha 128 over the backdrop (52, 52, 58), and over black for contrast.
        let backdrop = RGBA(r: 52, g: 52, b: 58)
        func over(_ c: RGBA, _ under: RGBA) -> RGBA {
            func mix(_ top: UInt8, _ bottom: UInt8) -> UInt8 { UInt8((Double(top) * 128 + Double(bottom) * 127) / 255) }
            return RGBA(r: mix(c.r, under.r), g: mix(c.g, under.g), b: mix(c.b, under.b))
        }
        let colours = [FormatFixtures.topLeft, FormatFixtures.topRight, FormatFixtures.bottomLeft, FormatFixtures.bottomRight]
        for colour in colours {
            let onGrey = over(colour, backdrop), onBlack = over(colour, RGBA(r: 0, g: 0, b: 0))
            var grey = 0, black = 0
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    let p = frame.pixel(x: x, y: y)
                    if p.isClose(to: onGrey, tolerance: 3) { grey += 1 }
                    if p.isClose(to: onBlack, tolerance: 3) { black += 1 }
                }
            }
            // A quadrant is 100x75 = 7500 pixels.
            XCTAssertGreaterThan(grey, 7000, "\(colour) blended over neutral grey \(onGrey)")
            XCTAssertEqual(black, 0, "\(colour) must not look blended over black \(onBlack)")
        }
    }
}
