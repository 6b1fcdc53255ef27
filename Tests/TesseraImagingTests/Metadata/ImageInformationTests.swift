import CLCMS2
import CZlib
import Foundation
import TesseraCore
import TesseraTestBasics
import TesseraTestSupport
import XCTest
@testable import TesseraImaging

/// The information overlay's data, from files whose tags the test writes with libexif and whose colour
/// profile it makes with Little CMS.
final class ImageInformationTests: XCTestCase {
    private var folder: TemporaryDirectory!

    override func setUpWithError() throws {
        folder = try TemporaryDirectory()
    }

    override func tearDown() {
        folder = nil
    }

    /// A camera's tags: 1/250 s at f/2.8, ISO 400, 50 mm, near the Eiffel Tower, portrait (6).
    private func cameraTags(bigEndian: Bool = true, south: Bool = false, west: Bool = false) -> TestExifTags {
        TestExifTags(bigEndian: bigEndian)
            .ascii(0x010F, "Tessera")
            .ascii(0x0110, "Tessera T1")
            .short(0x0112, 6)
            .ascii(0x9003, "2024:05:01 12:34:56", in: .exif)
            .ascii(0x9011, "+02:00", in: .exif)
            .ascii(0xA434, "Tessera 50mm F1.8", in: .exif)
            .rationals(0x829A, [(1, 250)], in: .exif)
            .rationals(0x829D, [(28, 10)], in: .exif)
            .short(0x8827, 400, in: .exif)
            .rationals(0x920A, [(50, 1)], in: .exif)
            .ascii(0x0001, south ? "S" : "N", in: .gps)
            .rationals(0x0002, [(48, 1), (51, 1), (296, 10)], in: .gps)
            .ascii(0x0003, west ? "W" : "E", in: .gps)
            .rationals(0x0004, [(2, 1), (17, 1), (402, 10)], in: .gps)
    }

    private let photo = TestJPEG.encode(.bgra(TestPixels.gradient(width: 60, height: 40)))

    func testAPhotosTagsAreReadAndShown() throws {
        let profile = try iccProfile(description: "Tessera Test RGB")
        var jpeg = TestExif.jpeg(photo, inserting: cameraTags().segment)
        jpeg = TestExif.jpeg(jpeg, inserting: Self.app2(profile))
        let path = try folder.write(jpeg, to: "photo.jpg")

        let info = try ImageInformation.read(path: path)
        XCTAssertEqual(info.format, .jpeg)
        XCTAssertEqual(info.fileSize, Int64(jpeg.count))
        XCTAssertEqual(info.storedSize, PixelSize(width: 60, height: 40))
        XCTAssertEqual(info.size, PixelSize(width: 40, height: 60), "turned by its orientation")
        XCTAssertEqual(info.colourProfile, "Tessera Test RGB")
        XCTAssertEqual(info.dateTaken, "2024-05-01 12:34:56 +02:00")
        XCTAssertEqual(info.cameraMake, "Tessera")
        XCTAssertEqual(info.cameraModel, "Tessera T1")
        XCTAssertEqual(info.camera, "Tessera T1")
        XCTAssertEqual(info.lens, "Tessera 50mm F1.8")
        XCTAssertEqual(try XCTUnwrap(info.exposureTime), 0.004, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(info.fNumber), 2.8, accuracy: 1e-12)
        XCTAssertEqual(info.iso, 400)
        XCTAssertEqual(info.focalLength, 50)
        let position = try XCTUnwrap(info.position)
        XCTAssertEqual(position.latitude, 48 + 51.0 / 60 + 29.6 / 3600, accuracy: 1e-9)
        XCTAssertEqual(position.longitude, 2 + 17.0 / 60 + 40.2 / 3600, accuracy: 1e-9)

        let lines = info.fields.map { "\($0.label): \($0.value)" }
        XCTAssertEqual(lines, [
            "File: photo.jpg",
            "Dimensions: 40 × 60",
            "File size: \(ImageInformation.byteText(Int64(jpeg.count)))",
            "Format: JPEG",
            "Colour profile: Tessera Test RGB",
            "Taken: 2024-05-01 12:34:56 +02:00",
            "Camera: Tessera T1",
            "Lens: Tessera 50mm F1.8",
            "Exposure: 1/250 s  f/2.8  ISO 400",
            "Focal length: 50 mm",
            "Position: 48.858222, 2.294500",
        ])
    }

