import Foundation
import Synchronization

/// Ties the image cache, the in-flight markers and the worker pool together, the book's listing 14.5
/// grown up: a hit is answered at once, a miss starts at most one decode per key, finished decodes go into
/// the cache and then into an inbox the main loop drains, and work for keys the view no longer wants is
/// dropped before it starts.
public final class LoadCoordinator: Sendable {
    public typealias Loader = @Sendable (ImageKey) throws -> PixelBuffer
    /// A loader that looks at its cancellation signal and throws `DecodeCancelled` when it is set.
    public typealias CancellableLoader = @Sendable (ImageKey, DecodeCancellation) throws -> PixelBuffer

    public struct Completion: Sendable {
        public let key: ImageKey
        public let result: Result<PixelBuffer, LoadFailure>
    }

    public struct Counters: Sendable, Equatable {
        public var decodes = 0
        public var mainThreadDecodes = 0
        /// Bytes of decoded pixels produced (after scaling).
        public var decodedBytes = 0
        public var failures = 0
        /// Queued loads dropped before they started.
        public var cancelled = 0
        /// Running decodes that stopped early because nobody wanted their key any more.
        public var cancelledRunning = 0
    }

    public let cache: CostCache<ImageKey, PixelBuffer>
    private let scheduler: WorkScheduler<ImageKey, PixelBuffer>
    private let loader: CancellableLoader
    private let completions = Inbox<Completion>()
    private let onCompletion: @Sendable () -> Void
    /// Keys that failed; remembered so a bad file is not decoded again every frame.
    private let failures = Mutex<[ImageKey: LoadFailure]>([:])
    /// Failures forgotten so far, for `revision`.
    private let forgottenFailures = Atomic<Int>(0)
    private let counters = Mutex(Counters())
    /// Decode seconds per byte of file, learned per file extension from finished decodes, for planners.
    private let decodeRates = Mutex<[DecodeKind: DecodeRate]>([:])

    /// A running mean of seconds per file byte for one kind of file.
    private struct DecodeRate {
        var seconds = 0.0
        var bytes = 0.0
    }

    /// - Parameters:
    ///   - loader: decodes one key; runs on a worker thread.
    ///   - onCompletion: called on the worker after a result is queued (wakes the main loop).
    public convenience init(cache: CostCache<ImageKey, PixelBuffer>, scheduler: WorkScheduler<ImageKey, PixelBuffer>,
                            loader: @escaping Loader, onCompletion: @escaping @Sendable () -> Void = {}) {
        self.init(cache: cache, scheduler: scheduler, cancellableLoader: { key, _ in try loader(key) },
                  onCompletion: onCompletion)
    }

    /// - Parameters:
    ///   - cancellableLoader: decodes one key on a worker thread, stopping with `DecodeCancelled` when
    ///     its signal is set (`retainOnly(_:cancellingRunning: true)` sets it for keys nobody wants now).
    ///   - onCompletion: called on the worker after a result is queued (wakes the main loop).
    public init(cache: CostCache<ImageKey, PixelBuffer>, scheduler: WorkScheduler<ImageKey, PixelBuffer>,
                cancellableLoader: @escaping CancellableLoader, onCompletion: @escaping @Sendable () -> Void = {}) {
        self.cache = cache
        self.scheduler = scheduler
        self.loader = cancellableLoader
        self.onCompletion = onCompletion
    }

    public var counterValues: Counters { counters.withLock { $0 } }

    /// The cached pixels for `key`, counting a hit or a miss.
    public func cached(_ key: ImageKey) -> PixelBuffer? { cache.value(for: key) }

    public func failure(for key: ImageKey) -> LoadFailure? { failures.withLock { $0[key] } }

    /// Asks for `key` at `priority` (0 = visible, higher = later). Starts a decode only when the key is
    /// neither cached, nor loading, nor known to fail; a key already loading just gets the new priority.
    public func request(_ key: ImageKey, priority: Int) {
        if failure(for: key) != nil { return }
        guard cache.beginLoading(key) else {
            if cache.isLoading(key) { scheduler.reprioritize([key: priority]) }
            return
        }
        scheduler.request(key, priority: priority, cancellableWork: { [self] cancellation in
            try decode(key, cancellation: cancellation)
        }, completion: { [weak self] key, result in
            self?.finish(key, result)
        })
    }

    /// Decodes `key` on the calling thread and caches the result: listing 14.1's synchronous load.
    /// On the main thread it counts as a main-thread decode, which the report shows.
    public func loadNow(_ key: ImageKey) -> Result<PixelBuffer, LoadFailure> {
        if let pixels = cache.peek(key) { return .success(pixels) }
        if let failure = failure(for: key) { return .failure(failure) }
        do {
            let pixels = try decode(key, cancellation: DecodeCancellation())
            cache.insert(pixels, for: key, cost: pixels.cost)
            return .success(pixels)
        } catch {
            let failure = (error as? LoadFailure) ?? LoadFailure(shortText: "Cannot load", detail: String(describing: error))
            failures.withLock { $0[key] = failure }
            counters.withLock { $0.failures += 1 }
            return .failure(failure)
        }
    }

