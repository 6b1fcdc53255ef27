import CGIF
import Foundation
import TesseraCore
import TesseraTestBasics
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// A GIF, WebP, TIFF or AVIF that decodes only in part is shown as far as it goes and says why, as a
/// damaged JPEG or PNG does (`ImageLoaderTests`, `PNGDecoderTests`); a file with nothing to show is an
/// error, and a whole file says nothing of damage.
final class DamagedFormatsTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private let loader = ImageLoader(decoders: ImageDecoders.standard())
    private static let endsInData = "the file ends inside the image data: it is truncated"

    // MARK: - GIF

    /// Indices that LZW cannot shrink much, so that half the file is about half the rows.
    private static func scatteredIndices(_ count: Int) -> [UInt8] {
        var state: UInt32 = 12345
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8((state >> 16) & 7)
        }
    }

    private static let palette = [RGBA(r: 200, g: 20, b: 20), RGBA(r: 20, g: 200, b: 20), RGBA(r: 20, g: 20, b: 200),
                                  RGBA(r: 240, g: 240, b: 40), RGBA(r: 0, g: 0, b: 0), RGBA(r: 255, g: 255, b: 255),
                                  RGBA(r: 90, g: 90, b: 90), RGBA(r: 40, g: 200, b: 220)]

    private func gif(frames: Int = 1) -> Data {
        GIFFixtures.gif(screenWidth: 64, screenHeight: 48, palette: Self.palette, repeats: frames > 1 ? 0 : nil,
                        frames: (0..<frames).map { _ in
                            GIFFixtures.Frame(width: 64, height: 48, indices: Self.scatteredIndices(64 * 48),
                                              delay: frames > 1 ? 10 : nil)
                        })
    }

    func testACutGIFShowsTheRowsItHoldsAndSaysItIsTruncated() throws {
        let whole = gif()
        let full = try loader.load(data: whole, name: "whole.gif", fitting: nil)
        XCTAssertNil(full.damage)
        let cut = try loader.load(data: whole.prefix(whole.count * 6 / 10), name: "cut.gif", fitting: nil)
        XCTAssertEqual(cut.damage, Self.endsInData)
        XCTAssertEqual(cut.size, full.size)
        let rowBytes = 64 * 4
        XCTAssertEqual(cut.bytes.prefix(rowBytes * 10), full.bytes.prefix(rowBytes * 10), "the top is the picture")
        XCTAssertEqual(cut.bytes.suffix(rowBytes).allSatisfy { $0 == 0 }, true, "the rows never read are transparent")
        XCTAssertEqual(reason { () throws(ImageLoadError) in
            try loader.load(data: whole.prefix(40), name: "header.gif", fitting: nil)
        }, .truncated, "a file with no row of its image is truncated, not shown")
    }

    /// A cut later frame ends the animation at the last whole one; the first frame plays.
    func testAnAnimationCutInALaterFramePlaysTheFramesBeforeIt() throws {
        let whole = gif(frames: 3)
        let reader = try AnimatedImage.reader(for: whole.prefix(whole.count - 200), pixelLimit: 100_000_000)
        var frames = 0
        while try reader.nextFrame() != nil { frames += 1 }
        XCTAssertEqual(frames, 2, "the third frame is cut, so it is not shown half drawn")
    }

    /// A GIF87a that carries a GIF89a extension (a graphic control block) is read as browsers read it.
    func testAGIF87aWithAnExtensionIsNotCalledTruncated() throws {
        var data = [UInt8](GIFFixtures.gif(palette: Self.palette,
                                           frames: [GIFFixtures.Frame(width: 64, height: 48, indices: Self.scatteredIndices(64 * 48),
                                                                      delay: 5)]))
        data.replaceSubrange(3..<6, with: Array("87a".utf8))
        let image = try loader.load(data: Data(data), name: "old.gif", fitting: nil)
        XCTAssertEqual(image.size, PixelSize(width: 64, height: 48))
        XCTAssertNil(image.damage)
    }

    // MARK: - WebP

    /// A gradient with noise over it: most of a lossless file is then pixel data, not transforms.
    private static func noisyGradient() -> PixelBuffer {
        var picture = TestPixels.gradient(width: 256, height: 256)
        let noise = scatteredIndices(picture.bytes.count)
        for i in picture.bytes.indices where i % 4 != 3 { picture.bytes[i] = picture.bytes[i] &+ noise[i] &* 8 }
        return picture
    }

    private func webp(_ arguments: [String], in folder: TemporaryDirectory) throws -> Data {
        let input = folder.path("source.png")
        try PNGEncoder.write(Self.noisyGradient(), to: input)
        let output = folder.path("out-\(UUID().uuidString).webp")
        try Tools.run("cwebp", ["-quiet"] + arguments + [input, "-o", output], package: "webp")
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    func testACutWebPShowsTheRowsItHoldsAndSaysItIsTruncated() throws {
        let folder = try TemporaryDirectory()
        for (kind, arguments) in [("lossy", ["-q", "95"]), ("lossless", ["-lossless"])] {
            let whole = try webp(arguments, in: folder)
            let full = try loader.load(data: whole, name: "whole.webp", fitting: nil)
            XCTAssertNil(full.damage, kind)
            let cut = try loader.load(data: whole.prefix(whole.count * 7 / 10), name: "cut.webp", fitting: nil)
            XCTAssertEqual(cut.damage, Self.endsInData, kind)
            XCTAssertEqual(cut.size, full.size, kind)
            let top = 256 * 4 * 16
            XCTAssertEqual(cut.bytes.prefix(top), full.bytes.prefix(top), "\(kind): the top is the picture")
            XCTAssertTrue(cut.bytes.suffix(256 * 4).allSatisfy { $0 == 0 }, "\(kind): the rows never decoded are transparent")
            let small = try loader.load(data: whole.prefix(whole.count * 7 / 10), name: "cut.webp",
                                        fitting: PixelSize(width: 64, height: 64))
            XCTAssertEqual(small.damage, Self.endsInData, "\(kind): a scaled decode notices too")
        }
    }

    // MARK: - TIFF

    /// An uncompressed RGB TIFF with its directory before its strips (libtiff writes it after them, so a
    /// cut libtiff file has lost its header; scanners and cameras write it first).
    private static func tiffWithDirectoryFirst(_ picture: PixelBuffer, rowsPerStrip: Int) -> Data {
        let width = picture.width, height = picture.height
        let strips = (height + rowsPerStrip - 1) / rowsPerStrip
        let entries = 10
        let directoryEnd = 8 + 2 + entries * 12 + 4
        let bitsAt = directoryEnd, offsetsAt = bitsAt + 6, countsAt = offsetsAt + 4 * strips, dataAt = countsAt + 4 * strips
        var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        func u16(_ v: Int) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: Int) {
            u16(tag); u16(type); u32(count)
            if type == 3 && count == 1 { u16(value); u16(0) } else { u32(value) }
        }
        u16(entries)
        entry(256, 3, 1, width); entry(257, 3, 1, height); entry(258, 3, 3, bitsAt); entry(259, 3, 1, 1)
        entry(262, 3, 1, 2); entry(273, 4, strips, offsetsAt); entry(277, 3, 1, 3); entry(278, 3, 1, rowsPerStrip)
        entry(279, 4, strips, countsAt); entry(284, 3, 1, 1)
        u32(0)
        u16(8); u16(8); u16(8)
        for strip in 0..<strips { u32(dataAt + strip * rowsPerStrip * width * 3) }
        for strip in 0..<strips { u32(min(rowsPerStrip, height - strip * rowsPerStrip) * width * 3) }
        for y in 0..<height {
            for x in 0..<width {
                let p = picture.pixel(x: x, y: y)
                bytes += [p.r, p.g, p.b]
            }
        }
        return Data(bytes)
    }

    func testACutTIFFShowsTheStripsItHoldsAndSaysItIsTruncated() throws {
        let picture = TestPixels.gradient(width: 64, height: 64)
        let whole = Self.tiffWithDirectoryFirst(picture, rowsPerStrip: 8)
        let full = try loader.load(data: whole, name: "whole.tif", fitting: nil)
        XCTAssertNil(full.damage)
        XCTAssertEqual(full.pixel(x: 40, y: 50), picture.pixel(x: 40, y: 50), "the fixture is a TIFF of the picture")
        let cut = try loader.load(data: whole.prefix(whole.count / 2), name: "cut.tif", fitting: nil)
        XCTAssertEqual(cut.damage, Self.endsInData)
        XCTAssertEqual(cut.bytes.prefix(64 * 4 * 24), full.bytes.prefix(64 * 4 * 24), "the strips there are the picture")
        XCTAssertTrue(cut.bytes.suffix(64 * 4 * 8).allSatisfy { $0 == 0 }, "the strips past the end are transparent")
        XCTAssertEqual(try loader.load(data: whole.prefix(whole.count / 2), name: "cut.tif",
                                       fitting: PixelSize(width: 16, height: 16)).damage, Self.endsInData,
                       "a scaled decode notices too")
    }

    /// One corrupt tile costs that tile only: the others are read and the reason is libtiff's.
    func testACorruptTileCostsThatTileOnly() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("tiles.tif")
        let picture = TestPixels.gradient(width: 256, height: 256)
        try TIFFFixtures.write([picture], to: path, layout: TIFFFixtures.Layout(tileSize: 64, compression: .deflate, corruptBlock: 0))
        let image = try loader.load(path: path, fitting: nil)
        let damage = try XCTUnwrap(image.damage, "the corrupt tile is named as damage")
        XCTAssertFalse(damage.isEmpty)
        XCTAssertNotEqual(damage, Self.endsInData, "the file is whole: its data is bad, it is not cut")
        XCTAssertEqual(image.pixel(x: 200, y: 200), picture.pixel(x: 200, y: 200), "the other tiles are read")
        XCTAssertEqual(image.pixel(x: 10, y: 10).a, 0, "the corrupt tile is left transparent")
    }

    // MARK: - AVIF

    /// A cut AVIF still decodes (the AV1 decoder makes what it can of the part there) but says it is cut.
    func testACutAVIFSaysItIsTruncated() throws {
        let folder = try TemporaryDirectory()
        let input = folder.path("source.png")
        try PNGEncoder.write(TestPixels.gradient(width: 128, height: 96), to: input)
        let output = folder.path("out.avif")
        try Tools.run("avifenc", ["-s", "10", input, output], package: "libavif-bin")
        let whole = try Data(contentsOf: URL(fileURLWithPath: output))
        XCTAssertNil(try loader.load(data: whole, name: "whole.avif", fitting: nil).damage)
        let cut = whole.prefix(whole.count - 30)
        do {
            let image = try loader.load(data: cut, name: "cut.avif", fitting: nil)
            XCTAssertEqual(image.damage, HEIFDecoder.endsShort)
        } catch {
            // A decoder that refuses the cut stream outright is fine too: it is not shown as whole.
            XCTAssertNotEqual(error.reason, .notAnImage)
        }
    }

    private func reason(_ body: () throws(ImageLoadError) -> PixelBuffer) -> ImageLoadError.Reason? {
        do { _ = try body(); return nil } catch { return error.reason }
    }
}
