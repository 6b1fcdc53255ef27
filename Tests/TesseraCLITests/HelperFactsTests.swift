import Foundation
import TesseraCore
import TesseraImaging
import TesseraSandbox
import TesseraTestSupport
import TesseraTiling
import XCTest

/// What the viewer reads about a file without decoding it (`ImageFacts`: the tiled view's probe, the
/// information overlay, the dates a sort reads, the decode-memory estimate) is, with helpers, read in a
/// sandboxed helper or by Swift readers, and comes out as it does in process, for every format; broken
/// headers give the same errors; a helper that fails on a question fails that file alone.
final class HelperFactsTests: XCTestCase {
    private var folder: URL!
    private var helpers: DecodeHelperPool!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-facts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: 256 << 20, timeLimit: .seconds(20))
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        helpers = DecodeHelperPool(configuration: configuration)
    }

    override func tearDownWithError() throws {
        helpers.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    private func write(_ data: Data, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    /// One file of each format the viewer opens: the fuzzer's seeds, a larger HEIC, AVIF and JPEG XL when
    /// the encoders are there, and a JPEG carrying a photo's EXIF block and an ICC profile.
    private func fixtures() throws -> [String] {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds")
        var paths = ["tiny.avif", "tiny.bmp", "tiny.dng", "tiny.gif", "tiny.heic", "tiny.jpg", "tiny.jxl", "tiny.png",
                     "tiny.svg", "tiny.tiff", "tiny.webp"].map { seeds.appendingPathComponent($0).path }
        paths += ["img2-portrait.jpg", "img9-lossless-alpha.webp", "img6-palette.png"].map { SampleImages.url($0).path }
        let png = SampleImages.url("img20-rgb.png").path
        for (tool, arguments, name) in [("heif-enc", ["-q", "60", png, "-o"], "a.heic"), ("heif-enc", ["-A", "-q", "60", png, "-o"], "a.avif"),
                                        ("cjxl", [png], "a.jxl")] where FileManager.default.isExecutableFile(atPath: "/usr/bin/" + tool) {
            let out = folder.appendingPathComponent(name).path
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/" + tool), arguments: arguments + [out])
            process.waitUntilExit()
            if process.terminationStatus == 0 { paths.append(out) }
        }
        paths.append(try write(photo(), "photo.jpg"))
        // A TIFF whose directory lies past the first bytes read: libtiff finds it.
        let tiff = folder.appendingPathComponent("large.tif").path
        try TIFFFixtures.write([PixelBuffer(width: 640, height: 480, filledWith: RGBA(r: 10, g: 20, b: 30))], to: tiff,
                               layout: .init(tileSize: 64, compression: .none))
        paths.append(tiff)
        return paths
    }

    /// A JPEG with the EXIF block of a photo (orientation 6, camera, date taken at an offset, exposure, GPS)
    /// and an ICC profile (ghostscript's sRGB when installed; otherwise bytes no profile reader accepts).
    private func photo() throws -> Data {
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) + [0] }
        func rationals(_ values: [(UInt32, UInt32)]) -> [UInt8] { values.flatMap { le32($0.0) + le32($0.1) } }
        let exif: [[ExifEntry]] = [
            [ExifEntry(0x010F, 2, ascii("NIKON CORPORATION")), ExifEntry(0x0110, 2, ascii("NIKON D750")),
             ExifEntry(0x0112, 3, [6, 0, 0, 0], count: 1), ExifEntry(0x8769, 4, pointer: 1), ExifEntry(0x8825, 4, pointer: 2)],
            [ExifEntry(0x829A, 5, rationals([(1, 250)])), ExifEntry(0x829D, 5, rationals([(28, 10)])),
             ExifEntry(0x8827, 3, [200, 0, 0, 0], count: 1), ExifEntry(0x9003, 2, ascii("2021:06:05 14:30:00")),
             ExifEntry(0x9011, 2, ascii("+02:00"))],
            [ExifEntry(0x0001, 2, ascii("N")), ExifEntry(0x0002, 5, rationals([(48, 1), (51, 1), (2967, 100)])),
             ExifEntry(0x0003, 2, ascii("W")), ExifEntry(0x0004, 5, rationals([(2, 1), (17, 1), (4000, 100)]))],
        ]
        let block = Array("Exif".utf8) + [0, 0] + ExifEntry.tiff(exif)
        var profile = [UInt8](repeating: 0x5A, count: 300)
        if let srgb = FileManager.default.contents(atPath: "/usr/share/color/icc/ghostscript/srgb.icc") { profile = [UInt8](srgb) }
        let icc = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let jpeg = try Data(contentsOf: SampleImages.url("img25-small.jpg"))
        return Data(jpeg.prefix(2)) + Data(segment(0xE1, block) + segment(0xE2, icc)) + jpeg.dropFirst(2)
    }

    func testTheFactsFromAHelperAreThoseReadInProcess() throws {
        let cell = PixelSize(width: 300, height: 200)
        var formats: Set<ImageFormat> = []
        for path in try fixtures() {
            let name = (path as NSString).lastPathComponent
            let probe = try ImageProbe.probe(path)
            formats.insert(probe.format)
            XCTAssertEqual(try ImageProbe.probe(path, decoding: SandboxedDecoding.service(in: helpers)), probe, name)
            XCTAssertEqual(try ImageInformation.read(path: path, decoding: SandboxedDecoding.service(in: helpers)), try ImageInformation.read(path: path), name)
            XCTAssertEqual(ItemFactReader.dateTaken(ofFileAt: path, decoding: SandboxedDecoding.service(in: helpers)), ItemFactReader.dateTaken(ofFileAt: path), name)
            // The estimate is the same where Swift reads the header or a helper answers; where neither is
            // needed (the source's pixels cost nothing when shrinking) it may count the whole box.
            let full = DecodeMemory.estimate(path: path, fitting: nil)
            XCTAssertEqual(DecodeMemory.estimate(path: path, fitting: nil, decoding: SandboxedDecoding.service(in: helpers)), full, name)
            let inProcess = DecodeMemory.estimate(path: path, fitting: cell)
            let sandboxed = DecodeMemory.estimate(path: path, fitting: cell, decoding: SandboxedDecoding.service(in: helpers))
            if [.svg, .raw].contains(probe.format) {
                XCTAssertGreaterThanOrEqual(sandboxed, inProcess, name)
                XCTAssertLessThanOrEqual(sandboxed, inProcess + cell.area * 16, name)
            } else {
                XCTAssertEqual(sandboxed, inProcess, name)
            }
        }
        XCTAssertEqual(formats, Set(ImageFormat.allCases).subtracting([.unknown]), "every format was compared")

        let photo = try write(photo(), "taken.jpg")
        let information = try ImageInformation.read(path: photo, decoding: SandboxedDecoding.service(in: helpers))
        XCTAssertEqual(information.orientation, .rotated90)
        XCTAssertEqual(information.camera, "NIKON D750")
        XCTAssertEqual(information.dateTaken, "2021-06-05 14:30:00 +02:00")
        XCTAssertTrue(information.hasColourProfile)
        XCTAssertNotNil(information.position)
        XCTAssertEqual(try ImageProbe.probe(photo, decoding: SandboxedDecoding.service(in: helpers)).orientation, .rotated90)
        XCTAssertEqual(ItemFactReader.dateTaken(ofFileAt: photo, decoding: SandboxedDecoding.service(in: helpers)), 1_622_896_200 * 1_000_000_000)
    }

    /// Sorting by date taken with helpers puts files in the order their EXIF dates give in process.
    func testTheOrderByDateTakenIsTheSame() throws {
        let jpeg = try photo()
        var paths: [String] = []
        for (index, date) in ["2021:06:05 14:30:00", "2019:01:01 00:00:01", "2023:12:31 23:59:59"].enumerated() {
            var bytes = [UInt8](jpeg)
            let old = Array("2021:06:05 14:30:00".utf8)
            let start = try XCTUnwrap((0...(bytes.count - old.count)).first { bytes[$0..<($0 + old.count)].elementsEqual(old) })
            bytes.replaceSubrange(start..<(start + old.count), with: Array(date.utf8))
            paths.append(try write(Data(bytes), "\(index).jpg"))
        }
        paths.append(try write(try Data(contentsOf: SampleImages.url("img1-baseline.jpg")), "undated.jpg"))
        func order(_ helpers: DecodeHelperPool?) -> [String] {
            paths.sorted { (ItemFactReader.dateTaken(ofFileAt: $0, decoding: SandboxedDecoding.service(in: helpers)) ?? .max, $0)
                < (ItemFactReader.dateTaken(ofFileAt: $1, decoding: SandboxedDecoding.service(in: helpers)) ?? .max, $1) }
        }
        XCTAssertEqual(order(helpers), order(nil))
        XCTAssertEqual(order(helpers).map { ($0 as NSString).lastPathComponent }, ["1.jpg", "0.jpg", "2.jpg", "undated.jpg"])
    }

    /// Cut short, or claiming 60000 x 60000: the tiled view's probe refuses it with the reason it gives in
    /// process, and the information overlay shows what it shows in process.
    func testBrokenHeadersFailAsTheyDoInProcess() throws {
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/seeds")
        var paths: [String] = []
        for name in ["tiny.heic", "tiny.avif", "tiny.jxl", "tiny.jpg", "tiny.svg", "tiny.dng", "tiny.tiff"] {
            let data = try Data(contentsOf: seeds.appendingPathComponent(name))
            paths.append(try write(data.prefix(data.count / 3), "cut-" + name))
            paths.append(try write(data.prefix(24), "stub-" + name))
        }
        var png = [UInt8](try Data(contentsOf: SampleImages.url("img13-tiny.png")))
        png.replaceSubrange(16..<24, with: [0, 0, 0xEA, 0x60, 0, 0, 0xEA, 0x60])  // IHDR: 60000 x 60000
        paths.append(try write(Data(png), "bomb.png"))
        paths.append(try write(Data("just text".utf8), "text.jpg"))
        for path in paths {
            let name = (path as NSString).lastPathComponent
            XCTAssertEqual(result { try ImageProbe.probe(path, decoding: SandboxedDecoding.service(in: self.helpers)) }, result { try ImageProbe.probe(path) }, name)
            XCTAssertEqual(try ImageInformation.read(path: path, decoding: SandboxedDecoding.service(in: helpers)), try ImageInformation.read(path: path), name)
            // A Swift reader may find the size in boxes a library refuses for what follows them: the
            // estimate errs high, never low.
            XCTAssertGreaterThanOrEqual(DecodeMemory.estimate(path: path, fitting: nil, decoding: SandboxedDecoding.service(in: helpers)),
                                        DecodeMemory.estimate(path: path, fitting: nil), name)
        }
    }

    /// A helper that crashes reading a file's facts fails that file alone, with the reason it gives a
    /// decode; the next file is read by a fresh helper. In process the same file reads: the parsing the
    /// helper crashed in is not done in the viewer.
    func testAHelperThatCrashesOnAQuestionFailsThatFileAlone() throws {
        let good = SampleImages.url("img1-baseline.jpg").path
        let crash = try write(try photo() + Data("tessera-test:crash".utf8), "crash.jpg")
        XCTAssertNoThrow(try ImageInformation.read(path: crash))
        XCTAssertThrowsError(try ImageInformation.read(path: crash, decoding: SandboxedDecoding.service(in: helpers))) { error in
            XCTAssertEqual((error as? ImageInformationError)?.reason, .reader(.helperFailed(.crashed(signal: SIGSEGV))))
            XCTAssertEqual("\(error)", "\(crash): Decoder crashed")
        }
        XCTAssertEqual(try ImageInformation.read(path: good, decoding: SandboxedDecoding.service(in: helpers)), try ImageInformation.read(path: good))
        XCTAssertThrowsError(try ImageProbe.probe(crash, decoding: SandboxedDecoding.service(in: helpers))) { error in
            XCTAssertEqual((error as? TileSourceError)?.reason, .unreadableImage("Decoder crashed"))
        }
        XCTAssertEqual(try ImageProbe.probe(good, decoding: SandboxedDecoding.service(in: helpers)), try ImageProbe.probe(good))
        XCTAssertNotNil(ItemFactReader.dateTaken(ofFileAt: crash))
        XCTAssertNil(ItemFactReader.dateTaken(ofFileAt: crash, decoding: SandboxedDecoding.service(in: helpers)), "a failed read sorts as undated")
        XCTAssertNotNil(ItemFactReader.dateTaken(ofFileAt: try write(try photo(), "fine.jpg"), decoding: SandboxedDecoding.service(in: helpers)))
    }

    /// A Deep Zoom pyramid whose descriptor is broken (its geometry then comes from its tiles' headers) and
    /// a flat tile folder are measured and read the same with helpers as in process.
    func testTileFoldersAreMeasuredAndReadInHelpers() throws {
        var picture = PixelBuffer(width: 300, height: 200, filledWith: RGBA(r: 0, g: 0, b: 0))
        for index in 0..<(300 * 200) { picture.bytes[index * 4] = UInt8(index % 251); picture.bytes[index * 4 + 1] = UInt8(index / 300) }
        let decoders = ImageDecoders.standard()
        let dzi = try DeepZoomFixtures.writeDeepZoom(picture, tileSize: 64, overlap: 1, in: folder.path, format: "png") {
            try PNGEncoder.write($0, to: $1)
        }
        try "not a descriptor".write(toFile: dzi, atomically: true, encoding: .utf8)
        let inProcess = try DeepZoomTileSource(descriptorAt: dzi, decoders: decoders)
        let sandboxed = try DeepZoomTileSource(descriptorAt: dzi, decoders: decoders, decoding: SandboxedDecoding.service(in: helpers))
        XCTAssertEqual(sandboxed.geometry, inProcess.geometry)
        XCTAssertEqual(inProcess.geometry.width, 300)
        let tile = TileID(level: inProcess.geometry.maxLevel, column: 1, row: 1)
        XCTAssertTrue(try sandboxed.loadTile(tile).bytes == inProcess.loadTile(tile).bytes)

        let flat = folder.appendingPathComponent("flat")
        try FileManager.default.createDirectory(at: flat, withIntermediateDirectories: true)
        for column in 0..<5 {
            for row in 0..<4 {
                let region = PixelRegion(x: column * 64, y: row * 64, width: min(64, 300 - column * 64), height: min(64, 200 - row * 64))
                try PNGEncoder.write(DeepZoomFixtures.crop(picture, region),
                                     to: flat.appendingPathComponent(String(format: "Snow_%02d_%02d.png", column, row)).path)
            }
        }
        let flatInProcess = try FlatTileFolderSource(folder: flat.path, decoders: decoders)
        let flatSandboxed = try FlatTileFolderSource(folder: flat.path, decoders: decoders, decoding: SandboxedDecoding.service(in: helpers))
        XCTAssertEqual(flatSandboxed.geometry, flatInProcess.geometry)
        XCTAssertEqual(flatInProcess.geometry.height, 200)
        let corner = TileID(level: flatInProcess.geometry.maxLevel, column: 4, row: 3)
        XCTAssertTrue(try flatSandboxed.loadTile(corner).bytes == flatInProcess.loadTile(corner).bytes)
    }

    private func result(_ body: () throws -> ImageProbe) -> String {
        do { return "\(try body())" } catch { return "\(error)" }
    }
}

