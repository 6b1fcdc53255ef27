import Foundation
import Logging
import TesseraCore
import TesseraFiles

/// The work and the state of an `AnimationFeed`: the thread that decodes holds this, not the feed, so the
/// feed going away (its owner leaving the image) stops the thread.
final class AnimationFeedThread: @unchecked Sendable {
    typealias Options = AnimationFeed.Options

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var ready: [AnimationFrame] = []
    private var stopped = false
    private var failed: ImageLoadError.Reason?
    private var playsFromFile: Int?
    private var keepsAll = false
    private var still = false

    private static let logger = Logger(label: "tessera.animation")

    convenience init(path: String, options: Options = Options(), onFrame: @escaping @Sendable () -> Void) {
        let decoding = options.decoding
        self.init(name: path, options: options, onFrame: onFrame) { decoding.animationPlays(path: path, options: options) }
    }

    /// The feed over readers `makeReader` opens on `readData`'s bytes (read once), one per play.
    convenience init(name: String, options: Options, readData: @escaping @Sendable () throws -> Data,
                     makeReader: @escaping @Sendable (Data) throws(ImageLoadError.Reason) -> any AnimationReading,
                     onFrame: @escaping @Sendable () -> Void) {
        self.init(name: name, options: options, onFrame: onFrame) {
            AnimationPlays.overBytes(readData: readData, makeReader: makeReader, onlyAnimations: options.onlyAnimations)
        }
    }

    /// `starts` makes the plays' starts on the feed's thread.
    private init(name: String, options: Options, onFrame: @escaping @Sendable () -> Void,
                 starts: @escaping @Sendable () -> AnimationPlays) {
        let thread = Thread { [self] in
            run(name: name, options: options, starts: starts(), onFrame: onFrame)
        }
        thread.name = "tessera.animation"
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        ready.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    func takeFrame() -> AnimationFrame? {
        condition.lock()
        defer { condition.unlock() }
        guard !ready.isEmpty else { return nil }
        let frame = ready.removeFirst()
        condition.broadcast()
        return frame
    }

    var failure: ImageLoadError.Reason? { locked { failed } }
    var plays: Int? { locked { playsFromFile } }
    var isReplayingFromMemory: Bool { locked { keepsAll } }
    var isStill: Bool { locked { still } }
    private var isStopped: Bool { locked { stopped } }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: The thread

    private func run(name: String, options: Options, starts: AnimationPlays, onFrame: @Sendable () -> Void) {
        // Nil once the whole animation is held: a helper's exchange is then handed back.
        var reader: (any AnimationReading)?
        do throws(ImageLoadError.Reason) {
            guard let opened = try starts.first() else {
                locked { still = true }
                return
            }
            reader = opened
        } catch {
            if isStopped { return }
            fail(error, name: name)
            onFrame()
            return
        }
        var kept: [AnimationFrame] = []
        var keptBytes = 0
        var keeping = true
        var index = 0
        var replayPosition = 0
        while waitForRoom(lookahead: options.lookahead) {
            guard let current = reader else {
                // The whole animation is held (`keeping` ended with every frame kept).
                deliver(kept[replayPosition], onFrame: onFrame)
                replayPosition = (replayPosition + 1) % kept.count
                continue
            }
            var next: (pixels: PixelBuffer, delay: Duration)?
            do throws(ImageLoadError.Reason) {
                next = index < options.maxFrames ? try current.nextFrame() : nil
            } catch {
                if isStopped { return }
                if index == 0 {
                    fail(error, name: name)
                    onFrame()
                    return
                }
                if case .helperFailed = error {
                    // Not the file's end but its decoder's: trying again would only fail again.
                    Self.logger.warning("animation \(name) stops at frame \(index): \(error.shortText)")
                    locked { failed = error }
                    onFrame()
                    return
                }
                Self.logger.warning("animation \(name) ends at frame \(index): \(error.shortText)")
                next = nil
            }
            if index == 0 { locked { playsFromFile = current.plays } }
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
                    reader = nil
                    continue
                }
                do throws(ImageLoadError.Reason) { reader = try starts.again(current) } catch {
                    if isStopped { return }
                    Self.logger.warning("animation \(name) cannot start again: \(error.shortText)")
                    if case .helperFailed = error {
                        locked { failed = error }
                        onFrame()
                    }
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
