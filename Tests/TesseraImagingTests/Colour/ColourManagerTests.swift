import Foundation
import Synchronization
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// The colour manager over lcms2: transforms made once per profile and shared, profiles recognised as
/// sRGB, grey and code-point sources, and what it does with profiles it cannot use.
final class ColourManagerTests: XCTestCase {
    private let image = ColourFixtures.colourful(width: 61, height: 17, alpha: 200)

    private func converted(_ pixels: PixelBuffer, from source: ColourSpace, to destination: ColourSpace = .sRGB,
                           manager: ColourManager, log: CapturedLog = CapturedLog()) -> PixelBuffer {
        Self.converted(pixels, from: source, to: destination, manager: manager, log: log)
    }

    private static func converted(_ pixels: PixelBuffer, from source: ColourSpace, to destination: ColourSpace = .sRGB,
                           manager: ColourManager, log: CapturedLog = CapturedLog()) -> PixelBuffer {
        var pixels = pixels
        ColourConversion(destination: destination, manager: manager, logger: log.logger).convert(&pixels, from: source, name: "test")
        return pixels
    }

    func testDisplayP3ConvertsAsLCMS2DoesAndKeepsAlpha() {
        let manager = ColourManager()
        let ours = converted(image, from: .icc(ICCProfile(ColourFixtures.displayP3)), manager: manager)
        let reference = ColourFixtures.reference(image, from: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
        // The conversion matters: P3 values shown as sRGB are far off on these colours.
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(image, reference), 3)
        for i in stride(from: 3, to: ours.bytes.count, by: 4) { XCTAssertEqual(ours.bytes[i], 200) }
        XCTAssertNil(ours.colourProfile)
        XCTAssertEqual(manager.transformsMade, 1)
    }

