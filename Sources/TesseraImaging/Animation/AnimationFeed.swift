import Foundation
import Logging
import TesseraCore

/// Decodes one animation's frames on a thread of its own, a few ahead of when they are shown, and hands
/// them over in order, looping: the main thread only takes a ready frame and uploads it.
///
/// Memory is bounded by `Options.budgetBytes`: during the first play every frame is kept while the frames
/// kept fit the budget; an animation that fits whole is then replayed from memory and never decoded
/// again. One that does not is decoded again on each play, holding only the frames ahead (`lookahead`).
/// Keeping part of a longer one would save no work: each frame is composited on the one before, so the
/// frames after those kept need the decoder to run through the kept ones again anyway.
///
/// A frame that fails after the first ends the play there (a truncated file plays the frames it has); a
/// first frame that fails is the feed's `failure`. At most `maxFrames` frames make a play, so a file of a
/// million tiny frames is bounded too. Stopping (or dropping the feed) ends the thread's work at the next
/// frame.
public final class AnimationFeed: @unchecked Sendable {
    public struct Options: Sendable {
        /// Frames kept for replay, in bytes.
        public var budgetBytes = 64 << 20
        /// Frames decoded ahead of the one shown.
        public var lookahead = 2
        /// Frames in one play at most.
        public var maxFrames = 4096
        /// The box frames are scaled to fit (as shown: after `turn`); nil keeps the canvas size.
        public var fitting: PixelSize?
        /// From the image's colour space to the display's; nil leaves pixels as decoded.
        public var colour: ColourConversion? = .sRGB
        /// A turn applied to every frame (the viewer's turns kept for the session).
        public var turn = ImageOrientation.up
        /// One frame's pixels at most (the canvas is checked before anything is allocated for it).
        public var pixelLimit = 100_000_000
        /// The largest file read.
        public var byteLimit = 512 << 20

        public init() {}
    }

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [AnimationFrame] = []
    private var stopped = false
    private var failed: ImageLoadError.Reason?
    private var playsFromFile: Int?
    private var keepsAll = false

    private static let logger = Logger(label: "tessera.animation")

    /// Plays the animation in the file at `path`; `onFrame` runs on the feed's thread after each frame is
    /// ready (the host wakes its loop there).
    public convenience init(path: String, options: Options = Options(), onFrame: @escaping @Sendable () -> Void) {
        let limits = options
        let name = path
        self.init(name: name, options: options, readData: { () throws -> Data in
            try Self.readFile(path, byteLimit: limits.byteLimit)
        }, makeReader: { (data: Data) throws(ImageLoadError.Reason) -> any AnimationReading in
            try AnimatedImage.reader(for: data, pixelLimit: limits.pixelLimit)
        }, onFrame: onFrame)
    }

    private static func readFile(_ path: String, byteLimit: Int) throws(ImageLoadError.Reason) -> Data {
        let file: ImageFile
        do throws(ImageFile.Failure) { file = try ImageFile(path: path) } catch { throw ImageLoadError.Reason(error) }
        guard file.size <= byteLimit else { throw .fileTooLarge(bytes: file.size, limit: byteLimit) }
        do throws(ImageFile.Failure) { return try file.readAll() } catch { throw ImageLoadError.Reason(error) }
    }

    /// The feed over readers `makeReader` opens on `readData`'s bytes (read once), one per play that is
    /// decoded.
    public init(name: String, options: Options, readData: @escaping @Sendable () throws -> Data,
                makeReader: @escaping @Sendable (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                onFrame: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            run(name: name, options: options, readData: readData, makeReader: makeReader, onFrame: onFrame)
        }
        thread.name = "tessera.animation"
        thread.start()
    }

    deinit { stop() }