    func testSouthAndWestAreNegativeAndLittleEndianBlocksRead() throws {
        let jpeg = TestExif.jpeg(photo, inserting: cameraTags(bigEndian: false, south: true, west: true).segment)
        let info = try ImageInformation.read(path: try folder.write(jpeg, to: "south-west.jpg"))
        let position = try XCTUnwrap(info.position)
        XCTAssertLessThan(position.latitude, -48.8)
        XCTAssertLessThan(position.longitude, -2.2)
        XCTAssertEqual(info.iso, 400)
    }

    func testAPlainJPEGHasOnlyTheFileFields() throws {
        let info = try ImageInformation.read(path: try folder.write(photo, to: "plain.jpg"))
        XCTAssertEqual(info.fields.map(\.label), ["File", "Dimensions", "File size", "Format", "Colour profile"])
        XCTAssertEqual(info.fields.last?.value, "none")
        XCTAssertEqual(info.orientation, .up)
        XCTAssertNil(info.dateTaken)
        XCTAssertNil(info.position)
    }

    func testAPNGsProfileAndEXIF() throws {
        let png = TilingFixtures.png(TestPixels.gradient(width: 20, height: 10), channels: .rgb)
        let profile = try iccProfile(description: "Tessera PNG Profile")
        var bytes = [UInt8](TestExif.png(png, orientation: 8))
        // iCCP: name, NUL, method 0, deflated profile; before IDAT, after IHDR.
        bytes.insert(contentsOf: TestPNGChunks.chunk("iCCP", Array("ICC".utf8) + [0, 0] + deflate(profile)), at: 33)
        let info = try ImageInformation.read(path: try folder.write(Data(bytes), to: "profile.png"))
        XCTAssertEqual(info.format, .png)
        XCTAssertEqual(info.colourProfile, "Tessera PNG Profile")
        XCTAssertEqual(info.orientation, .rotated270)
        XCTAssertEqual(info.size, PixelSize(width: 10, height: 20))
    }

    func testAWebPsProfile() throws {
        let profile = try iccProfile(description: "Tessera WebP Profile")
        let webp = TestExif.webp(orientation: 3, iccProfile: profile)
        XCTAssertEqual(try WebPDecoder().decode(webp, format: .webp, targetSize: nil).colourProfile, profile,
                       "a WebP libwebp decodes")
        let info = try ImageInformation.read(path: try folder.write(webp, to: "profile.webp"))
        XCTAssertEqual(info.format, .webp)
        XCTAssertEqual(info.colourProfile, "Tessera WebP Profile")
        XCTAssertEqual(info.orientation, .rotated180)

        // Cut short inside the image: the profile before the cut is still named.
        let cut = webp.prefix(webp.count - 40)
        XCTAssertEqual(try ImageInformation.read(path: try folder.write(cut, to: "cut.webp")).colourProfile, "Tessera WebP Profile")

        // An ICCP chunk its VP8X header does not announce is not the image's profile, for the decoder (as
        // for browsers) and so for the overlay.
        let unflagged = TestExif.webp(orientation: 3, iccProfile: profile, flagsProfile: false)
        let plain = try ImageInformation.read(path: try folder.write(unflagged, to: "unflagged.webp"))
        XCTAssertFalse(plain.hasColourProfile)
        XCTAssertEqual(plain.orientation, .rotated180)
    }

