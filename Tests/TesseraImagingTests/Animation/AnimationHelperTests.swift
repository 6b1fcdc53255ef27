#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore
import TesseraTestSupport
import XCTest
@testable import TesseraImaging
@testable import TesseraSandbox

/// Animations decoded in a sandboxed decode helper (`HelperAnimationReader`, a frames exchange): each
/// format's frames, delays and loop counts as read in process, again after a rewind; the feed's looping
/// past its memory bound; a helper that fails in the middle of an animation stops it and the next image
/// decodes; with no helper to run, nothing is decoded in the viewer instead. The helpers are the built
/// binary's; its debug build carries the test-only misbehaviours, switched on by an environment variable.
final class AnimationHelperTests: XCTestCase {
    private typealias Tools = FormatFixtureTools
    private typealias Frame = GIFFixtures.Frame
    private var dir: TemporaryDirectory!

    override func setUpWithError() throws { dir = try TemporaryDirectory() }
    override func tearDown() { dir = nil }

    private func pool(executable: String = BuiltBinary.url(named: "tessera").path,
                      timeLimit: Duration = .seconds(20)) -> DecodeHelperPool {
        var configuration = DecodeHelperPool.Configuration(executable: executable, helperCount: 1,
                                                           memoryLimit: 256 << 20, timeLimit: timeLimit)
        configuration.environment = ["TESSERA_TEST_MISBEHAVING_DECODERS": "1"]
        return DecodeHelperPool(configuration: configuration)
    }

    private func options(_ helpers: DecodeHelperPool?) -> AnimationFeed.Options {
        var options = AnimationFeed.Options()
        options.colour = nil
        options.decoding = SandboxedDecoding.service(in: helpers)
        return options
    }

    private func frames(_ reader: any AnimationReading) throws -> [(pixels: PixelBuffer, delay: Duration)] {
        var all: [(pixels: PixelBuffer, delay: Duration)] = []
        while let frame = try reader.nextFrame() { all.append(frame) }
        return all
    }

    private func gif(_ count: Int = 3, repeats: Int? = 2, tail: String? = nil) -> Data {
        var data = GIFDecoderTests.gif(repeats: repeats, frames: (0..<count).map {
            Frame(width: 64, height: 48, indices: Array(repeating: UInt8($0 % 4), count: 64 * 48), delay: 10 + $0)
        })
        if let tail { data += Data("tessera-test:\(tail)".utf8) }
        return data
    }

    /// An animated WebP, JPEG XL and AVIF made by the formats' tools (skipped when one is missing).
    private func madeWithTools() throws -> [String] {
        var colours = [PixelBuffer]()
        for colour in [Tools.topLeft, Tools.topRight, Tools.bottomLeft] {
            var frame = PixelBuffer(width: 32, height: 24, filledWith: colour)
            for i in stride(from: 3, to: frame.bytes.count / 2, by: 4) { frame.bytes[i] = 128 }
            colours.append(frame)
        }
        var pngs: [String] = []
        for (index, frame) in colours.enumerated() {
            let path = dir.path("\(index).png")
            try PNGEncoder.write(frame, to: path)
            pngs.append(path)
        }
        let webp = dir.path("a.webp"), jxl = dir.path("a.jxl"), avif = dir.path("a.avif")
        try Tools.run("img2webp", ["-loop", "3", "-d", "80", pngs[0], "-d", "10", pngs[1], "-d", "300", pngs[2], "-o", webp],
                      package: "webp")
        let gifPath = try dir.write(gif(), to: "for-jxl.gif")
        try Tools.run("cjxl", [gifPath, jxl, "-d", "0", "--quiet"], package: "libjxl-tools")
        try Tools.run("avifenc", ["--timescale", "1000", "--lossless", "--duration", "200", pngs[0], "--duration", "500",
                                  pngs[1], "--duration", "300", pngs[2], avif], package: "libavif-bin")
        return [webp, jxl, avif]
    }

