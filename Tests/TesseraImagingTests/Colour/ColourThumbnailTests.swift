import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging

/// Thumbnails on disk are sRGB (the freedesktop standard's readers assume it): a tagged image's is
/// converted before it is saved, and one read back is converted to the display's colour space.
final class ColourThumbnailTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private let box = PixelSize(width: 200, height: 150)

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private var store: ThumbnailStore { ThumbnailStore(root: dir.path("thumbnails")) }

    private func photos() throws -> (plain: String, tagged: String) {
        let plain = TestJPEG.encode(.bgra(ColourFixtures.colourful(width: 320, height: 240)))
        return (try dir.write(plain, to: "plain.jpg"),
                try dir.write(ColourFixtures.jpeg(plain, withICC: ColourFixtures.displayP3), to: "p3.jpg"))
    }

    private func stored(_ path: String) throws -> PixelBuffer {
        let original = try XCTUnwrap(store.original(atPath: path))
        return try XCTUnwrap(store.thumbnail(for: original, size: .large), "no thumbnail was written")
    }

    func testATaggedImagesThumbnailIsStoredInSRGB() throws {
        let (plain, tagged) = try photos()
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: ImageDecoders.standard()), store: store)
        let first = try loader.load(path: tagged, fitting: box)
        let raw = try ImageLoader(decoders: ImageDecoders.standard(), colour: nil).load(path: plain, fitting: ThumbnailSize.large.box)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(try stored(tagged), ColourFixtures.reference(raw, from: ColourFixtures.displayP3)), 0.5)
        // On an sRGB display, read back as it is: the second visit shows what the first did.
        XCTAssertTrue(try loader.load(path: tagged, fitting: box).bytes == first.bytes, "the second visit shows another picture")
    }

    func testOnAWideGamutDisplayTheDiskGetsSRGBAndTheCellTheDisplaysColours() throws {
        let (plain, tagged) = try photos()
        let colour = ColourConversion(displayProfile: ColourFixtures.displayP3, manager: ColourManager())
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: ImageDecoders.standard(), colour: colour), store: store)
        let asDecoded = ImageLoader(decoders: ImageDecoders.standard(), colour: nil)

        // A P3 photo on a P3 display: shown as decoded, stored as sRGB.
        let first = try loader.load(path: tagged, fitting: box)
        let raw = try asDecoded.load(path: plain, fitting: ThumbnailSize.large.box)
        XCTAssertTrue(first.bytes == PixelScaler.fit(raw, in: box).bytes, "a P3 photo on a P3 display is converted")
        let disk = try stored(tagged)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(disk, ColourFixtures.reference(raw, from: ColourFixtures.displayP3)), 0.5)

        // Read back: the sRGB thumbnail converted to the display.
        let second = try loader.load(path: tagged, fitting: box)
        let expected = ColourFixtures.reference(PixelScaler.fit(disk, in: box), from: nil, to: ColourFixtures.displayP3)
        XCTAssertLessThan(ColourFixtures.meanAbsoluteDifference(second, expected), 0.5)

        // An untagged photo's thumbnail is its own pixels on disk, and converted for the display.
        _ = try loader.load(path: plain, fitting: box)
        XCTAssertTrue(try stored(plain).bytes == raw.bytes, "an untagged thumbnail is converted on its way to disk")
    }

    func testWithColourManagementOffATaggedImageGetsNoThumbnail() throws {
        let (plain, tagged) = try photos()
        let loader = ThumbnailingLoader(loader: ImageLoader(decoders: ImageDecoders.standard(), colour: nil), store: store)
        let shown = try loader.load(path: tagged, fitting: box)
        let raw = try ImageLoader(decoders: ImageDecoders.standard(), colour: nil).load(path: plain, fitting: ThumbnailSize.large.box)
        XCTAssertTrue(shown.bytes == PixelScaler.fit(raw, in: box).bytes, "colour management off converts nothing")
        let original = try XCTUnwrap(store.original(atPath: tagged))
        XCTAssertNil(store.thumbnail(for: original, size: .large), "unconverted pixels would be wrong for other readers")
        _ = try loader.load(path: plain, fitting: box)
        XCTAssertNotNil(store.thumbnail(for: try XCTUnwrap(store.original(atPath: plain)), size: .large))
    }
}
