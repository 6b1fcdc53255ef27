import Foundation
import Synchronization
import TesseraCore
import XCTest
@testable import TesseraImaging

/// The feed: frames in order and looping, the memory budget (counted decodes), truncated files, bombs,
/// stopping.
final class AnimationFeedTests: XCTestCase {
    private typealias Frame = GIFDecoderTests.Frame

    /// Counts the frames read and the readers opened, across threads.
    final class Decodes: Sendable {
        let frames = Mutex(0)
        let readers = Mutex(0)
        var frameCount: Int { frames.withLock { $0 } }
        var readerCount: Int { readers.withLock { $0 } }
    }

    /// A reader of `count` solid 8 x 8 frames (frame i has red i) that counts what it does.
    final class RecordingReader: AnimationReading {
        let count: Int
        let decodes: Decodes
        private var next = 0
        let canvasSize = PixelSize(width: 8, height: 8)
        let plays = 0

        init(count: Int, decodes: Decodes) {
            self.count = count
            self.decodes = decodes
            decodes.readers.withLock { $0 += 1 }
        }

        func nextFrame() throws(ImageLoadError.Reason) -> (pixels: PixelBuffer, delay: Duration)? {
            guard next < count else { return nil }
            decodes.frames.withLock { $0 += 1 }
            defer { next += 1 }
            return (PixelBuffer(width: 8, height: 8, filledWith: RGBA(r: UInt8(next % 256), g: 0, b: 0)), .milliseconds(40))
        }
    }

    private func recordingFeed(frames: Int, budget: Int, maxFrames: Int = 4096, decodes: Decodes,
                               executor: WorkExecutor? = nil) -> AnimationFeed {
        var options = AnimationFeed.Options()
        options.executor = executor
        options.budgetBytes = budget
        options.maxFrames = maxFrames
        options.colour = nil
        return AnimationFeed(name: "recorded", options: options, readData: { Data() },
                             makeReader: { _ throws(ImageLoadError.Reason) in RecordingReader(count: frames, decodes: decodes) },
                             onFrame: {})
    }

    /// The indices of the next `count` frames, waiting for each (at most a few seconds in all).
    private func take(_ count: Int, from feed: AnimationFeed) -> [Int] {
        var indices: [Int] = []
        let deadline = Date().addingTimeInterval(10)
        while indices.count < count && Date() < deadline {
            if let frame = feed.takeFrame() { indices.append(frame.index) } else { Thread.sleep(forTimeInterval: 0.001) }
        }
        return indices
    }

    func testASmallAnimationIsDecodedOnceThenReplayedFromMemory() {
        let decodes = Decodes()
        let feed = recordingFeed(frames: 5, budget: 1 << 20, decodes: decodes)
        XCTAssertEqual(take(20, from: feed), Array(repeating: [0, 1, 2, 3, 4], count: 4).flatMap { $0 })
        XCTAssertTrue(feed.isReplayingFromMemory)
        XCTAssertEqual(decodes.frameCount, 5, "four plays, one decode of each frame")
        XCTAssertEqual(decodes.readerCount, 1)
        feed.stop()
    }

    func testALongAnimationIsDecodedAgainInsteadOfHeld() {
        let decodes = Decodes()
        // Each frame costs 256 bytes: the budget holds 3 of 10.
        let feed = recordingFeed(frames: 10, budget: 3 * 256, decodes: decodes)
        XCTAssertEqual(take(30, from: feed), Array(repeating: Array(0..<10), count: 3).flatMap { $0 })
        XCTAssertFalse(feed.isReplayingFromMemory)
        XCTAssertGreaterThanOrEqual(decodes.frameCount, 30, "every frame shown was decoded for its play")
        XCTAssertGreaterThanOrEqual(decodes.readerCount, 3, "each play starts a new reader")
        feed.stop()
    }

    func testDecodingStaysAFewFramesAheadAndStops() {
        let decodes = Decodes()
        let feed = recordingFeed(frames: 1000, budget: 0, decodes: decodes)
        XCTAssertEqual(take(1, from: feed), [0])
        Thread.sleep(forTimeInterval: 0.2)
        XCTAssertLessThanOrEqual(decodes.frameCount, 1 + AnimationFeed.Options().lookahead + 1,
                                 "nobody took them: only the lookahead is decoded")
        feed.stop()
        let after = decodes.frameCount
        _ = feed.takeFrame()
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertLessThanOrEqual(decodes.frameCount, after + 1, "stopped: no more decoding")
    }

