#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore
import TesseraTestBasics
import XCTest
@testable import TesseraImaging
@testable import TesseraTiling

/// All or nothing: bad input, cancellation and existing output never leave partial files behind.
final class TileCutterSafetyTests: XCTestCase {
    private func jpeg(_ w: Int, _ h: Int) -> Data {
        TestJPEG.encode(.bgra(TilingFixtures.pattern(width: w, height: h)), quality: 90)
    }

    private func assertFails(_ source: String, into out: String, options: TileCutterOptions = TileCutterOptions(),
                             decoders: [any ImageDecoding] = [], with expected: TileCutError.Reason,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try TileCutter(options: options, fallbackDecoders: decoders).cut(imageAt: source, into: out),
                             file: file, line: line) { error in
            XCTAssertEqual((error as? TileCutError)?.reason, expected, "\(error)", file: file, line: line)
            XCTAssertEqual((error as? TileCutError)?.path, source, file: file, line: line)
            XCTAssertFalse("\(error)".contains("\n"), "one line", file: file, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing written, not even the folder",
                       file: file, line: line)
    }

    func testBrokenInputsFailWithAClearReasonAndWriteNothing() throws {
        let dir = try TemporaryDirectory()
        let whole = jpeg(600, 700)
        let truncated = try dir.write(whole.prefix(whole.count / 2), to: "truncated.jpg")
        let empty = try dir.write(Data(), to: "empty.jpg")
        var generator = SystemRandomNumberGenerator()
        let random = try dir.write(Data((0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) | 1 }),
                                   to: "random.jpg")
        let png = TilingFixtures.png(TilingFixtures.pattern(width: 400, height: 300))
        let truncatedPNG = try dir.write(png.prefix(png.count * 2 / 3), to: "truncated.png")
        let headerOnly = try dir.write(whole.prefix(300), to: "header-only.jpg")

