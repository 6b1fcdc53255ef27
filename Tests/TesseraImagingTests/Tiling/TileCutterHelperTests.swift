#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraSandbox
@testable import TesseraTiling

/// The tile cutter reading its rows in a sandboxed decode helper (`HelperScanlineSource`): the same tiles
/// and the same refusals as in process; a helper that dies, runs out of memory or time in the middle of a
/// cut fails that cut with the reason and the next cut works; a cancelled cut stops while the helper
/// decodes. The helpers are the built binary's; its debug build carries the test-only misbehaviours
/// (`MisbehavingDecoder.beforeRows`), switched on by an environment variable.
final class TileCutterHelperTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private func pool(timeLimit: Duration = .seconds(20), memoryLimit: Int = 256 << 20,
                      priority: WorkerPriority = .normal) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: BuiltBinary.url(named: "tessera").path,
                                                           helperCount: 1, memoryLimit: memoryLimit, timeLimit: timeLimit)
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        configuration.priority = priority
        return DecodeHelperPool(configuration: configuration)
    }

    private func cutter(_ helpers: DecodeHelperPool?, format: TileFormat = .jpeg) -> TileCutter {
        var options = TileCutterOptions()
        options.decoding = SandboxedDecoding.service(in: helpers)
        options.format = format
        options.pixelLimitForWholeDecode = 2_000_000
        return TileCutter(options: options)
    }

    /// Every file `cutter` writes for `source`, by path relative to the output folder.
    private func tiles(_ cutter: TileCutter, _ source: String, into out: String) throws -> [String: Data] {
        _ = try cutter.cut(imageAt: source, into: out)
        var files: [String: Data] = [:]
        for name in TilingFixtures.files(in: out) { files[name] = try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)) }
        return files
    }

    private func reason(_ cutter: TileCutter, _ source: String, into out: String,
                        isCancelled: (@Sendable () -> Bool)? = nil) -> TileCutError.Reason? {
        do {
            _ = try cutter.cut(imageAt: source, into: out, isCancelled: isCancelled)
            return nil
        } catch {
            XCTAssertEqual(TilingFixtures.entries(of: out), [], "\(source): nothing left at the destination")
            return (error as? TileCutError)?.reason
        }
    }

    /// A JPEG tall enough for several rows requests, with `misbehaviour` after its end (nil: none).
    private func jpeg(_ name: String, misbehaviour: String? = nil) throws -> String {
        var bytes = TestJPEG.encode(.bgra(TilingFixtures.pattern(width: 300, height: 900)), quality: 90)
        if let misbehaviour { bytes += Data("tessera-test:\(misbehaviour)".utf8) }
        return try dir.write(bytes, to: name)
    }

    func testACutThroughAHelperWritesTheTilesOfTheCutInProcess() throws {
        // Each reader and what its rows carry across: colour profiles (a tagged JPEG, a TIFF), CMYK turned
        // into sRGB in the helper, grey and alpha, a progressive JPEG and a BMP decoded whole.
        let helpers = pool()
        defer { helpers.shutdown() }
        let image = TilingFixtures.pattern(width: 700, height: 1300)
        var grey = TilingFixtures.pattern(width: 300, height: 200)
        for i in stride(from: 0, to: grey.bytes.count, by: 4) { grey.bytes[i + 1] = grey.bytes[i]; grey.bytes[i + 2] = grey.bytes[i] }
        var translucent = TilingFixtures.pattern(width: 520, height: 610)
        for i in stride(from: 3, to: translucent.bytes.count, by: 4) { translucent.bytes[i] = UInt8(i / 4 % 251) }
        var cmyk: [UInt8] = []
        for i in 0..<(300 * 200) { cmyk += [UInt8(i % 251), UInt8(i / 300 % 256), UInt8(i % 300 * 255 / 300), UInt8(255 - i % 97)] }
        let tiff = dir.path("strips.tif")
        try TIFFFixtures.write([image], to: tiff, layout: .init(tileSize: nil, iccProfile: ColourFixtures.displayP3))
        let sources: [(String, TileFormat)] = [
            (try dir.write(TestJPEG.encode(.bgra(image), quality: 90), to: "baseline.jpg"), .jpeg),
            (try dir.write(ColourFixtures.jpeg(TestJPEG.encode(.bgra(image)), withICC: ColourFixtures.displayP3), to: "p3.jpg"), .jpeg),
            (try dir.write(TestJPEG.encode(.cmyk(width: 300, height: 200, bytes: cmyk)), to: "cmyk.jpg"), .jpeg),
            (try dir.write(TilingFixtures.png(grey, channels: .grey), to: "grey.png"), .png),
            (try dir.write(TilingFixtures.png(translucent, channels: .rgba), to: "alpha.png"), .png),
            (try dir.write(TilingFixtures.progressiveJPEG(image), to: "progressive.jpg"), .jpeg),
            (tiff, .jpeg),
            (SampleImages.url("img16.bmp").path, .png),
        ]
        for (index, (source, format)) in sources.enumerated() {
            let expected = try tiles(cutter(nil, format: format), source, into: dir.path("in-process-\(index)"))
            let got = try tiles(cutter(helpers, format: format), source, into: dir.path("helper-\(index)"))
            XCTAssertFalse(expected.isEmpty)
            XCTAssertEqual(Set(got.keys), Set(expected.keys), source)
            XCTAssertTrue(got == expected, "\(source): the same tiles, byte for byte")
        }
    }

    func testRefusalsThroughAHelperAreTheRefusalsInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let whole = TestJPEG.encode(.bgra(TilingFixtures.pattern(width: 600, height: 700)), quality: 90)
        let big = TilingFixtures.pattern(width: 2000, height: 1100)
        let sources = [
            try dir.write(whole.prefix(whole.count / 2), to: "truncated.jpg"),
            try dir.write(whole.prefix(300), to: "header-only.jpg"),
            try dir.write(Data("not an image, whatever its name says".utf8), to: "text.jpg"),
            try dir.write(Data(), to: "empty.jpg"),
            dir.path("missing.jpg"),
            try dir.write(TilingFixtures.progressiveJPEG(big), to: "progressive-too-big.jpg"),
        ]
        for (index, source) in sources.enumerated() {
            let expected = reason(cutter(nil), source, into: dir.path("in-process-\(index)"))
            XCTAssertNotNil(expected, source)
            XCTAssertEqual(reason(cutter(helpers), source, into: dir.path("helper-\(index)")), expected, source)
        }
        XCTAssertEqual(reason(cutter(helpers), sources[0], into: dir.path("o")), .truncated)
    }

    func testAHelperThatFailsMidCutFailsThatCutAndTheNextCutWorks() throws {
        let helpers = pool(timeLimit: .seconds(2))
        defer { helpers.shutdown() }
        let good = try jpeg("good.jpg")
        let cases: [(String, DecodeHelperFailure)] = [("crash", .crashed(signal: SIGSEGV)), ("allocate", .memoryLimit),
                                                      ("loop", .timeLimit)]
        for (misbehaviour, failure) in cases {
            let bad = try jpeg("\(misbehaviour).jpg", misbehaviour: misbehaviour)
            XCTAssertEqual(reason(cutter(helpers), bad, into: dir.path("bad-\(misbehaviour)")), .decoderFailed(failure))
            XCTAssertEqual(TileCutError(path: bad, reason: .decoderFailed(failure)).description, "\(bad): \(failure.shortText)")
            XCTAssertNil(reason(cutter(helpers), good, into: dir.path("good-\(misbehaviour)")), "the next cut after \(misbehaviour)")
        }
    }

    func testCancellingACutEndsItWhileTheHelperDecodes() throws {
        let helpers = pool(timeLimit: .seconds(60))
        defer { helpers.shutdown() }
        let looping = try jpeg("loop.jpg", misbehaviour: "loop")
        let started = ContinuousClock.now
        let cancelled: @Sendable () -> Bool = { ContinuousClock.now - started > .milliseconds(500) }
        XCTAssertEqual(reason(cutter(helpers), looping, into: dir.path("o"), isCancelled: cancelled), .cancelled)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "stopped long before the time limit")
        XCTAssertNil(reason(cutter(helpers), try jpeg("good.jpg"), into: dir.path("next")))
    }

    /// The rows of a JPEG too big to decode whole under the helper's address-space limit stream through it.
    func testAHelperStreamsRowsOfAnImageItCannotHoldWhole() throws {
        let helpers = pool(memoryLimit: 64 << 20)
        defer { helpers.shutdown() }
        let source = try dir.write(TestJPEG.encode(.bgra(TilingFixtures.pattern(width: 6000, height: 4000)), quality: 80),
                                   to: "wide.jpg")
        let whole = ImageLoader(decoders: ImageDecoders.standard(), pixelLimit: .max, decoding: SandboxedDecoding.service(in: helpers))
        XCTAssertThrowsError(try whole.load(path: source, fitting: nil)) { error in
            XCTAssertEqual((error as? ImageLoadError)?.reason, .helperFailed(.memoryLimit))
        }
        let result = try cutter(helpers).cut(imageAt: source, into: dir.path("o"))
        XCTAssertEqual(result.tilesWritten, result.geometry.totalTileCount)
    }

    func testABackgroundCutsHelperRunsAtTheCutsPriorityAndIsNotReusedAfter() throws {
        try checkCutHelperPriority(pool: .normal, cut: .background)
    }

    /// The viewer's own helpers run at background priority; its cut of a giant image runs lower still, so
    /// the overview and the tiles on screen decode first.
    func testAnIdleCutThroughTheViewersBackgroundHelpersRunsBelowThem() throws {
        try checkCutHelperPriority(pool: .background, cut: .idle)
    }

    private func checkCutHelperPriority(pool poolPriority: WorkerPriority, cut cutPriority: WorkerPriority) throws {
        let helpers = pool(priority: poolPriority)
        defer { helpers.shutdown() }
        helpers.waitUntilReady()
        let ownNice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let poolNice = min(19, ownNice + poolPriority.niceIncrement)
        let before = Set(Self.childProcesses())
        var options = TileCutterOptions()
        options.decoding = SandboxedDecoding.service(in: helpers)
        options.workerPriority = cutPriority
        let seen = Mutex<[pid_t: Int32]>([:])
        _ = try TileCutter(options: options).cut(imageAt: try jpeg("a.jpg"), into: dir.path("o"), isCancelled: {
            for pid in Self.childProcesses() {
                let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid))
                seen.withLock { $0[pid] = nice }
            }
            return false
        })
        let during = seen.withLock { $0 }
        XCTAssertTrue(during.contains { before.contains($0.key) && $0.value == min(19, ownNice + cutPriority.niceIncrement) },
                      "the pool's helper reads the rows at the cut's priority: \(during), own \(ownNice)")
        let after = Self.childProcesses()
        XCTAssertFalse(after.isEmpty)
        for pid in after {
            XCTAssertEqual(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(pid)), poolNice,
                           "a lowered helper is replaced, not handed to the next decode")
        }
    }

    /// This process's children, from /proc.
    private static func childProcesses() -> [pid_t] {
        let tasks = "/proc/self/task"
        return ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).flatMap { task -> [pid_t] in
            let text = (try? String(contentsOfFile: "\(tasks)/\(task)/children", encoding: .utf8)) ?? ""
            return text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }
}