    func testFramesThroughAHelperAreTheFramesReadInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        let red = RGBA(r: 220, g: 30, b: 30), clear = RGBA(r: 0, g: 0, b: 0, a: 0)
        let apng = APNGReaderTests.apng(width: 8, height: 8, plays: 3, frames: [
            .init(width: 8, height: 8, pixels: Array(repeating: red, count: 64), delay: (1, 10)),
            .init(x: 2, y: 2, width: 4, height: 4, pixels: Array(repeating: clear, count: 16), delay: (30, 100), dispose: 1, blend: 1),
        ])
        let sources = [try dir.write(gif(), to: "a.gif"), try dir.write(apng, to: "a.png")] + (try madeWithTools())
        for source in sources {
            let data = try Data(contentsOf: URL(fileURLWithPath: source))
            let local = try AnimatedImage.reader(for: data, pixelLimit: 100_000_000)
            let expected = try frames(local)
            XCTAssertGreaterThan(expected.count, 1, source)
            let session = try XCTUnwrap(HelperAnimationReader.open(path: source, options: options(helpers), pool: helpers))
            for play in 0..<2 {
                let got = try frames(play == 0 ? session : session.rewound())
                XCTAssertEqual(got.map(\.delay), expected.map(\.delay), "\(source), play \(play)")
                XCTAssertEqual(got.map(\.pixels.bytes), expected.map(\.pixels.bytes), "\(source), play \(play)")
                XCTAssertEqual(got.map(\.pixels.colourProfile), expected.map(\.pixels.colourProfile), source)
                XCTAssertEqual(got.map(\.pixels.colourCodePoints), expected.map(\.pixels.colourCodePoints), source)
            }
            XCTAssertEqual(session.plays, local.plays, source)
            XCTAssertEqual(session.canvasSize, local.canvasSize, source)
            XCTAssertEqual(AnimatedImage.isAnimated(fileAt: source, decoding: SandboxedDecoding.service(in: helpers)), true, source)
        }
    }

    func testStillsAndRefusalsThroughAHelperAreThoseInProcess() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        var animationsOnly = options(helpers)
        animationsOnly.onlyAnimations = true
        let stillGIF = try dir.write(gif(1), to: "still.gif")
        let stillPNG = dir.path("still.png")
        try Tools.writeQuadrantsPNG(to: stillPNG)
        for still in [stillGIF, stillPNG] {
            XCTAssertNil(try HelperAnimationReader.open(path: still, options: animationsOnly, pool: helpers), still)
            XCTAssertFalse(AnimatedImage.isAnimated(fileAt: still, decoding: SandboxedDecoding.service(in: helpers)), still)
        }
        let whole = gif()
        for (name, data) in [("cut.gif", whole.prefix(40)), ("text.gif", Data("no GIF at all".utf8))] {
            let path = try dir.write(data, to: name)
            var expected: ImageLoadError.Reason?
            do { _ = try frames(AnimatedImage.reader(for: data, pixelLimit: 100_000_000)) } catch { expected = error as? ImageLoadError.Reason }
            XCTAssertNotNil(expected, name)
            XCTAssertThrowsError(try HelperAnimationReader.open(path: path, options: options(helpers), pool: helpers), name) {
                XCTAssertEqual($0 as? ImageLoadError.Reason, expected, name)
            }
        }
        XCTAssertEqual(helpers.idleProcessIDs.count, 1, "refusals and stills hand the helper back")

        // A JPEG XL still: its header, read by libjxl in the helper, tells.
        let stillJXL = dir.path("still.jxl")
        try Tools.run("cjxl", [stillPNG, stillJXL, "-d", "0", "--quiet"], package: "libjxl-tools")
        XCTAssertNil(try HelperAnimationReader.open(path: stillJXL, options: animationsOnly, pool: helpers))
        XCTAssertFalse(AnimatedImage.isAnimated(fileAt: stillJXL, decoding: SandboxedDecoding.service(in: helpers)))
        XCTAssertEqual(helpers.idleProcessIDs.count, 1)
    }

    /// The indices and first bytes of the next `count` frames, waiting for each.
    private func take(_ count: Int, from feed: AnimationFeed) -> [(index: Int, pixels: PixelBuffer)] {
        var taken: [(index: Int, pixels: PixelBuffer)] = []
        let deadline = Date().addingTimeInterval(20)
        while taken.count < count && Date() < deadline && feed.failure == nil {
            if let frame = feed.takeFrame() { taken.append((frame.index, frame.pixels)) } else { Thread.sleep(forTimeInterval: 0.002) }
        }
        return taken
    }

    private func waitForIdle(_ helpers: DecodeHelperPool, count: Int) -> [pid_t] {
        let deadline = Date().addingTimeInterval(20)
        while helpers.idleProcessIDs.count < count && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        return helpers.idleProcessIDs
    }

    func testAFeedLoopsThroughAHelperPastItsMemoryBoundAndHandsTheHelperBack() throws {
        let helpers = pool()
        defer { helpers.shutdown() }
        helpers.waitUntilReady()
        let started = helpers.idleProcessIDs
        XCTAssertEqual(started.count, 1)
        let path = try dir.write(gif(4), to: "a.gif")
        var local = options(nil)
        local.budgetBytes = 0
        var helped = options(helpers)
        helped.budgetBytes = 0
        let inProcess = AnimationFeed(path: path, options: local, onFrame: {})
        let expected = take(12, from: inProcess)
        inProcess.stop()
        XCTAssertEqual(expected.map(\.index), Array(repeating: Array(0..<4), count: 3).flatMap { $0 })

        let feed = AnimationFeed(path: path, options: helped, onFrame: {})
        let got = take(12, from: feed)
        XCTAssertEqual(got.map(\.index), expected.map(\.index), "three plays, each decoded again in the helper")
        XCTAssertEqual(got.map(\.pixels.bytes), expected.map(\.pixels.bytes))
        XCTAssertFalse(feed.isReplayingFromMemory)
        XCTAssertEqual(feed.plays, 3)
        XCTAssertEqual(helpers.idleProcessIDs, [], "the playing animation holds its helper")
        feed.stop()
        XCTAssertEqual(waitForIdle(helpers, count: 1), started, "a stopped animation hands its helper back")

        // One that fits its budget is held whole; its helper goes back while it replays from memory.
        let held = AnimationFeed(path: path, options: options(helpers), onFrame: {})
        XCTAssertEqual(take(8, from: held).map(\.index), [0, 1, 2, 3, 0, 1, 2, 3])
        XCTAssertTrue(held.isReplayingFromMemory)
        XCTAssertEqual(waitForIdle(helpers, count: 1), started)
        held.stop()
    }

    func testAHelperThatFailsMidAnimationStopsItAndTheNextImageDecodes() throws {
        let helpers = pool(timeLimit: .seconds(2))
        defer { helpers.shutdown() }
        let loader = ImageLoader(decoders: [], decoding: SandboxedDecoding.service(in: helpers))
        let good = try dir.write(gif(), to: "good.gif")
        for (misbehaviour, failure) in [("crash", DecodeHelperFailure.crashed(signal: SIGSEGV)), ("loop", .timeLimit)] {
            let path = try dir.write(gif(tail: misbehaviour), to: "\(misbehaviour).gif")
            let feed = AnimationFeed(path: path, options: options(helpers), onFrame: {})
            // The first frame comes with the opening; the helper misbehaves asked for the second.
            let taken = take(3, from: feed)
            XCTAssertEqual(taken.map(\.index), [0], misbehaviour)
            let deadline = Date().addingTimeInterval(20)
            while feed.failure == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            XCTAssertEqual(feed.failure, .helperFailed(failure), misbehaviour)
            Thread.sleep(forTimeInterval: 0.1)
            XCTAssertNil(feed.takeFrame(), "\(misbehaviour): the animation stops, nothing tries again")
            XCTAssertFalse(feed.isReplayingFromMemory, misbehaviour)
            XCTAssertEqual(waitForIdle(helpers, count: 1).count, 1, "\(misbehaviour): the pool has a fresh helper")
            XCTAssertEqual(try loader.load(path: good, fitting: nil).size, PixelSize(width: 64, height: 48),
                           "\(misbehaviour): the next image decodes")
        }
    }

    func testWithNoHelperToRunNothingIsDecodedInTheViewer() throws {
        // A "helper" that exits at once: had the viewer read the frames or probed the file itself, the
        // animation would play and the JPEG XL would be an animation.
        let helpers = pool(executable: "/bin/true")
        defer { helpers.shutdown() }
        let path = try dir.write(gif(), to: "a.gif")
        let feed = AnimationFeed(path: path, options: options(helpers), onFrame: {})
        let deadline = Date().addingTimeInterval(20)
        while feed.failure == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard case .helperFailed? = feed.failure else {
            XCTFail("the feed fails with the helper: \(String(describing: feed.failure))")
            return
        }
        XCTAssertNil(feed.takeFrame())
        let jxl = try madeWithTools()[1]
        XCTAssertTrue(AnimatedImage.isAnimated(fileAt: jxl))
        XCTAssertFalse(AnimatedImage.isAnimated(fileAt: jxl, decoding: SandboxedDecoding.service(in: helpers)))
    }
}
