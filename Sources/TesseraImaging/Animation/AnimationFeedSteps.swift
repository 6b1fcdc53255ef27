import Foundation
import Logging
import TesseraCore
import TesseraFiles

/// The work and the state of an `AnimationFeed`, decoded one frame per job on a serial lane of the
/// process's executor: a job decodes the next frame while fewer than `lookahead` wait, and taking a frame
/// queues the next job, so a paused or unseen animation holds no worker. The lane's jobs hold this, not
/// the feed, so the feed going away (its owner leaving the image) stops the work at the next frame.
final class AnimationFeedSteps: @unchecked Sendable {
    typealias Options = AnimationFeed.Options

    private let lock = NSLock()
    // Guarded by `lock`.
    private var ready: [AnimationFrame] = []
    private var stopped = false
    private var failed: ImageLoadError.Reason?
    private var playsFromFile: Int?
    private var keepsAll = false
    private var still = false
    /// A step is queued or running: at most one is, so the lane's order is the frames' order.
    private var stepQueued = false

    // Touched by the lane's jobs only, one at a time.
    private var starts: AnimationPlays?
    /// Nil once the whole animation is held: a helper's exchange is then handed back.
    private var reader: (any AnimationReading)?
    private var kept: [AnimationFrame] = []
    private var keptBytes = 0
    private var keeping = true
    private var index = 0
    private var replayPosition = 0

    private let name: String
    private let options: Options
    private let lane: SerialWorkLane
    private let makeStarts: @Sendable () -> AnimationPlays
    private let onFrame: @Sendable () -> Void

    private static let logger = Logger(label: "tessera.animation")

    convenience init(path: String, options: Options, lane: SerialWorkLane, onFrame: @escaping @Sendable () -> Void) {
        let decoding = options.decoding
        self.init(name: path, options: options, lane: lane, onFrame: onFrame) {
            decoding.animationPlays(path: path, options: options)
        }
    }

    /// The feed over readers `makeReader` opens on `readData`'s bytes (read once), one per play.
    convenience init(name: String, options: Options, lane: SerialWorkLane, readData: @escaping @Sendable () throws -> Data,
                     makeReader: @escaping @Sendable (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                     onFrame: @escaping @Sendable () -> Void) {
        self.init(name: name, options: options, lane: lane, onFrame: onFrame) {
            AnimationPlays.overBytes(readData: readData, makeReader: makeReader, onlyAnimations: options.onlyAnimations)
        }
    }

    /// `makeStarts` makes the plays' starts in the first job.
    private init(name: String, options: Options, lane: SerialWorkLane, onFrame: @escaping @Sendable () -> Void,
                 makeStarts: @escaping @Sendable () -> AnimationPlays) {
        self.name = name
        self.options = options
        self.lane = lane
        self.onFrame = onFrame
        self.makeStarts = makeStarts
        queueStep()
    }

    func stop() {
        locked {
            stopped = true
            ready.removeAll()
        }
        lane.cancelQueued()
        // After any step running now: the reader (a helper's, perhaps) and the frames kept go at once,
        // even while the feed itself is kept.
        lane.perform { [self] in letGo() }
    }

    private func letGo() {
        starts = nil
        reader = nil
        kept = []
        keptBytes = 0
    }

    func takeFrame() -> AnimationFrame? {
        let frame: AnimationFrame? = locked { ready.isEmpty ? nil : ready.removeFirst() }
        if frame != nil { queueStep() }
        return frame
    }

    var failure: ImageLoadError.Reason? { locked { failed } }
    var plays: Int? { locked { playsFromFile } }
    var isReplayingFromMemory: Bool { locked { keepsAll } }
    var isStill: Bool { locked { still } }
    private var isStopped: Bool { locked { stopped } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: The steps

    /// Queues the next step unless one is queued, the feed stopped, or `lookahead` frames wait.
    private func queueStep() {
        let queue = locked {
            guard !stopped, !stepQueued, ready.count < options.lookahead else { return false }
            stepQueued = true
            return true
        }
        if queue { lane.perform { [self] in step() } }
    }

    /// One step of the feed on a worker; the next is queued after it while there is room and more to come.
    private func step() {
        let goesOn = isStopped ? false : advance()
        locked { stepQueued = false }
        if goesOn { queueStep() }
    }

    /// Opens the first play, or delivers the next frame (decoded, or from memory), or starts the next
    /// play. False once the feed has ended: a still, a failure, a play that cannot start again.
    private func advance() -> Bool {
        guard let starts else {
            let starts = makeStarts()
            self.starts = starts
            do throws(ImageLoadError.Reason) {
                guard let opened = try starts.first() else {
                    locked { still = true }
                    return false
                }
                reader = opened
                return true
            } catch {
                if isStopped { return false }
                fail(error, name: name)
                onFrame()
                return false
            }
        }
        guard let current = reader else {
            // The whole animation is held (`keeping` ended with every frame kept).
            deliver(kept[replayPosition])
            replayPosition = (replayPosition + 1) % kept.count
            return true
        }
        var next: (pixels: PixelBuffer, delay: Duration)?
        do throws(ImageLoadError.Reason) {
            next = index < options.maxFrames ? try current.nextFrame() : nil
        } catch {
            if isStopped { return false }
            if index == 0 {
                fail(error, name: name)
                onFrame()
                return false
            }
            if case .helperFailed = error {
                // Not the file's end but its decoder's: trying again would only fail again.
                Self.logger.warning("animation \(name) stops at frame \(index): \(error.shortText)")
                locked { failed = error }
                onFrame()
                return false
            }
            Self.logger.warning("animation \(name) ends at frame \(index): \(error.shortText)")
            next = nil
        }
        if index == 0 { locked { playsFromFile = current.plays } }
        guard let (pixels, delay) = next else {
            if index == 0 {
                fail(.decodeFailed("animation without frames"), name: name)
                onFrame()
                return false
            }
            if keeping && kept.count == index {
                keeping = false
                locked { keepsAll = true }
                replayPosition = 0
                reader = nil
                return true
            }
            do throws(ImageLoadError.Reason) { reader = try starts.again(current) } catch {
                if isStopped { return false }
                Self.logger.warning("animation \(name) cannot start again: \(error.shortText)")
                if case .helperFailed = error {
                    locked { failed = error }
                    onFrame()
                }
                return false
            }
            index = 0
            return true
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
        deliver(frame)
        index += 1
        return true
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

    private func deliver(_ frame: AnimationFrame) {
        let wanted = locked {
            if !stopped { ready.append(frame) }
            return !stopped
        }
        if wanted { onFrame() }
    }

    private func fail(_ reason: ImageLoadError.Reason, name: String) {
        Self.logger.warning("animation \(name) not played: \(reason.shortText)")
        locked { failed = reason }
    }
}