    func testOneTransformPerProfileHoweverManyAskAtOnce() {
        let manager = ColourManager()
        let profile = ColourSpace(profile: ColourFixtures.displayP3)
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            guard case .transform = manager.lookup(from: profile, input: .bgra, to: .sRGB) else {
                return XCTFail("no transform for Display P3")
            }
        }
        XCTAssertEqual(manager.transformsMade, 1)
        // The same bytes in another array are the same profile.
        _ = manager.lookup(from: ColourSpace(profile: Array(ColourFixtures.displayP3)), input: .bgra, to: .sRGB)
        XCTAssertEqual(manager.transformsMade, 1)
        // Another destination is another transform.
        let wideDisplay = ColourSpace.codePoints(ColourCodePoints(primaries: 9, transfer: 13, matrix: 0, fullRange: true))
        _ = manager.lookup(from: profile, input: .bgra, to: wideDisplay)
        XCTAssertEqual(manager.transformsMade, 2)
    }

    func testSharedTransformGivesTheSamePixelsOnEveryThread() {
        let manager = ColourManager()
        let image = self.image
        let expected = converted(image, from: .icc(ICCProfile(ColourFixtures.displayP3)), manager: manager)
        let results = Mutex<[[UInt8]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let ours = Self.converted(image, from: .icc(ICCProfile(ColourFixtures.displayP3)), manager: manager)
            results.withLock { $0.append(ours.bytes) }
        }
        XCTAssertTrue(results.withLock { $0 } == Array(repeating: expected.bytes, count: 8), "threads disagree")
    }

    func testAnSRGBProfileNeedsNoConversionAndCostsNoCopy() {
        let manager = ColourManager()
        guard case .none = manager.lookup(from: ColourSpace(profile: ColourFixtures.sRGB), input: .bgra, to: .sRGB) else {
            return XCTFail("an sRGB profile is converted")
        }
        var pixels = image
        let before = pixels.bytes.withUnsafeBufferPointer { $0.baseAddress }
        ColourConversion(destination: .sRGB, manager: manager).convert(&pixels, from: ColourSpace(profile: ColourFixtures.sRGB), name: "t")
        XCTAssertTrue(pixels.bytes == image.bytes, "an sRGB profile changed pixels")
        XCTAssertEqual(pixels.bytes.withUnsafeBufferPointer { $0.baseAddress }, before, "the pixels were copied")
    }

    func testDisplayProfileThatIsSRGBCountsAsSRGBAndABrokenOneIsLogged() {
        let manager = ColourManager()
        XCTAssertEqual(ColourConversion(displayProfile: nil, manager: manager).destination, .sRGB)
        XCTAssertEqual(ColourConversion(displayProfile: ColourFixtures.sRGB, manager: manager).destination, .sRGB)
        XCTAssertEqual(ColourConversion(displayProfile: ColourFixtures.displayP3, manager: manager).destination,
                       .icc(ICCProfile(ColourFixtures.displayP3)))
        let log = CapturedLog()
        let broken = ColourConversion(displayProfile: Array(ColourFixtures.displayP3.prefix(100)), manager: manager, logger: log.logger)
        XCTAssertEqual(broken.destination, .sRGB)
        XCTAssertEqual(log.warnings.count, 1, "\(log.warnings)")
        // A grey profile cannot describe a colour display.
        XCTAssertEqual(ColourConversion(displayProfile: ColourFixtures.greyGamma22, manager: manager).destination, .sRGB)
    }

    func testUntaggedPixelsGoToANonSRGBDisplay() {
        let manager = ColourManager()
        let ours = converted(image, from: .sRGB, to: .icc(ICCProfile(ColourFixtures.displayP3)), manager: manager)
        let reference = ColourFixtures.reference(image, from: nil, to: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
        XCTAssertGreaterThan(ColourFixtures.meanAbsoluteDifference(ours, image), 3)
    }

    func testGreyProfileReadsTheGreyOfExpandedPixels() {
        var bytes: [UInt8] = []
        for level in 0..<256 { bytes += [UInt8(level), UInt8(level), UInt8(level), UInt8(255 - level)] }
        let greys = PixelBuffer(width: 16, height: 16, bytes: bytes)
        let ours = converted(greys, from: ColourSpace(profile: ColourFixtures.greyGamma22), manager: ColourManager())
        let reference = ColourFixtures.reference(greys, from: ColourFixtures.greyGamma22)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(ours, reference), 0.5)
        // Gamma 2.2 is darker than sRGB's curve in the middle: the profile was used.
        XCTAssertLessThan(Int(ours.pixel(x: 0, y: 4).r), 64)
        XCTAssertEqual(ours.pixel(x: 0, y: 4).a, 255 - 64, "alpha is left alone")
    }

    func testCodePointsForDisplayP3MatchTheICCProfile() {
        let manager = ColourManager()
        let p3 = ColourCodePoints(primaries: 12, transfer: 13, matrix: 0, fullRange: true)
        let fromCodePoints = converted(image, from: .codePoints(p3), manager: manager)
        let fromProfile = ColourFixtures.reference(image, from: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(fromCodePoints, fromProfile), 0.5)
        // BT.709 primaries with the sRGB curve is sRGB: nothing declared, nothing done.
        var pixels = image
        pixels.colourCodePoints = ColourCodePoints(primaries: 1, transfer: 13, matrix: 1, fullRange: false)
        XCTAssertEqual(pixels.declaredColourSpace, .sRGB)
    }

    func testUnknownPrimariesAndBrokenProfilesPassThroughWithOneLogLine() {
        let manager = ColourManager()
        let log = CapturedLog()
        let broken = ColourSpace(profile: [UInt8](repeating: 7, count: 300))
        XCTAssertTrue(converted(image, from: broken, manager: manager, log: log).bytes == image.bytes, "changed")
        XCTAssertTrue(converted(image, from: broken, manager: manager, log: log).bytes == image.bytes, "changed")
        XCTAssertEqual(log.warnings.count, 1, "one warning per profile: \(log.warnings)")
        XCTAssertTrue(log.warnings[0].contains("test"), "the line names the file: \(log.warnings[0])")
        let unknown = ColourSpace.codePoints(ColourCodePoints(primaries: 99, transfer: 13, matrix: 0, fullRange: true))
        XCTAssertTrue(converted(image, from: unknown, manager: manager, log: log).bytes == image.bytes, "changed")
        XCTAssertEqual(log.warnings.count, 2)
    }

    func testAProfileForOtherPixelsIsNotUsed() throws {
        let manager = ColourManager()
        let cmyk = ColourSpace(profile: try ColourFixtures.ghostscriptCMYK())
        guard case .unusable = manager.lookup(from: cmyk, input: .bgra, to: .sRGB) else {
            return XCTFail("a CMYK profile was used on RGB pixels")
        }
        guard case .unusable = manager.lookup(from: ColourSpace(profile: ColourFixtures.displayP3), input: .cmyk(inverted: true),
                                              to: .sRGB) else {
            return XCTFail("an RGB profile was used on CMYK pixels")
        }
    }

    func testLeastRecentlyUsedTransformGoesWhenFull() {
        let manager = ColourManager(capacity: 2)
        let p3 = ColourSpace(profile: ColourFixtures.displayP3)
        let grey = ColourSpace(profile: ColourFixtures.greyGamma22)
        let bt2020 = ColourSpace.codePoints(ColourCodePoints(primaries: 9, transfer: 1, matrix: 9, fullRange: true))
        _ = manager.lookup(from: p3, input: .bgra, to: .sRGB)
        _ = manager.lookup(from: grey, input: .bgra, to: .sRGB)
        _ = manager.lookup(from: p3, input: .bgra, to: .sRGB)
        _ = manager.lookup(from: bt2020, input: .bgra, to: .sRGB)  // grey goes
        XCTAssertEqual(manager.transformsMade, 3)
        _ = manager.lookup(from: p3, input: .bgra, to: .sRGB)
        XCTAssertEqual(manager.transformsMade, 3)
        _ = manager.lookup(from: grey, input: .bgra, to: .sRGB)
        XCTAssertEqual(manager.transformsMade, 4)
    }
}