    func testFramesAreJobsOnTheExecutorAndAFeedNobodyTakesFromHoldsNoWorker() {
        let executor = WorkExecutor.manual()
        let decodes = Decodes()
        let feed = recordingFeed(frames: 100, budget: 0, decodes: decodes, executor: executor)
        XCTAssertEqual(decodes.frameCount, 0, "nothing decodes until the executor runs the feed's jobs")
        let lookahead = AnimationFeed.Options().lookahead
        // Opening, then one job per frame until the lookahead waits.
        XCTAssertEqual(executor.runPending(), 1 + lookahead)
        XCTAssertEqual(decodes.frameCount, lookahead)
        XCTAssertEqual(executor.runPending(), 0, "a feed whose frames wait queues no work: a paused animation holds no worker")
        XCTAssertEqual(feed.takeFrame()?.index, 0)
        XCTAssertEqual(executor.runPending(), 1, "taking a frame queues the decode of one more")
        XCTAssertEqual(decodes.frameCount, lookahead + 1)
        XCTAssertEqual(feed.takeFrame()?.index, 1)
        feed.stop()
        executor.runPending()
        XCTAssertEqual(decodes.frameCount, lookahead + 1, "stopped: the queued decode is dropped")
    }

    func testAFrameCountBombIsCutToMaxFrames() {
        let decodes = Decodes()
        let feed = recordingFeed(frames: 1_000_000, budget: 1 << 20, maxFrames: 4, decodes: decodes)
        XCTAssertEqual(take(12, from: feed), [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3])
        XCTAssertEqual(decodes.frameCount, 4)
        feed.stop()
    }

    private func write(_ data: Data) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("anim-\(UUID().uuidString).gif").path
        try data.write(to: URL(fileURLWithPath: path))
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return path
    }

    private func threeFrames() -> Data {
        GIFDecoderTests.gif(frames: (0..<3).map { Frame(width: 64, height: 48, indices: Array(repeating: UInt8($0), count: 64 * 48)) })
    }

    func testATruncatedAnimationPlaysTheFramesItHas() throws {
        let data = threeFrames()
        // Cut inside the third frame's pixels.
        let path = try write(data.prefix(data.count - 20))
        let feed = AnimationFeed(path: path, onFrame: {})
        XCTAssertEqual(take(6, from: feed), [0, 1, 0, 1, 0, 1])
        XCTAssertNil(feed.failure)
        feed.stop()
    }

    func testAnAnimationWhoseFirstFrameFailsIsAFailure() throws {
        let data = threeFrames()
        let path = try write(data.prefix(40))
        let feed = AnimationFeed(path: path, onFrame: {})
        let deadline = Date().addingTimeInterval(10)
        while feed.failure == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertEqual(feed.failure, .truncated)
        XCTAssertNil(feed.takeFrame())
    }

    func testFramesAreScaledToTheBoxAndTheFileLoopCountIsRead() throws {
        let path = try write(GIFDecoderTests.gif(repeats: 1, frames: [Frame(width: 64, height: 48, indices: Array(repeating: 0, count: 64 * 48)),
                                                                     Frame(width: 64, height: 48, indices: Array(repeating: 1, count: 64 * 48))]))
        var options = AnimationFeed.Options()
        options.fitting = PixelSize(width: 16, height: 16)
        let feed = AnimationFeed(path: path, options: options, onFrame: {})
        let deadline = Date().addingTimeInterval(10)
        var frame: AnimationFrame?
        while frame == nil && Date() < deadline { frame = feed.takeFrame(); Thread.sleep(forTimeInterval: 0.001) }
        XCTAssertEqual(frame?.pixels.size, PixelSize(width: 16, height: 12))
        XCTAssertEqual(feed.plays, 2)
        feed.stop()
    }

    func testDroppingTheFeedStopsItsDecoding() {
        let decodes = Decodes()
        var feed: AnimationFeed? = recordingFeed(frames: 1000, budget: 0, decodes: decodes)
        XCTAssertEqual(take(3, from: feed!), [0, 1, 2])
        feed = nil
        Thread.sleep(forTimeInterval: 0.05)
        let after = decodes.frameCount
        Thread.sleep(forTimeInterval: 0.1)
        XCTAssertEqual(decodes.frameCount, after, "nobody holds the feed: its thread stopped")
    }

    func testAStillEndsAFeedThatPlaysOnlyAnimations() throws {
        let path = try write(GIFDecoderTests.gif(frames: [Frame(width: 64, height: 48, indices: Array(repeating: 0, count: 64 * 48))]))
        var options = AnimationFeed.Options()
        options.onlyAnimations = true
        let feed = AnimationFeed(path: path, options: options, onFrame: {})
        let deadline = Date().addingTimeInterval(10)
        while !feed.isStill && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        XCTAssertTrue(feed.isStill)
        XCTAssertNil(feed.failure, "a still is no failure")
        XCTAssertNil(feed.takeFrame())
    }
}