    func testABigProfileSplitOverSeveralJPEGSegmentsIsPutTogether() throws {
        // A profile with a long description tag padded far past one segment's 64 KB.
        let description = String(repeating: "Tessera ", count: 12_000) + "end"
        let profile = try iccProfile(description: description)
        XCTAssertGreaterThan(profile.count, 70_000)
        let parts = stride(from: 0, to: profile.count, by: 60_000).map { Array(profile[$0..<min($0 + 60_000, profile.count)]) }
        var jpeg = photo
        // Inserted last part first, so they end up in order after SOI; the reader sorts them anyway.
        for (index, part) in parts.enumerated().reversed() {
            jpeg = TestExif.jpeg(jpeg, inserting: Self.app2(part, sequence: index + 1, count: parts.count))
        }
        let info = try ImageInformation.read(path: try folder.write(jpeg, to: "big-profile.jpg"))
        XCTAssertEqual(info.colourProfile, description)

        // Stored last part first: the sequence numbers, not the file order, count.
        var shuffled = photo
        for (index, part) in parts.enumerated() {
            shuffled = TestExif.jpeg(shuffled, inserting: Self.app2(part, sequence: index + 1, count: parts.count))
        }
        let reordered = try ImageInformation.read(path: try folder.write(shuffled, to: "reordered-profile.jpg"))
        XCTAssertEqual(reordered.colourProfile, description)

        // One part missing: the profile is there but cannot be put together, for the overlay as for the
        // decoder, which reads it the same way.
        var broken = photo
        broken = TestExif.jpeg(broken, inserting: Self.app2(parts[0], sequence: 1, count: parts.count))
        let partial = try ImageInformation.read(path: try folder.write(broken, to: "partial-profile.jpg"))
        XCTAssertNil(partial.colourProfile)
        XCTAssertFalse(partial.hasColourProfile)
        XCTAssertEqual(try TurboJPEGDecoder().decode(jpeg, format: .jpeg, targetSize: nil).colourProfile, profile)
        XCTAssertNil(try TurboJPEGDecoder().decode(broken, format: .jpeg, targetSize: nil).colourProfile)
    }

    /// TIFF's tag 34675, a HEIC's `prof` box (heif-enc copies a PNG's iCCP into one) and a JPEG XL's
    /// profile, each read by its decoder's own library, are named; an untagged file of each has none.
    func testTheProfilesOfTIFFHEICAndJPEGXL() throws {
        let pixels = TestPixels.gradient(width: 32, height: 24)
        let samples = stride(from: 0, to: pixels.bytes.count, by: 4).flatMap {
            [UInt16(pixels.bytes[$0 + 2]), UInt16(pixels.bytes[$0 + 1]), UInt16(pixels.bytes[$0])]
        }
        var page = TestTIFF.Page(width: 32, height: 24, samples: samples, samplesPerPixel: 3, photometric: 2)
        XCTAssertFalse(try ImageInformation.read(path: try folder.write(TestTIFF.file([page]), to: "plain.tif")).hasColourProfile)
        page.icc = try iccProfile(description: "Tessera TIFF Profile")
        let tiff = try ImageInformation.read(path: try folder.write(TestTIFF.file([page]), to: "tagged.tif"))
        XCTAssertEqual(tiff.colourProfile, "Tessera TIFF Profile")

        let heicSource = ColourFixtures.png(pixels, iccProfile: try iccProfile(description: "Tessera HEIC Profile"), in: folder,
                                            name: "heic-source.png")
        let heic = folder.path("tagged.heic")
        try FormatFixtureTools.run("heif-enc", ["-q", "90", heicSource, "-o", heic], package: "libheif-examples")
        XCTAssertEqual(try ImageInformation.read(path: heic).colourProfile, "Tessera HEIC Profile")

        // libjxl keeps a lossless image's profile; an sRGB one it hands over as none, as the decoder does.
        let jxlSource = ColourFixtures.png(pixels, iccProfile: ColourFixtures.displayP3, in: folder, name: "jxl-source.png")
        let jxl = folder.path("tagged.jxl")
        try FormatFixtureTools.run("cjxl", [jxlSource, jxl, "-d", "0"], package: "libjxl-tools")
        let decoded = try XCTUnwrap(try JXLDecoder().decode(Data(contentsOf: URL(fileURLWithPath: jxl)), format: .jxl,
                                                            targetSize: nil).colourProfile)
        let named = try ImageInformation.read(path: jxl)
        XCTAssertTrue(named.hasColourProfile)
        XCTAssertEqual(named.colourProfile, ICCProfile(decoded).profileDescription, "the profile the decoder hands over")
        let plainJXL = folder.path("plain.jxl")
        try FormatFixtureTools.run("cjxl", [try folder.write(TilingFixtures.png(pixels), to: "plain.png"), plainJXL, "-d", "0"],
                                   package: "libjxl-tools")
        XCTAssertFalse(try ImageInformation.read(path: plainJXL).hasColourProfile)
    }

