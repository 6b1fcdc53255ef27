import CLCMS2
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// Embedded profiles through the loader: JPEG APP2, PNG iCCP and WebP ICCP images come out as the
/// colour-managed reference (lcms2 applied to the same pixels by the test) within half a level, untagged
/// images are not touched, and colour management off leaves tagged pixels as decoded.
final class ColourLoadingTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private let image = ColourFixtures.colourful(width: 240, height: 160)
    private let box = PixelSize(width: 60, height: 60)

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private func loader(_ colour: ColourConversion?) -> ImageLoader {
        ImageLoader(decoders: ImageDecoders.standard(), colour: colour)
    }

    private func conversion(manager: ColourManager = ColourManager(), log: CapturedLog = CapturedLog(),
                            display: [UInt8]? = nil) -> ColourConversion {
        ColourConversion(displayProfile: display, manager: manager, logger: log.logger)
    }

    /// The untagged JPEG, and the same bytes with `profile` embedded.
    private func jpegs(_ profile: [UInt8], chunkSize: Int = 65519, order: (([Int]) -> [Int])? = nil) throws -> (plain: String, tagged: String) {
        let plain = TestJPEG.encode(.bgra(image), quality: 95)
        let name = UUID().uuidString
        return (try dir.write(plain, to: "\(name)-plain.jpg"),
                try dir.write(ColourFixtures.jpeg(plain, withICC: profile, chunkSize: chunkSize, order: order), to: "\(name)-p3.jpg"))
    }

    /// Checks the tagged file against lcms2 applied to the untagged file's pixels, at full size and
    /// shrunk to `box` (where the loader converts after shrinking: the reference is converted after the
    /// same shrink, and the whole-size conversion shrunk is within the issue's 1.5 levels too).
    private func assertManaged(plain: String, tagged: String, profile: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws {
        let raw = try loader(nil).load(path: plain, fitting: nil)
        let reference = ColourFixtures.reference(raw, from: profile)
        let ours = try loader(conversion()).load(path: tagged, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5, file: file, line: line)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(raw, reference), 3, "the profile must matter", file: file, line: line)

        let small = try loader(conversion()).load(path: tagged, fitting: box)
        let rawSmall = try loader(nil).load(path: plain, fitting: box)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, ColourFixtures.reference(rawSmall, from: profile)), 0.5,
                          file: file, line: line)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(small, PixelScaler.fit(reference, in: box)), 1.5,
                          file: file, line: line)
    }

    func testDisplayP3JPEGMatchesTheColourManagedReference() throws {
        let (plain, tagged) = try jpegs(ColourFixtures.displayP3)
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3)
    }

    func testICCChunksAreReassembledInTheirNumberedOrder() throws {
        // Three APP2 segments, stored last first: the sequence numbers, not the file order, count.
        let (plain, tagged) = try jpegs(ColourFixtures.displayP3, chunkSize: ColourFixtures.displayP3.count / 3 + 1,
                                        order: { $0.reversed() })
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3)
    }

    func testDisplayP3PNGMatchesTheColourManagedReference() throws {
        let tagged = ColourFixtures.png(image, iccProfile: ColourFixtures.displayP3, in: dir, name: "p3.png")
        let plain = try dir.write(TilingFixtures.png(image, channels: .rgba), to: "plain.png")
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3)
    }

    func testDisplayP3WebPMatchesTheColourManagedReference() throws {
        guard let cwebp = Self.tool("cwebp"), let webpmux = Self.tool("webpmux") else {
            throw XCTSkip("cwebp and webpmux are not installed (the webp package; make test-deps installs it)")
        }
        let source = try dir.write(TilingFixtures.png(image, channels: .rgba), to: "source.png")
        let plain = dir.path("plain.webp"), tagged = dir.path("p3.webp")
        let icc = try dir.write(Data(ColourFixtures.displayP3), to: "p3.icc")
        try Self.run(cwebp, ["-quiet", "-lossless", "-exact", source, "-o", plain])
        try Self.run(webpmux, ["-set", "icc", icc, plain, "-o", tagged])
        try assertManaged(plain: plain, tagged: tagged, profile: ColourFixtures.displayP3)
    }

    func testGreyJPEGWithAGreyProfile() throws {
        let greys = (0..<(64 * 16)).map { UInt8($0 % 256) }
        let plainData = TestJPEG.encode(.gray(width: 64, height: 16, bytes: greys))
        let plain = try dir.write(plainData, to: "grey.jpg")
        let tagged = try dir.write(ColourFixtures.jpeg(plainData, withICC: ColourFixtures.greyGamma22), to: "grey-g22.jpg")
        let raw = try loader(nil).load(path: plain, fitting: nil)
        let ours = try loader(conversion()).load(path: tagged, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, ColourFixtures.reference(raw, from: ColourFixtures.greyGamma22)), 0.5)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(ours, raw), 1, "gamma 2.2 is not the sRGB curve")
    }

    /// A profile with a perceptual table whose header asks for perceptual is converted with that table
    /// and black-point compensation, as lcms2 converts it; one whose header asks for relative colorimetric
    /// with its matrix and curves.
    func testTheIntentTheProfilesHeaderAsksForIsUsed() throws {
        let (plain, _) = try jpegs(ColourFixtures.sRGB)
        let pixels = try loader(nil).load(path: plain, fitting: nil)
        let perceptual = ColourFixtures.perceptualTableProfile(intent: UInt32(INTENT_PERCEPTUAL))
        let relative = ColourFixtures.perceptualTableProfile(intent: UInt32(INTENT_RELATIVE_COLORIMETRIC))
        let byTable = ColourFixtures.reference(pixels, from: perceptual, intent: UInt32(INTENT_PERCEPTUAL),
                                               flags: UInt32(cmsFLAGS_BLACKPOINTCOMPENSATION))
        let byMatrix = ColourFixtures.reference(pixels, from: relative)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(byTable, byMatrix), 3, "the table must matter")

        let asksPerceptual = try loader(conversion()).load(path: try jpegs(perceptual).tagged, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(asksPerceptual, byTable), 0.5, "perceptual, by the table")
        let asksRelative = try loader(conversion()).load(path: try jpegs(relative).tagged, fitting: nil)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(asksRelative, byMatrix), 0.5, "relative, by the matrix")
    }

    func testUntaggedImagesPassThroughUntouchedWithoutATransform() throws {
        let manager = ColourManager()
        let jpeg = try dir.write(TestJPEG.encode(.bgra(image)), to: "plain.jpg")
        let png = try dir.write(TilingFixtures.png(image, channels: .rgba), to: "plain.png")
        for path in [jpeg, png] {
            for fitting in [nil, box] {
                let managed = try loader(conversion(manager: manager)).load(path: path, fitting: fitting)
                let asDecoded = try loader(nil).load(path: path, fitting: fitting)
                XCTAssertTrue(managed.bytes == asDecoded.bytes, "\(path) at \(String(describing: fitting)) was changed")
            }
        }
        XCTAssertEqual(manager.transformsMade, 0)
        // An sRGB profile embedded is as good as none.
        let (_, sRGBTagged) = try jpegs(ColourFixtures.sRGB)
        XCTAssertTrue(try loader(conversion(manager: manager)).load(path: sRGBTagged, fitting: nil).bytes
                      == loader(nil).load(path: sRGBTagged, fitting: nil).bytes, "an sRGB-tagged image was changed")
    }

    func testColourManagementOffLeavesTaggedPixelsAsDecoded() throws {
        let (plain, tagged) = try jpegs(ColourFixtures.displayP3)
        let off = try loader(nil).load(path: tagged, fitting: nil)
        XCTAssertTrue(off.bytes == (try loader(nil).load(path: plain, fitting: nil).bytes), "colour management off changed pixels")
        // What it declares stays on the pixels, for whoever wants it.
        XCTAssertEqual(off.colourProfile, ColourFixtures.displayP3)
    }

    func testImagesSharingAProfileShareOneTransform() throws {
        let manager = ColourManager()
        let colour = conversion(manager: manager)
        for _ in 0..<3 {
            let (_, tagged) = try jpegs(ColourFixtures.displayP3)
            _ = try loader(colour).load(path: tagged, fitting: box)
        }
        XCTAssertEqual(manager.transformsMade, 1)
    }

    func testACorruptProfileGivesTheSRGBPixelsAndALogLineNotAnError() throws {
        var corrupt = ColourFixtures.displayP3
        corrupt.replaceSubrange(0..<corrupt.count / 2, with: repeatElement(0x5A, count: corrupt.count / 2))
        let (plain, tagged) = try jpegs(corrupt)
        let log = CapturedLog()
        let pixels = try loader(conversion(log: log)).load(path: tagged, fitting: nil)
        XCTAssertTrue(pixels.bytes == (try loader(nil).load(path: plain, fitting: nil).bytes), "not shown as sRGB")
        XCTAssertEqual(log.warnings.count, 1, "\(log.warnings)")
        XCTAssertTrue(log.warnings.first?.contains(tagged) == true, "\(log.warnings)")
    }

    func testOnAWideGamutDisplayBothTaggedAndUntaggedImagesAreConverted() throws {
        let colour = conversion(display: ColourFixtures.displayP3)
        let (plain, tagged) = try jpegs(ColourFixtures.displayP3)
        let raw = try loader(nil).load(path: plain, fitting: nil)
        // A P3 image on a P3 display: nothing to do.
        XCTAssertTrue(try loader(colour).load(path: tagged, fitting: nil).bytes == raw.bytes, "a P3 image on a P3 display was changed")
        // An untagged (sRGB) image on a P3 display is converted.
        let untagged = try loader(colour).load(path: plain, fitting: nil)
        let reference = ColourFixtures.reference(raw, from: nil, to: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(untagged, reference), 0.5)
    }

    // MARK: - Tools

    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/usr/local/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func run(_ tool: String, _ arguments: [String]) throws {
        let run = try ChildProcess.run(tool, arguments)
        guard run.status == 0 else {
            throw XCTSkip("\(tool) \(arguments.joined(separator: " ")) failed: \(run.stderr)")
        }
    }
}