private func le32(_ value: UInt32) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)] }

/// One entry of a little-endian TIFF directory as EXIF lays it out: a value of more than four bytes is
/// stored after the directory, a pointer to another directory is filled in when the block is put together.
private struct ExifEntry {
    var tag: UInt16
    var type: UInt16
    var count: UInt32
    var value: [UInt8]
    var pointer: Int?

    /// `type` 2 (ASCII) and 5 (RATIONAL) count their own values; SHORT and LONG give `count`.
    init(_ tag: UInt16, _ type: UInt16, _ value: [UInt8], count: UInt32? = nil) {
        self.tag = tag
        self.type = type
        self.value = value
        self.count = count ?? UInt32(type == 5 ? value.count / 8 : value.count)
    }

    /// A LONG pointing at directory number `directory`.
    init(_ tag: UInt16, _ type: UInt16, pointer directory: Int) {
        self.init(tag, type, [0, 0, 0, 0], count: 1)
        pointer = directory
    }

    /// The TIFF structure holding `directories`, the first being IFD0.
    static func tiff(_ directories: [[ExifEntry]]) -> [UInt8] {
        func size(_ entries: [ExifEntry]) -> Int {
            2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
        }
        var offsets = [8]
        for directory in directories.dropLast() { offsets.append(offsets.last! + size(directory)) }
        var out: [UInt8] = [0x49, 0x49, 42, 0] + le32(8)
        for (index, entries) in directories.enumerated() {
            var data: [UInt8] = []
            let dataStart = offsets[index] + 2 + 12 * entries.count + 4
            out += [UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
            for entry in entries {
                out += [UInt8(entry.tag & 0xFF), UInt8(entry.tag >> 8), UInt8(entry.type), 0] + le32(entry.count)
                if let pointer = entry.pointer {
                    out += le32(UInt32(offsets[pointer]))
                } else if entry.value.count <= 4 {
                    out += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
                } else {
                    out += le32(UInt32(dataStart + data.count))
                    data += entry.value
                    if data.count % 2 == 1 { data.append(0) }
                }
            }
            out += le32(0) + data
        }
        return out
    }
}