    /// PQ and HLG pictures, and JPEGs with a gain map (Ultra HDR's XMP, ISO 21496-1's APP2), are named.
    func testHDRPhotosAreNamed() throws {
        let pixels = TestPixels.gradient(width: 32, height: 24)
        let pq = folder.path("pq.avif"), hlg = folder.path("hlg.jxl")
        ColourFixtures.png16(HDRTests.hdrSamples(pixels, .pq), width: 32, height: 24, to: folder.path("pq.png"))
        try FormatFixtureTools.run("avifenc", ["-d", "10", "--cicp", "9/16/9", folder.path("pq.png"), pq], package: "libavif-bin")
        ColourFixtures.png16(HDRTests.hdrSamples(pixels, .hlg), width: 32, height: 24, to: folder.path("hlg.png"))
        try FormatFixtureTools.run("cjxl", [folder.path("hlg.png"), hlg, "-d", "0", "-x", "color_space=RGB_D65_202_Rel_HLG"],
                                   package: "libjxl-tools")
        XCTAssertEqual(try ImageInformation.read(path: pq).dynamicRange, .pq)
        let pqPNG = folder.path("pq-cicp.png")
        ColourFixtures.png16(HDRTests.hdrSamples(pixels, .pq), width: 32, height: 24, to: pqPNG, codePoints: [9, 16, 0, 1])
        XCTAssertEqual(try ImageInformation.read(path: pqPNG).dynamicRange, .pq)
        let named = try ImageInformation.read(path: hlg)
        XCTAssertEqual(named.fields.first { $0.label == "Dynamic range" }?.value, "HDR (HLG)")

        let xmp = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array("""
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"/></rdf:RDF></x:xmpmeta>
            """.utf8)
        let iso = Array("urn:iso:std:iso:ts:21496:-1\0".utf8) + [0, 0, 0, 0]
        for (marker, payload, name) in [(UInt8(0xE1), xmp, "ultra-hdr.jpg"), (UInt8(0xE2), iso, "iso-gain-map.jpg")] {
            let length = payload.count + 2
            let segment = [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
            let jpeg = Data(photo.prefix(2) + segment + photo.dropFirst(2))
            XCTAssertEqual(try ImageInformation.read(path: try folder.write(jpeg, to: name)).dynamicRange, .gainMap, name)
        }
        XCTAssertNil(try ImageInformation.read(path: try folder.write(photo, to: "plain.jpg")).dynamicRange)
    }

    /// A multi-page TIFF and a HEIF collection say how many images they hold; a pyramid's levels are no
    /// pages, and a file of one image says nothing.
    func testFilesOfSeveralImagesSaySo() throws {
        let pixels = TestPixels.gradient(width: 32, height: 24)
        let samples = stride(from: 0, to: pixels.bytes.count, by: 4).flatMap {
            [UInt16(pixels.bytes[$0 + 2]), UInt16(pixels.bytes[$0 + 1]), UInt16(pixels.bytes[$0])]
        }
        let page = TestTIFF.Page(width: 32, height: 24, samples: samples, samplesPerPixel: 3, photometric: 2)
        let scan = try ImageInformation.read(path: try folder.write(TestTIFF.file([page, page, page]), to: "scan.tif"))
        XCTAssertEqual(scan.pages?.count, 3)
        XCTAssertEqual(scan.fields.first { $0.label == "Images" }?.value, "3; the first is shown")
        XCTAssertNil(try ImageInformation.read(path: try folder.write(TestTIFF.file([page]), to: "one.tif")).pages)
        let pyramid = folder.path("pyramid.tif")
        try TIFFFixtures.write(TIFFFixtures.pyramid(of: TestPixels.gradient(width: 256, height: 192), downTo: 32), to: pyramid)
        XCTAssertNil(try ImageInformation.read(path: pyramid).pages, "levels are not pages")

        let a = try folder.write(TilingFixtures.png(pixels), to: "a.png"), b = try folder.write(TilingFixtures.png(pixels), to: "b.png")
        let collection = folder.path("two.heic")
        try FormatFixtureTools.run("heif-enc", ["-q", "60", a, b, "-o", collection], package: "libheif-examples")
        XCTAssertEqual(try ImageInformation.read(path: collection).pages?.count, 2)
    }

    // MARK: - Bad input

    func testBadFiles() throws {
        XCTAssertThrowsError(try ImageInformation.read(path: folder.path("missing.jpg"))) { error in
            XCTAssertEqual(error as? ImageInformationError, ImageInformationError(path: folder.path("missing.jpg"), reason: .file(.missing)))
        }
        XCTAssertThrowsError(try ImageInformation.read(path: folder.url.path)) { error in
            XCTAssertEqual((error as? ImageInformationError)?.reason, .file(.notARegularFile(.folder)))
        }

        let empty = try ImageInformation.read(path: try folder.write(Data(), to: "empty.jpg"))
        XCTAssertEqual(empty.format, .unknown)
        XCTAssertNil(empty.storedSize)
        XCTAssertEqual(empty.fields.map { "\($0.label): \($0.value)" },
                       ["File: empty.jpg", "File size: 0 bytes", "Format: unknown", "Colour profile: none"])

        let text = try ImageInformation.read(path: try folder.write(Data("not an image".utf8), to: "notes.jpg"))
        XCTAssertEqual(text.format, .unknown)

        // A damaged EXIF block (its IFD offset points past the end) and a truncated file.
        let damaged = TestExif.jpeg(photo, inserting: [0xFF, 0xE1, 0, 16] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0x7F, 0xFF, 0xFF, 0xFF])
        let info = try ImageInformation.read(path: try folder.write(damaged.prefix(damaged.count / 2), to: "damaged.jpg"))
        XCTAssertEqual(info.format, .jpeg)
        XCTAssertNil(info.cameraMake)
        XCTAssertEqual(info.orientation, .up)
    }

