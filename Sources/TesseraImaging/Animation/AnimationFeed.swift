import Foundation
import TesseraCore

/// Decodes one animation's frames on the process's executor, one job per frame on a serial lane of its
/// own, a few ahead of when they are shown, and hands them over in order, looping: the main thread only
/// takes a ready frame and uploads it.
///
/// Memory is bounded by `Options.budgetBytes`: during the first play every frame is kept while the frames
/// kept fit the budget; an animation that fits whole is then replayed from memory and never decoded
/// again. One that does not is decoded again on each play, holding only the frames ahead (`lookahead`).
/// Keeping part of a longer one would save no work: each frame is composited on the one before, so the
/// frames after those kept need the decoder to run through the kept ones again anyway.
///
/// A frame that fails after the first ends the play there (a truncated file plays the frames it has); a
/// first frame that fails is the feed's `failure`, and so is a decode helper that fails at any frame: the
/// animation stops there, and the host shows its still. At most `maxFrames` frames make a play, so a file of a
/// million tiny frames is bounded too. Stopping (or dropping the feed) ends the work at the next frame.
package final class AnimationFeed: Sendable {
    package struct Options: Sendable {
        /// Frames kept for replay, in bytes.
        package var budgetBytes = 64 << 20
        /// Frames decoded ahead of the one shown.
        package var lookahead = 2
        /// Frames in one play at most.
        package var maxFrames = 4096
        /// The box frames are scaled to fit (as shown: after `turn`); nil keeps the canvas size.
        package var fitting: PixelSize?
        /// From the image's colour space to the display's; nil leaves pixels as decoded.
        package var colour: ColourConversion? = .sRGB
        /// A turn applied to every frame (the viewer's turns kept for the session).
        package var turn = ImageOrientation.up
        /// One frame's pixels at most (the canvas is checked before anything is allocated for it).
        package var pixelLimit = 100_000_000
        /// The largest file read.
        package var byteLimit = 512 << 20
        /// Plays only a file of more than one frame: a still ends the feed quietly (`isStill`), for a
        /// host that could not look at the file first.
        package var onlyAnimations = false
        /// Where the frames are decoded; a sandboxed service lends the feed a helper while it decodes.
        package var decoding: any DecodingService = .inProcess
        /// Runs the frames' decodes, on a lane of this rank; nil gives the feed one worker of its own (tests,
        /// and hosts without an executor).
        package var executor: WorkExecutor?
        package var rank = WorkRank.visible

        package init() {}
    }

    private let steps: AnimationFeedSteps

    /// Plays the animation in the file at `path`; `onFrame` runs on the worker after each frame is ready
    /// (the host wakes its loop there).
    package init(path: String, options: Options = Options(), onFrame: @escaping @Sendable () -> Void) {
        steps = AnimationFeedSteps(path: path, options: options, lane: Self.lane(options), onFrame: onFrame)
    }

    /// The feed over readers `makeReader` opens on `readData`'s bytes (read once), one per play that is
    /// decoded.
    package init(name: String, options: Options, readData: @escaping @Sendable () throws -> Data,
                makeReader: @escaping @Sendable (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                onFrame: @escaping @Sendable () -> Void) {
        steps = AnimationFeedSteps(name: name, options: options, lane: Self.lane(options), readData: readData,
                                   makeReader: makeReader, onFrame: onFrame)
    }

    deinit { steps.stop() }

    private static func lane(_ options: Options) -> SerialWorkLane {
        SerialWorkLane(rank: options.rank,
                       on: options.executor ?? WorkExecutor(.threads(1), name: "tessera.animation", priority: .background))
    }

    /// Ends the decoding before its next frame; what it holds is let go.
    package func stop() { steps.stop() }

    /// The next frame in order, when it is decoded; taking it lets one more be decoded.
    package func takeFrame() -> AnimationFrame? { steps.takeFrame() }

    /// Why not even the first frame could be read, or why the decode helper stopped; nil while frames
    /// come, or it is not known yet.
    package var failure: ImageLoadError.Reason? { steps.failure }
    /// How many times the file says the animation plays (0: forever), once its first frame is read.
    package var plays: Int? { steps.plays }
    /// The whole animation is held and replays without decoding.
    package var isReplayingFromMemory: Bool { steps.isReplayingFromMemory }
    /// The file is a still and the options ask for `onlyAnimations`: no frame comes.
    package var isStill: Bool { steps.isStill }
}
