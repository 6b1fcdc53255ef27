#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraFiles
@testable import TesseraImaging
@testable import TesseraSandbox

/// A run that opens one photo has its first helper warm up that photo's format and the common ones only,
/// so the photo is not decoded after warm-ups it does not need. Asked about a file of a format it did not
/// warm up, that helper reads nothing and stops, and a helper that warmed up everything answers: the user
/// sees the picture either way. The helpers are the built binary's.
final class FirstHelperWarmUpTests: XCTestCase {
    private func pool(firstWarmsUp formats: Set<ImageFormat>) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: 256 << 20)
        configuration.firstHelperWarmsUp = formats
        return DecodeHelperPool(configuration: configuration)
    }

    private func isRunning(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    func testTheFirstHelperDecodesItsFormatsAndHandsTheOthersToAHelperThatWarmedUpEverything() throws {
        let pool = pool(firstWarmsUp: WarmUpImages.firstHelperFormats(opening: .jpeg))
        defer { pool.shutdown() }
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding(pool: pool))
        let first = try XCTUnwrap(pool.idleProcessIDs.first)

        let photo = try loader.load(path: SampleImages.url("img1-baseline.jpg").path, fitting: nil)
        XCTAssertGreaterThan(photo.width, 0)
        XCTAssertEqual(pool.idleProcessIDs, [first], "the first helper decoded the JPEG and waits for more")
        _ = try loader.load(path: SampleImages.url("img5-alpha.png").path, fitting: nil)
        XCTAssertEqual(pool.idleProcessIDs, [first], "a PNG needs nothing the first helper lacks")

        // A BMP (gdk-pixbuf loads its module on first use) is decoded whole, by another helper.
        let bmp = try loader.load(path: SampleImages.url("img16.bmp").path, fitting: nil)
        let inProcess = try ImageLoader(decoders: ImageDecoders.standard()).load(path: SampleImages.url("img16.bmp").path, fitting: nil)
        XCTAssertEqual(bmp.bytes, inProcess.bytes)
        XCTAssertFalse(isRunning(first), "the first helper stopped, unharmed, without reading the BMP")
        let second = try XCTUnwrap(pool.idleProcessIDs.first)
        XCTAssertNotEqual(second, first)

        // Facts go the same way, and what answers them serves every format.
        let header = try SandboxedDecoding(pool: pool).header(of: ImageFile(path: SampleImages.url("img16.bmp").path))
        XCTAssertEqual(header.format, .bmp)
        XCTAssertEqual(pool.idleProcessIDs, [second])
    }

    /// A cut's rows at the pool's priority (`tessera tile`'s) are read by the first helper when it warmed
    /// up the file's format, and by one that serves every format when it did not. A cut below the pool's
    /// priority (the viewer's, of a giant image) leaves the first helper to the decodes the user waits for.
    func testACutsRowsGoToTheFirstHelperOnlyForAFormatItWarmedUp() throws {
        func rows(of name: String, through decoding: any DecodingService, priority: WorkerPriority = .normal) throws -> [UInt8] {
            let source = try decoding.rows(of: ImageFile(path: SampleImages.url(name).path),
                                           fallbackDecoders: ImageDecoders.standard(), pixelLimitForWholeDecode: 1 << 26,
                                           priority: priority, isCancelled: nil)
            let stride = source.width * 4, count = source.height
            var bytes = [UInt8](repeating: 0, count: stride * count)
            try bytes.withUnsafeMutableBytes { buffer in
                try source.readRows(into: buffer.baseAddress!, stride: stride, count: count)
            }
            try source.finish()
            return bytes
        }
        let background = pool(firstWarmsUp: [.jpeg])
        defer { background.shutdown() }
        let waiting = try XCTUnwrap(background.idleProcessIDs.first)
        XCTAssertEqual(try rows(of: "img1-baseline.jpg", through: SandboxedDecoding(pool: background), priority: .idle),
                       try rows(of: "img1-baseline.jpg", through: .inProcess))
        XCTAssertTrue(background.idleProcessIDs.contains(waiting) && isRunning(waiting),
                      "a background cut left the first helper waiting for the decodes the user waits for")

        let pool = pool(firstWarmsUp: [.jpeg])
        defer { pool.shutdown() }
        let first = try XCTUnwrap(pool.idleProcessIDs.first)
        let sandboxed = SandboxedDecoding(pool: pool)
        XCTAssertEqual(try rows(of: "img1-baseline.jpg", through: sandboxed), try rows(of: "img1-baseline.jpg", through: .inProcess))
        XCTAssertEqual(pool.idleProcessIDs, [first], "the first helper read the JPEG's rows")

        XCTAssertEqual(try rows(of: "img5-alpha.png", through: sandboxed), try rows(of: "img5-alpha.png", through: .inProcess))
        XCTAssertFalse(isRunning(first), "the first helper stopped without reading the PNG")
        XCTAssertEqual(pool.idleProcessIDs.count, 1)
        XCTAssertNotEqual(pool.idleProcessIDs.first, first)
    }

    func testAFirstHelperAskedAboutAnotherFormatFirstStillAnswersThroughAnother() throws {
        let pool = pool(firstWarmsUp: [.jpeg])
        defer { pool.shutdown() }
        let first = try XCTUnwrap(pool.idleProcessIDs.first)
        let svg = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-first-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#48c"/>\
            <text x="2" y="15" font-size="12">Ab</text></svg>
            """.utf8).write(to: svg)
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding(pool: pool))
        let drawn = try loader.load(path: svg.path, fitting: nil)
        XCTAssertEqual(drawn.size, PixelSize(width: 40, height: 20))
        XCTAssertFalse(isRunning(first))
    }

    /// A camera RAW needs no warm-up, so the first helper reads it itself: libraw, which the viewer loads
    /// only when called, was loaded before the helper locked itself down.
    func testTheFirstHelperReadsACameraRawWithTheLibraryItLoadedBeforeItsLockDown() throws {
        let pool = pool(firstWarmsUp: WarmUpImages.firstHelperFormats(opening: .jpeg))
        defer { pool.shutdown() }
        let first = try XCTUnwrap(pool.idleProcessIDs.first)
        let raw = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-first-\(UUID().uuidString).dng")
        defer { try? FileManager.default.removeItem(at: raw) }
        try RawDecoderTests.dng().write(to: raw)
        let loader = ImageLoader(decoders: ImageDecoders.standard(), decoding: SandboxedDecoding(pool: pool))
        let developed = try loader.load(path: raw.path, fitting: nil)
        let inProcess = try ImageLoader(decoders: ImageDecoders.standard()).load(path: raw.path, fitting: nil)
        XCTAssertEqual(developed.size, PixelSize(width: 256, height: 192))
        XCTAssertEqual(developed.bytes, inProcess.bytes)
        XCTAssertEqual(pool.idleProcessIDs, [first], "the first helper developed the RAW and waits for more")
    }

    /// A question only librsvg answers (an SVG's drawing size), asked about a file that does not look like
    /// an SVG, would have the first helper call a library it never loaded: it hands the question on
    /// without reading the file and stays, and a helper that loaded everything answers.
    func testAQuestionForALibraryTheFirstHelperNeverLoadedGoesToAnother() throws {
        let pool = pool(firstWarmsUp: WarmUpImages.firstHelperFormats(opening: .jpeg))
        defer { pool.shutdown() }
        let first = try XCTUnwrap(pool.idleProcessIDs.first)
        let notes = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-first-\(UUID().uuidString).svg")
        defer { try? FileManager.default.removeItem(at: notes) }
        try Data("just some words\n".utf8).write(to: notes)
        XCTAssertThrowsError(try SandboxedDecoding(pool: pool).facts(.drawingSize, of: ImageFile(path: notes.path))) { error in
            XCTAssertFalse("\(error)".contains("crashed"), "librsvg's answer, not a helper's end: \(error)")
        }
        XCTAssertFalse(isRunning(first), "the first helper stopped without reading the file")
        XCTAssertEqual(pool.idleProcessIDs.count, 1, "a helper that loaded everything answered and waits")
    }

    /// Every library the stubs stand for is the one installed: a soname that no longer matches would end
    /// the first decode that calls it.
    func testEveryCodecLibraryTheViewerLoadsOnFirstUseCanBeLoaded() {
        XCTAssertEqual(CodecLibraries.all.count, 8, "\(CodecLibraries.all)")
        XCTAssertEqual(CodecLibraries.load(for: nil), [])
        XCTAssertEqual(CodecLibraries.loaded(), Set(CodecLibraries.all))
    }

    func testAnAnimationsFramesNeverGetTheFirstHelper() throws {
        let pool = pool(firstWarmsUp: [.jpeg])
        defer { pool.shutdown() }
        let first = try XCTUnwrap(pool.idleProcessIDs.first)
        let lent = try pool.borrow()
        defer { pool.giveBack(lent) }
        XCTAssertNotEqual(lent.pid, first)
        XCTAssertTrue(lent.servesEveryFormat)
        XCTAssertEqual(pool.idleProcessIDs, [first])
    }
}