    /// Ends the decoding: the thread stops before its next frame and lets go of what it holds.
    public func stop() {
        condition.lock()
        stopped = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// The next frame in order, when it is decoded; taking it lets the thread decode one more.
    public func takeFrame() -> AnimationFrame? {
        condition.lock()
        defer { condition.unlock() }
        guard !ready.isEmpty else { return nil }
        let frame = ready.removeFirst()
        condition.broadcast()
        return frame
    }

    /// Whether a frame is waiting to be taken.
    public var hasFrame: Bool { locked { !ready.isEmpty } }
    /// Why not even the first frame could be read; nil while it can, or it is not known yet.
    public var failure: ImageLoadError.Reason? { locked { failed } }
    /// How many times the file says the animation plays (0: forever), once its first frame is read.
    public var plays: Int? { locked { playsFromFile } }
    /// The whole animation is held and replays without decoding.
    public var isReplayingFromMemory: Bool { locked { keepsAll } }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: The thread

    private func run(name: String, options: Options, readData: () throws -> Data,
                     makeReader: (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                     onFrame: @Sendable () -> Void) {
        let data: Data
        var reader: any AnimationReading
        do {
            data = try readData()
            reader = try makeReader(data)
        } catch {
            fail(error as? ImageLoadError.Reason ?? .decodeFailed(String(describing: error)), name: name)
            onFrame()
            return
        }
        var kept: [AnimationFrame] = []
        var keptBytes = 0
        var keeping = true
        var index = 0
        var replayPosition = 0
        while waitForRoom(lookahead: options.lookahead) {
            if !kept.isEmpty && !keeping {
                // The whole animation is held (`keeping` ended with every frame kept).
                deliver(kept[replayPosition], onFrame: onFrame)
                replayPosition = (replayPosition + 1) % kept.count
                continue
            }
            var next: (pixels: PixelBuffer, delay: Duration)?
            do throws(ImageLoadError.Reason) {
                next = index < options.maxFrames ? try reader.nextFrame() : nil
            } catch {
                if index == 0 {
                    fail(error, name: name)
                    onFrame()
                    return
                }
                Self.logger.warning("animation \(name) ends at frame \(index): \(error.shortText)")
                next = nil
            }
            if index == 0 { locked { playsFromFile = reader.plays } }
            guard let (pixels, delay) = next else {
                if index == 0 {
                    fail(.decodeFailed("animation without frames"), name: name)
                    onFrame()
                    return
                }
                if keeping && kept.count == index {
                    keeping = false
                    locked { keepsAll = true }
                    replayPosition = 0
                    continue
                }
                do throws(ImageLoadError.Reason) { reader = try makeReader(data) } catch {
                    Self.logger.warning("animation \(name) cannot start again: \(error.shortText)")
                    return
                }
                index = 0
                continue
            }
            let frame = AnimationFrame(index: index, delay: delay, pixels: prepared(pixels, options: options, name: name))
            if keeping {
                if keptBytes + frame.pixels.cost <= options.budgetBytes {
                    kept.append(frame)
                    keptBytes += frame.pixels.cost
                } else {
                    keeping = false
                    kept = []
                    keptBytes = 0
                }
            }
            deliver(frame, onFrame: onFrame)
            index += 1
        }
    }

    /// Scaled to the box, turned, then converted to the display's colour space (last, on the fewest pixels).
    private func prepared(_ pixels: PixelBuffer, options: Options, name: String) -> PixelBuffer {
        var result = pixels
        if let box = options.fitting {
            let upright = options.turn.orientedSize(box)
            result = PixelScaler.fit(result, in: upright)
            result.colourProfile = pixels.colourProfile
        }
        if options.turn != .up {
            let profile = result.colourProfile
            result = options.turn.apply(to: result)
            result.colourProfile = profile
        }
        options.colour?.convert(&result, name: name)
        return result
    }

    /// Waits until fewer than `lookahead` frames are waiting; false once stopped.
    private func waitForRoom(lookahead: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && ready.count >= lookahead { condition.wait() }
        return !stopped
    }

    private func deliver(_ frame: AnimationFrame, onFrame: @Sendable () -> Void) {
        condition.lock()
        let wanted = !stopped
        if wanted { ready.append(frame) }
        condition.unlock()
        if wanted { onFrame() }
    }

    private func fail(_ reason: ImageLoadError.Reason, name: String) {
        Self.logger.warning("animation \(name) not played: \(reason.shortText)")
        locked { failed = reason }
    }
}
