import Foundation
import TesseraCore
import TesseraImaging
import TesseraTestSupport
import XCTest

/// `--no-colour-management` as a user meets it: a photo tagged with a wide-gamut profile is shown
/// converted by default and as decoded with the flag, in the strip and in the single view.
final class ColourManagementTests: XCTestCase {
    private var folder: URL!
    /// Saturated green, whose Adobe RGB and sRGB renderings are far apart.
    private let colour = RGBA(r: 20, g: 200, b: 60)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-colour-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    private static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let run = try ChildProcess.run(executable, arguments, environment: [
            "SDL_VIDEODRIVER": "dummy", "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        return (run.status, run.stderr)
    }

    /// A solid WebP of `colour` carrying Ghostscript's Adobe RGB profile.
    private func taggedPhoto() throws -> String {
        let profile = "/usr/share/color/icc/ghostscript/a98.icc"
        guard FileManager.default.fileExists(atPath: profile) else { throw XCTSkip("\(profile) is missing: install libgs-common") }
        guard let cwebp = Self.tool("cwebp"), let webpmux = Self.tool("webpmux") else { throw XCTSkip("cwebp and webpmux are missing") }
        let png = folder.appendingPathComponent("solid.png")
        try PNGEncoder.encode(PixelBuffer(width: 96, height: 72, filledWith: colour), effort: .fast).write(to: png)
        let plain = folder.appendingPathComponent("plain.webp").path
        let tagged = folder.appendingPathComponent("adobe.webp").path
        XCTAssertEqual(try run(cwebp, ["-quiet", "-lossless", "-exact", png.path, "-o", plain]).status, 0)
        XCTAssertEqual(try run(webpmux, ["-set", "icc", profile, plain, "-o", tagged]).status, 0)
        return tagged
    }

    /// How many pixels of the screenshot at `path` are within 2 levels of `colour`.
    private func count(_ colour: RGBA, in path: URL) throws -> Int {
        let shot = try ImageLoader(decoders: ImageDecoders.standard(), colour: nil).load(path: path.path, fitting: nil)
        var found = 0
        for y in 0..<shot.height { for x in 0..<shot.width where shot.pixel(x: x, y: y).isClose(to: colour, tolerance: 2) { found += 1 } }
        return found
    }

    func testTaggedPhotosAreConvertedUnlessColourManagementIsOff() throws {
        let photo = try taggedPhoto()
        let converted = try ImageLoader(decoders: ImageDecoders.standard()).load(path: photo, fitting: nil).pixel(x: 5, y: 5)
        XCTAssertFalse(converted.isClose(to: colour, tolerance: 10), "the profile must matter: \(converted)")
        let binary = BuiltBinary.url(named: "tessera").path
        for (command, extra) in [("browse", ["--no-thumbnail-cache", "--fade", "0"]), ("view", ["--fade", "0"])] {
            for managed in [true, false] {
                let shot = folder.appendingPathComponent("\(command)-\(managed).png")
                let arguments = [command, photo, "--headless", "--frames", "20", "--screenshot", shot.path] + extra
                    + (managed ? [] : ["--no-colour-management"])
                let result = try run(binary, arguments)
                XCTAssertEqual(result.status, 0, result.stderr)
                let shown = try count(managed ? converted : colour, in: shot)
                let other = try count(managed ? colour : converted, in: shot)
                XCTAssertGreaterThan(shown, 1000, "\(command), managed \(managed): the photo is not shown as expected")
                XCTAssertEqual(other, 0, "\(command), managed \(managed)")
            }
        }
    }
}