        assertFails(truncated, into: dir.path("o1"), with: .truncated)
        assertFails(empty, into: dir.path("o2"), with: .empty)
        assertFails(random, into: dir.path("o3"), with: .notAnImage)
        assertFails(dir.path("missing.jpg"), into: dir.path("o4"), with: .missing)
        assertFails(truncatedPNG, into: dir.path("o5"), with: .truncated)
        assertFails(headerOnly, into: dir.path("o6"), with: .truncated)
        assertFails(dir.url.path, into: dir.path("o7"), with: .unreadable("not a regular file"))
    }

    func testCorruptJPEGDataIsAnErrorNotACrash() throws {
        let dir = try TemporaryDirectory()
        var bytes = [UInt8](jpeg(300, 300))
        // Clobber the Huffman tables' definitions: libjpeg's error_exit must come back as an error.
        for i in 0..<(bytes.count - 1) where bytes[i] == 0xFF && bytes[i + 1] == 0xC4 {
            bytes[i + 4] = 0x77
        }
        let source = try dir.write(Data(bytes), to: "corrupt.jpg")
        XCTAssertThrowsError(try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("o"))) { error in
            guard case .corrupt = (error as? TileCutError)?.reason else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(TilingFixtures.entries(of: dir.path("o")), [])
    }

    func testCancelledCutLeavesNothingAndTheNextRunSucceeds() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(jpeg(1500, 1200), to: "big.jpg")
        let out = dir.path("out")
        for layout in [TileLayoutKind.dzi, .flat] {
            var options = TileCutterOptions()
            options.layout = layout
            let cancel = CancelAfter(40)  // 40 calls, 16 rows each: 624 rows in, tiles already written
            XCTAssertThrowsError(try TileCutter(options: options).cut(imageAt: source, into: out, isCancelled: cancel.isCancelled)) { error in
                XCTAssertEqual((error as? TileCutError)?.reason, .cancelled)
            }
            XCTAssertEqual(TilingFixtures.entries(of: out), [], "\(layout): nothing at the destination, no temporary folder")

            let result = try TileCutter(options: options).cut(imageAt: source, into: out)
            XCTAssertEqual(result.tilesWritten, layout == .dzi ? result.geometry.totalTileCount : 30)
            try FileManager.default.removeItem(atPath: out)
        }
    }

    func testCancelledBeforeStartingWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(jpeg(100, 100), to: "a.jpg")
        XCTAssertThrowsError(try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: dir.path("o"),
                                                                              isCancelled: { true }))
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path("o")))
    }

    func testExistingOutputIsRefusedUnlessReplacing() throws {
        let dir = try TemporaryDirectory()
        let big = try dir.write(jpeg(900, 600), to: "pic.jpg")
        let out = dir.path("out")
        let first = try TileCutter(options: TileCutterOptions()).cut(imageAt: big, into: out)
        let before = TilingFixtures.files(in: first.tilesFolder)

        try FileManager.default.createDirectory(atPath: dir.path("small"), withIntermediateDirectories: true)
        let small = try dir.write(jpeg(300, 200), to: "small/pic.jpg")
        XCTAssertThrowsError(try TileCutter(options: TileCutterOptions()).cut(imageAt: small, into: out)) { error in
            XCTAssertEqual((error as? TileCutError)?.reason, .outputExists)
            XCTAssertEqual((error as? TileCutError)?.path, dir.path("out/pic.dzi"))
        }
        XCTAssertEqual(TilingFixtures.files(in: first.tilesFolder), before, "untouched")
        XCTAssertEqual(TilingFixtures.entries(of: out), ["pic.dzi", "pic_files"])

        var replace = TileCutterOptions()
        replace.replaceExisting = true
        let second = try TileCutter(options: replace).cut(imageAt: small, into: out)
        XCTAssertEqual(TilingFixtures.files(in: second.tilesFolder), TilingFixtures.expectedDeepZoomFiles(second.geometry),
                       "old tiles gone")
        XCTAssertEqual(TilingFixtures.entries(of: out), ["pic.dzi", "pic_files"])
        XCTAssertTrue(try String(contentsOfFile: second.descriptorPath!, encoding: .utf8).contains("Width=\"300\""))
    }

    func testExistingFlatTilesAreRefusedUnlessReplacing() throws {
        let dir = try TemporaryDirectory()
        var options = TileCutterOptions()
        options.layout = .flat
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out + "/pic_notes.txt"))
        _ = try TileCutter(options: options).cut(imageAt: try dir.write(jpeg(600, 300), to: "pic.jpg"), into: out)
        XCTAssertEqual(TilingFixtures.entries(of: out).count, 7)
        try FileManager.default.createDirectory(atPath: dir.path("small"), withIntermediateDirectories: true)
        let small = try dir.write(jpeg(200, 100), to: "small/pic.jpg")
        XCTAssertThrowsError(try TileCutter(options: options).cut(imageAt: small, into: out)) { error in
            XCTAssertEqual((error as? TileCutError)?.reason, .outputExists)
        }
        options.replaceExisting = true
        _ = try TileCutter(options: options).cut(imageAt: small, into: out)
        XCTAssertEqual(TilingFixtures.entries(of: out), ["pic_00_00.jpg", "pic_notes.txt"])
    }

    func testStaleTemporaryFolderOfADeadProcessIsRemoved() throws {
        let dir = try TemporaryDirectory()
        let out = dir.path("out")
        // A PID that is not running.
        var dead: Int32 = 4_000_000
        while kill(dead, 0) == 0 || errno != ESRCH { dead -= 1 }
        let stale = out + "/.pic.dzi.tmp-\(dead)-1"
        let live = out + "/.pic.dzi.tmp-\(getppid())-1"
        for folder in [stale, live] {
            try FileManager.default.createDirectory(atPath: folder + "/pic_files/0", withIntermediateDirectories: true)
        }
        _ = try TileCutter(options: TileCutterOptions()).cut(imageAt: try dir.write(jpeg(50, 50), to: "pic.jpg"), into: out)
        XCTAssertEqual(TilingFixtures.entries(of: out), [".pic.dzi.tmp-\(getppid())-1", "pic.dzi", "pic_files"])
    }

    func testWholeDecodeLimits() throws {
        let dir = try TemporaryDirectory()
        var options = TileCutterOptions()
        options.pixelLimitForWholeDecode = 10_000
        let progressive = try dir.write(TilingFixtures.progressiveJPEG(TestPixels.gradient(width: 200, height: 100)),
                                        to: "progressive.jpg")
        assertFails(progressive, into: dir.path("o1"), options: options,
                    with: .tooLargeForWholeDecode(format: "a progressive JPEG", width: 200, height: 100, limit: 10_000))
        let bmp = try dir.write(TestHeaders.bmp(width: 300, height: 100), to: "pic.bmp")
        let decoder = RecordingDecoder(formats: [.bmp])
        assertFails(bmp, into: dir.path("o2"), options: options, decoders: [decoder],
                    with: .tooLargeForWholeDecode(format: "BMP", width: 300, height: 100, limit: 10_000))
        XCTAssertEqual(decoder.calls, [], "refused from the header, before decoding")
        assertFails(bmp, into: dir.path("o3"), with: .unsupportedFormat("BMP"))
        // A baseline JPEG streams whatever the limit.
        let baseline = try dir.write(jpeg(200, 100), to: "baseline.jpg")
        XCTAssertNoThrow(try TileCutter(options: options).cut(imageAt: baseline, into: dir.path("o4")))
    }

    func testInvalidOptionsAreRefused() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(jpeg(10, 10), to: "a.jpg")
        for change in [{ (o: inout TileCutterOptions) in o.tileSize = 0 }, { $0.overlap = -1 }, { $0.overlap = 300 },
                       { $0.quality = 0 }, { $0.quality = 101 }] {
            var options = TileCutterOptions()
            change(&options)
            XCTAssertThrowsError(try TileCutter(options: options).cut(imageAt: source, into: dir.path("o"))) { error in
                guard case .invalidOptions = (error as? TileCutError)?.reason else { return XCTFail("\(error)") }
            }
        }
    }

    func testWriteFailureIsReportedAndCleanedUp() throws {
        let dir = try TemporaryDirectory()
        let source = try dir.write(jpeg(800, 600), to: "a.jpg")
        let out = dir.path("out")
        // A file size limit makes tile writes fail with EFBIG part way (root included); SIGXFSZ would kill
        // the test process, so it is ignored meanwhile.
        var saved = rlimit()
        getrlimit(RLIMIT_FSIZE_VALUE, &saved)
        let oldHandler = signal(SIGXFSZ, SIG_IGN)
        var limited = saved
        limited.rlim_cur = 3000
        setrlimit(RLIMIT_FSIZE_VALUE, &limited)
        defer {
            setrlimit(RLIMIT_FSIZE_VALUE, &saved)
            signal(SIGXFSZ, oldHandler)
        }
        XCTAssertThrowsError(try TileCutter(options: TileCutterOptions()).cut(imageAt: source, into: out)) { error in
            guard case .outputFailed = (error as? TileCutError)?.reason else { return XCTFail("\(error)") }
            XCTAssertTrue((error as? TileCutError)?.path.hasSuffix(".jpeg") == true, "names the tile: \(error)")
        }
        XCTAssertEqual(TilingFixtures.entries(of: out), [])
    }

    func testUnwritableDestinationIsReported() throws {
        let dir = try TemporaryDirectory()
        let blocker = try dir.write(Data("x".utf8), to: "file")
        XCTAssertThrowsError(try TileCutter(options: TileCutterOptions())
            .cut(imageAt: try dir.write(jpeg(10, 10), to: "a.jpg"), into: blocker + "/out")) { error in
            guard case .outputFailed = (error as? TileCutError)?.reason else { return XCTFail("\(error)") }
        }
    }
}

#if canImport(Glibc)
private let RLIMIT_FSIZE_VALUE = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
#else
private let RLIMIT_FSIZE_VALUE = RLIMIT_FSIZE
#endif