    private func decode(_ key: ImageKey, cancellation: DecodeCancellation) throws -> PixelBuffer {
        let onMain = Thread.isMainThread
        counters.withLock {
            $0.decodes += 1
            if onMain { $0.mainThreadDecodes += 1 }
        }
        let start = ContinuousClock.now
        var pixels: PixelBuffer
        do {
            pixels = try loader(key, cancellation)
        } catch let error where cancellation.isCancelled && !(error is DecodeCancelled) {
            // Asked to stop and stopped, by whatever error the loader turned the signal into.
            throw DecodeCancelled()
        }
        // Whatever made the pixels (a decoder, the thumbnail cache, a test), the main thread picks the
        // cell's texture by opacity; found here, on the worker, it never scans them itself.
        if pixels.knownOpaque == nil { pixels.knownOpaque = pixels.scanIsOpaque() }
        let elapsed = (ContinuousClock.now - start) / .seconds(1)
        counters.withLock { $0.decodedBytes += pixels.cost }
        if let size = key.version?.size, size > 0 {
            let kind = Self.kind(of: key)
            decodeRates.withLock { rates in
                rates[kind, default: DecodeRate()].seconds += elapsed
                rates[kind, default: DecodeRate()].bytes += Double(size)
            }
        }
        return pixels
    }

    /// What decode times are learned per: the file extension, in any case (cameras write ".JPG", other
    /// tools ".jpg"; one folder often has both), and the variant.
    private struct DecodeKind: Hashable {
        var fileExtension: Substring
        var variant: ImageVariant

        static func == (a: DecodeKind, b: DecodeKind) -> Bool {
            a.variant == b.variant && a.fileExtension.utf8.elementsEqual(b.fileExtension.utf8) {
                asciiLowercase($0) == asciiLowercase($1)
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(variant)
            for byte in fileExtension.utf8 { hasher.combine(Self.asciiLowercase(byte)) }
        }

        /// Byte-wise, without building a lowercased copy: this runs for every item on a fling's way.
        private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
        }
    }

    /// The kind of `key`'s file. Asked for every item on a fling's way every frame, so it only looks at the
    /// end of the path (no splitting, no copy).
    private static func kind(of key: ImageKey) -> DecodeKind {
        let path = key.path
        guard let dot = path.utf8.lastIndex(of: UInt8(ascii: ".")),
              !path.utf8[dot...].contains(UInt8(ascii: "/")) else {
            return DecodeKind(fileExtension: "", variant: key.variant)
        }
        return DecodeKind(fileExtension: path[path.utf8.index(after: dot)...], variant: key.variant)
    }

    /// How long decoding `key` is expected to take on one worker, from the decodes of its kind (extension)
    /// finished so far, scaled by file size; nil before any has finished or without a file size.
    public func estimatedDecodeSeconds(_ key: ImageKey) -> Double? {
        guard let size = key.version?.size, size > 0,
              case let kind = Self.kind(of: key),
              let rate = decodeRates.withLock({ $0[kind] }), rate.bytes > 0 else { return nil }
        return rate.seconds / rate.bytes * Double(size)
    }

    /// Where `key` stands: cached (or failed), decoding on a worker, waiting in the queue, or none of these.
    public func loadState(_ key: ImageKey) -> ItemLoad.State {
        if cache.peek(key) != nil || failure(for: key) != nil { return .done }
        guard cache.isLoading(key) else { return .none }
        return scheduler.isRunning(key) ? .running : .queued
    }

    /// How long the decode of `key` has been running on a worker, nil when it is not running.
    public func runningSeconds(_ key: ImageKey) -> Double? { scheduler.runningSeconds(key) }

    /// Drops queued work for every key not in `keep` (items that left the preload window) and, with
    /// `cancellingRunning`, asks running decodes for those keys to stop (they end as if dropped: no
    /// failure, the in-flight marker cleared, so the key can be asked for again).
    public func retainOnly(_ keep: Set<ImageKey>, cancellingRunning: Bool = false) {
        let dropped = scheduler.retainOnly(keep)
        if !dropped.isEmpty { counters.withLock { $0.cancelled += dropped.count } }
        if cancellingRunning { scheduler.cancelRunning(except: keep) }
    }

    /// Completed loads since the last call, oldest first.
    public func takeCompletions() -> [Completion] { completions.drain() }

    public var hasPendingCompletions: Bool { !completions.isEmpty }
    public var queuedCount: Int { scheduler.queuedCount }
    public var runningCount: Int { scheduler.runningCount }

    /// Forgets a failure so the next request tries again (the user asked to retry).
    public func forgetFailure(_ key: ImageKey) {
        if failures.withLock({ $0.removeValue(forKey: key) }) != nil {
            forgottenFailures.add(1, ordering: .releasing)
        }
    }

    /// Changes whenever `request` could do something for a key that it did nothing for before: the key
    /// left the cache, its load ended without caching it (failed, stopped or dropped), or its failure was
    /// forgotten. A key only becomes cached, in flight or failed otherwise, all of which make `request`
    /// do nothing. So while this stands still, asking again for the keys asked for last time, at the
    /// same priorities, changes nothing.
    public var revision: Int {
        cache.departures &+ forgottenFailures.load(ordering: .acquiring)
    }

    private func finish(_ key: ImageKey, _ result: Result<PixelBuffer, Error>) {
        switch result {
        case .success(let pixels):
            cache.insert(pixels, for: key, cost: pixels.cost)
            completions.push(Completion(key: key, result: .success(pixels)))
        case .failure(let error):
            cache.cancelLoading(key)
            if error is WorkSchedulerError { return }  // dropped before it ran: nobody wants it now
            if error is DecodeCancelled {  // stopped while running: nobody wanted it any more
                counters.withLock { $0.cancelledRunning += 1 }
                onCompletion()
                return
            }
            let failure = (error as? LoadFailure)
                ?? LoadFailure(shortText: "Cannot load", detail: String(describing: error))
            failures.withLock { $0[key] = failure }
            counters.withLock { $0.failures += 1 }
            completions.push(Completion(key: key, result: .failure(failure)))
        }
        onCompletion()
    }

    public func shutdown() { scheduler.shutdown() }
}