    func testFormatting() {
        XCTAssertEqual(ImageInformation.exposureText(1.0 / 250), "1/250 s")
        XCTAssertEqual(ImageInformation.exposureText(0.5), "1/2 s")
        XCTAssertEqual(ImageInformation.exposureText(2), "2 s")
        XCTAssertEqual(ImageInformation.exposureText(2.5), "2.5 s")
        XCTAssertEqual(ImageInformation.byteText(812), "812 bytes")
        XCTAssertEqual(ImageInformation.byteText(4_200), "4.2 kB")
        XCTAssertEqual(ImageInformation.byteText(12_500_000), "12.5 MB")
        XCTAssertEqual(ImageInformation.byteText(999_999), "1.0 MB")
        XCTAssertEqual(ImageInformation.date("2024:05:01 12:34:56"), "2024-05-01 12:34:56")
        XCTAssertNil(ImageInformation.date("0000:00:00 00:00:00"))
        XCTAssertNil(ImageInformation.date("    :  :     :  :  "))
        var info = ImageInformation(path: "/x.jpg", bytes: Data())
        (info.cameraMake, info.cameraModel) = ("NIKON CORPORATION", "NIKON D750")
        XCTAssertEqual(info.camera, "NIKON D750")
        (info.cameraMake, info.cameraModel) = ("Apple", "iPhone 12")
        XCTAssertEqual(info.camera, "Apple iPhone 12")
    }

    // MARK: - Fixtures

    /// An RGB profile (sRGB primaries) whose description tag says `description`, written by Little CMS.
    private func iccProfile(description: String) throws -> [UInt8] {
        let handle = try XCTUnwrap(cmsCreate_sRGBProfile())
        defer { cmsCloseProfile(handle) }
        let text = try XCTUnwrap(cmsMLUalloc(nil, 1))
        defer { cmsMLUfree(text) }
        XCTAssertNotEqual(cmsMLUsetASCII(text, "en", "US", description), 0)
        XCTAssertNotEqual(cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(text)), 0)
        var size: UInt32 = 0
        XCTAssertNotEqual(cmsSaveProfileToMem(handle, nil, &size), 0)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        XCTAssertNotEqual(cmsSaveProfileToMem(handle, &bytes, &size), 0)
        return bytes
    }

    /// An APP2 ICC_PROFILE segment holding `part` (sequence and count as the JPEG ICC convention has them).
    private static func app2(_ part: [UInt8], sequence: Int = 1, count: Int = 1) -> [UInt8] {
        let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(sequence), UInt8(count)] + part
        return [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    private func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        XCTAssertEqual(compress(&out, &size, bytes, uLong(bytes.count)), Z_OK)
        return Array(out[..<Int(size)])
    }
}
