import Foundation

/// Where a key stands in a `LoadPipeline`.
package enum LoadState: Sendable, Equatable {
    /// Neither stored nor in flight nor known to fail: a request would start a load.
    case none
    /// Asked for and waiting for a worker: it may still be reprioritised or dropped.
    case queued
    /// A worker is loading it: it holds that worker until it finishes or is asked to stop.
    case running
    /// Stored, known to fail, or finished and waiting to be drained: it needs no worker.
    case done
}

/// Loads values by key on a worker pool and hands them to the main thread once a frame: the one pipeline
/// behind the strip's images and the tiled view's tiles, in Nuke's shape, with storage, scheduling and
/// task deduplication apart.
///
/// - **Scheduling** is the `WorkScheduler`'s: priorities, dropping queued work, asking running work to
///   stop. The scheduler is the pipeline's own (its counters are read as the pipeline's).
/// - **Deduplication**: one load per key at a time. A request for a key in flight only changes its
///   priority; every requester gets the one result from the inbox.
/// - **Storage** (optional) only stores: a request for a stored key starts nothing, and every value
///   drained is stored. The pipeline is its only writer, always on the main thread, so the storage's
///   evictions (and any eviction ranking) happen there too.
/// - **Failures** are remembered: a failed key is not loaded again until `forgetFailure` (a user's retry).
/// - **Measurement**, when a run is measured, goes to its `LoadObservation`; otherwise nothing is counted.
///
/// Main thread only. Its bookkeeping (the in-flight set, the failure memo) is plain state touched by
/// `request`, `retainOnly`, `loadNow` and `drain`; workers only run the loader and push what it returned
/// into the inbox, then call the waker. A key stays in flight until its result is drained, so
/// nothing between a worker's finish and the drain can start a second load of it.
package final class LoadPipeline<Key: Hashable & Sendable, Value: Sendable> {
    /// Loads one key on a worker. It may look at its cancellation signal and throw `DecodeCancelled` when
    /// the signal is set (strategies that stop running work set it); any error it throws once the signal
    /// is set counts as stopped, not failed.
    package typealias Loader = @Sendable (Key, DecodeCancellation) throws -> Value

    /// A finished load, as `drain` hands it over: a value, or why there is none.
    package struct Delivery: Sendable {
        package let key: Key
        package let result: Result<Value, LoadFailure>
    }

    /// What a worker pushes: the loader's own result.
    private struct Outcome: Sendable {
        let key: Key
        let result: Result<Value, any Error>
    }

    private let scheduler: WorkScheduler<Key, Value>
    private let storage: CostCache<Key, Value>?
    private let cost: (Value) -> Int
    private let loader: Loader
    private let inbox = Inbox<Outcome>()
    private let waker: @Sendable () -> Void
    /// Where a measured run hears what the pipeline does; nil when nobody measures.
    package let observation: LoadObservation?

    private var inFlight: Set<Key> = []
    private var failures: [Key: LoadFailure] = [:]

    /// Moves at least whenever `request` could start a load for a key it would have ignored before: a
    /// drained load that stopped or that the storage did not keep, a queued load dropped, a failure
    /// forgotten, a stored value evicted or removed. A key only becomes stored, in flight or failed
    /// otherwise, all of which make `request` ignore it. So while this stands still, asking again for the
    /// keys asked for last time, at the same priorities, changes nothing.
    package private(set) var revision = 0

    /// - Parameters:
    ///   - scheduler: runs the loads; the pipeline's own from now on.
    ///   - storage: keeps what was loaded; nil keeps nothing (every request for a key not in flight loads).
    ///     The pipeline is its only writer from now on.
    ///   - cost: what a value costs the storage (and what a measured run counts of it).
    ///   - loader: loads one key, on a worker.
    ///   - waker: called on the worker after a result is pushed into the inbox (wakes the main loop).
    ///   - observation: hears every load asked for, begun, finished, dropped or stopped; nil counts nothing.
    package init(scheduler: WorkScheduler<Key, Value>, storage: CostCache<Key, Value>? = nil,
                cost: @escaping (Value) -> Int, loader: @escaping Loader, waker: @escaping @Sendable () -> Void = {},
                observation: LoadObservation? = nil) {
        self.scheduler = scheduler
        self.storage = storage
        self.cost = cost
        self.loader = loader
        self.waker = waker
        self.observation = observation
    }

    deinit { scheduler.shutdown() }

    // MARK: Requests

    /// Asks for `key` at `priority` (lower runs sooner). Starts a load only when the key is neither stored,
    /// nor in flight, nor known to fail; a key in flight just gets the new priority.
    package func request(_ key: Key, priority: Int) {
        if inFlight.contains(key) {
            scheduler.reprioritize([key: priority])
            return
        }
        guard failures[key] == nil, storage?.peek(key) == nil else { return }
        inFlight.insert(key)
        observation?(.requested)
        let loader = self.loader, inbox = self.inbox, waker = self.waker, observation = self.observation
        scheduler.request(key, priority: priority, cancellableWork: { cancellation in
            if let observation { observation(.started(onMainThread: Thread.isMainThread)) }
            do {
                return try loader(key, cancellation)
            } catch let error where cancellation.isCancelled && !(error is DecodeCancelled) {
                // Asked to stop and stopped, by whatever error the loader turned the signal into.
                throw DecodeCancelled()
            }
        }, completion: { key, result in
            // A load dropped before it ran is `retainOnly`'s to account for; after shutdown nobody asks.
            if case .failure(let error) = result, error is WorkSchedulerError { return }
            inbox.push(Outcome(key: key, result: result))
            waker()
        })
    }

    /// Drops the queued loads of every key not in `keep` (their keys can be asked for again at once) and,
    /// with `cancellingRunning`, asks running loads of those keys to stop; a running load whose key is in
    /// `keep` again carries on.
    package func retainOnly(_ keep: Set<Key>, cancellingRunning: Bool = false) {
        let dropped = scheduler.retainOnly(keep)
        if !dropped.isEmpty {
            for key in dropped { inFlight.remove(key) }
            observation?(.droppedQueued(count: dropped.count))
            revision &+= 1
        }
        if cancellingRunning { scheduler.cancelRunning(except: keep) }
    }

    /// Loads `key` on the calling thread and stores the result, for callers that load in place (the
    /// experiment's main-thread decodes, the book's listing 14.1). On the main thread it counts as a
    /// main-thread load, which the report shows.
    package func loadNow(_ key: Key) -> Result<Value, LoadFailure> {
        if let value = storage?.peek(key) { return .success(value) }
        if let failure = failures[key] { return .failure(failure) }
        if let observation { observation(.started(onMainThread: Thread.isMainThread)) }
        do {
            let value = try loader(key, DecodeCancellation())
            accept(value, for: key)
            return .success(value)
        } catch {
            return .failure(remember(LoadFailure(error), for: key))
        }
    }

    // MARK: Results

    /// Takes everything workers finished since the last drain, oldest first: stores the values, remembers
    /// the failures, and ends each key's flight. Returns the values and failures; a load that stopped
    /// because nobody wanted it any more delivers nothing. Called once a frame.
    @discardableResult
    package func drain() -> [Delivery] {
        let outcomes = inbox.drain()
        guard !outcomes.isEmpty else { return [] }
        var deliveries: [Delivery] = []
        deliveries.reserveCapacity(outcomes.count)
        for outcome in outcomes {
            let key = outcome.key
            inFlight.remove(key)
            switch outcome.result {
            case .success(let value):
                accept(value, for: key)
                deliveries.append(Delivery(key: key, result: .success(value)))
            case .failure(let error) where error is DecodeCancelled:
                observation?(.stoppedRunning)
                revision &+= 1
            case .failure(let error):
                deliveries.append(Delivery(key: key, result: .failure(remember(LoadFailure(error), for: key))))
            }
        }
        return deliveries
    }

    /// Stores a value; when the storage lets it or others go, `revision` moves.
    private func accept(_ value: Value, for key: Key) {
        let valueCost = cost(value)
        observation?(.succeeded(cost: valueCost))
        guard let storage else {
            revision &+= 1
            return
        }
        let before = storage.stats
        storage.insert(value, for: key, cost: valueCost)
        let after = storage.stats
        if after.evictions != before.evictions || after.rejections != before.rejections { revision &+= 1 }
    }

    private func remember(_ failure: LoadFailure, for key: Key) -> LoadFailure {
        failures[key] = failure
        observation?(.failed)
        revision &+= 1
        return failure
    }

    // MARK: State

    /// Whether any load is queued, running, or finished and waiting to be drained.
    package var isLoading: Bool { !inFlight.isEmpty }
    /// Keys queued, running, or finished and waiting to be drained.
    package var inFlightCount: Int { inFlight.count }
    package func isInFlight(_ key: Key) -> Bool { inFlight.contains(key) }

    /// Where `key` stands.
    package func state(of key: Key) -> LoadState {
        if failures[key] != nil || storage?.peek(key) != nil { return .done }
        guard inFlight.contains(key) else { return .none }
        switch scheduler.state(of: key) {
        case .queued: return .queued
        case .running: return .running
        case nil: return .done  // finished, its result in the inbox
        }
    }

    /// How many loads run at once (the scheduler's workers).
    package var workerCount: Int { scheduler.workerCount }

    /// How long the load of `key` has been running on a worker, nil when it is not running.
    package func runningSeconds(_ key: Key) -> Double? { scheduler.runningSeconds(key) }

    package func failure(for key: Key) -> LoadFailure? { failures[key] }

    /// The keys that failed (until retried).
    package var failedKeys: [Key] { Array(failures.keys) }

    /// Forgets a failure so the next request loads the key again (the user asked to retry).
    package func forgetFailure(_ key: Key) {
        if failures.removeValue(forKey: key) != nil { revision &+= 1 }
    }

    // MARK: Storage

    /// Whether the pipeline keeps what it loads.
    package var hasStorage: Bool { storage != nil }

    /// The stored value for `key`, counted as a hit or a miss of the storage (a cell coming on screen).
    package func cachedValue(for key: Key) -> Value? { storage?.value(for: key) }

    /// The stored value for `key`, without counting or refreshing it.
    package func storedValue(for key: Key) -> Value? { storage?.peek(key) }

    /// Drops every stored value whose key matches (e.g. the pixels of a file's old version).
    package func removeStoredValues(where matches: (Key) -> Bool) {
        guard let storage, storage.removeValues(where: matches) > 0 else { return }
        revision &+= 1
    }

    /// Orders the storage's evictions by `ranking` (highest first) instead of least recent use; nil
    /// restores least recent use. Evictions happen only while the pipeline stores, at `drain` or
    /// `loadNow` on the main thread, so a ranking set just before over the caller's current values (the
    /// strip's items and scroll position) is the one they follow.
    package func setEvictionRanking(_ ranking: CostCache<Key, Value>.EvictionRanking?) {
        storage?.setEvictionRanking(ranking)
    }

    /// The storage's counters and occupancy; nil without storage.
    package var storageStats: CacheStats? { storage?.stats }

    /// Drops queued loads and lets running ones finish (a scheduler with workers of its own lets them exit).
    package func shutdown() { scheduler.shutdown() }

    /// `shutdown()`, then waits at most `timeout` for the running loads to end: a process about to exit
    /// must not tear down the libraries a decode is still in (libcrypto's digests, the codecs).
    @discardableResult
    package func shutdown(waitingUpTo timeout: TimeInterval) -> Bool {
        scheduler.shutdown()
        return scheduler.waitForWorkersToExit(timeout: timeout)
    }
}
