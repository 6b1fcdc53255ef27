import TesseraCore

/// LazyTableImages' download table, without the network: one entry per URL, at most `perHostLimit`
/// running per host, the rest queued by priority (lower first, then first come). Pure bookkeeping, so
/// the scheduling rules are tested without sockets; `RemoteImageStore` keeps it behind a mutex.
///
/// Invariant after every mutation: no queued entry's host has room. So a new entry can only start on
/// arrival, and a finished one can only make room for its own host.
struct DownloadTable: Sendable {
    enum Phase: Equatable, Sendable {
        case queued(priority: Int, order: Int)
        case running
        case ready(localPath: String, version: FileVersion)
        case failed(LoadFailure)
    }

    struct Entry: Sendable {
        var phase: Phase
        /// "host:port", the unit the per-host limit counts.
        let hostKey: String
    }

    let perHostLimit: Int
    private(set) var entries: [String: Entry] = [:]
    private var runningPerHost: [String: Int] = [:]
    private var queuedPerHost: [String: Set<String>] = [:]
    /// Tie-break between equal priorities: first asked, first started.
    private var nextOrder = 0
    private(set) var runningCount = 0
    private(set) var queuedCount = 0
    private(set) var maxRunningPerHostObserved = 0

    init(perHostLimit: Int) {
        self.perHostLimit = max(1, perHostLimit)
    }

    func state(of url: String) -> RemoteState {
        switch entries[url]?.phase {
        case nil: .notStarted
        case .queued, .running: .inFlight
        case .ready(let localPath, let version): .ready(localPath: localPath, version: version)
        case .failed(let failure): .failed(failure)
        }
    }

    /// Whether `url` is known; a queued one takes the new priority (the rest ignore it).
    mutating func reprioritize(_ url: String, priority: Int) -> Bool {
        guard let entry = entries[url] else { return false }
        if case .queued(_, let order) = entry.phase {
            entries[url]?.phase = .queued(priority: priority, order: order)
        }
        return true
    }

    /// Adds `url` unless known (a queued one takes the new priority). Returns whether it starts now: the
    /// caller must then start it.
    mutating func request(_ url: String, hostKey: String, priority: Int) -> Bool {
        if reprioritize(url, priority: priority) { return false }
        entries[url] = Entry(phase: .queued(priority: priority, order: nextOrder), hostKey: hostKey)
        nextOrder += 1
        queuedCount += 1
        queuedPerHost[hostKey, default: []].insert(url)
        if runningPerHost[hostKey, default: 0] < perHostLimit {
            markRunning(url, hostKey: hostKey)
            return true
        }
        return false
    }

    /// Records a failure for a URL that never ran (it could not even be parsed).
    mutating func refuse(_ url: String, failure: LoadFailure) {
        guard entries[url] == nil else { return }
        entries[url] = Entry(phase: .failed(failure), hostKey: "")
    }

    /// Ends a running download with its result (`.ready` or `.failed`). Returns the queued URL that takes
    /// the freed slot, which the caller must start.
    mutating func finish(_ url: String, with result: Phase) -> String? {
        guard let entry = entries[url], entry.phase == .running else { return nil }
        entries[url]?.phase = result
        runningCount -= 1
        runningPerHost[entry.hostKey, default: 1] -= 1
        guard let next = bestQueued(hostKey: entry.hostKey) else { return nil }
        markRunning(next, hostKey: entry.hostKey)
        return next
    }

    /// Drops queued entries not in `urls` (back to `.notStarted`); returns how many.
    @discardableResult
    mutating func retainQueued(_ urls: Set<String>) -> Int {
        var dropped = 0
        for (hostKey, queued) in queuedPerHost {
            let leaving = queued.subtracting(urls)
            guard !leaving.isEmpty else { continue }
            for url in leaving { entries[url] = nil }
            queuedPerHost[hostKey] = queued.intersection(urls)
            dropped += leaving.count
        }
        queuedCount -= dropped
        return dropped
    }

    /// Forgets a failure so the next request tries again.
    mutating func forgetFailure(_ url: String) {
        if case .failed = entries[url]?.phase { entries[url] = nil }
    }

    /// Forgets everything queued or running (at shutdown); results stay readable.
    mutating func dropUnfinished() {
        retainQueued([])
        for (url, entry) in entries where entry.phase == .running { entries[url] = nil }
        runningPerHost = [:]
        runningCount = 0
    }

    private func bestQueued(hostKey: String) -> String? {
        var best: (url: String, priority: Int, order: Int)?
        for url in queuedPerHost[hostKey] ?? [] {
            guard case .queued(let priority, let order) = entries[url]?.phase else { continue }
            if let current = best, (current.priority, current.order) <= (priority, order) { continue }
            best = (url, priority, order)
        }
        return best?.url
    }

    private mutating func markRunning(_ url: String, hostKey: String) {
        entries[url]?.phase = .running
        queuedPerHost[hostKey]?.remove(url)
        queuedCount -= 1
        runningCount += 1
        let running = runningPerHost[hostKey, default: 0] + 1
        runningPerHost[hostKey] = running
        maxRunningPerHostObserved = max(maxRunningPerHostObserved, running)
    }
}
