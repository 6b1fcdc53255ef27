#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Logging
import TesseraCore
import TesseraFiles
import TesseraImaging

/// Downloads remote images into a disk cache: LazyTableImages' download table over URLSession.
///
/// - One entry per URL: a second `fetch` while one is queued only changes its priority; in flight, ready
///   or failed, it does nothing (`forgetFailure` allows a retry).
/// - At most `perHostLimit` downloads per host and port; the rest wait by priority (lower first).
/// - A body is streamed into a temporary file and renamed into place only when complete and recognised
///   as an image (`ImageFormat.sniff`), so readers never see a partial file and a failure never replaces
///   a good copy. Bodies over `maxBodyBytes` are refused by Content-Length and cut off as they arrive.
/// - The first fetch of a cached URL in a run revalidates it (If-None-Match / If-Modified-Since); when the
///   network gives no trustworthy answer the cached copy is used anyway, with a warning in the log.
///
/// `fetch`, `state`, `retainQueued` and `forgetFailure` touch memory only, never the disk or the network:
/// the UI thread calls them every frame.
package final class RemoteImageStore: RemoteFetching {
    package struct Configuration: Sendable {
        /// Downloads running at once per host and port.
        package var perHostLimit: Int
        /// No byte for this long means timed out; a download also gets `overallTimeoutFactor` times this in all.
        package var timeout: Duration
        package var overallTimeoutFactor: Int
        package var maxBodyBytes: Int
        package var maxRedirects: Int
        /// Where downloads are kept; nil for a private temporary folder removed at shutdown.
        package var cacheFolder: String?
        /// Keeps the cache within Tessera's disk cache limit when `cacheFolder` is its downloads folder:
        /// each URL fetched is pinned for the run, each copy served is stamped as used, and a new copy
        /// asks for a sweep.
        package var diskCache: DiskCacheJanitor?

        package init(perHostLimit: Int = 4, timeout: Duration = .seconds(15), overallTimeoutFactor: Int = 4,
                    maxBodyBytes: Int = 64 << 20, maxRedirects: Int = 8,
                    cacheFolder: String? = Configuration.defaultCacheFolder()) {
            self.perHostLimit = perHostLimit
            self.timeout = timeout
            self.overallTimeoutFactor = overallTimeoutFactor
            self.maxBodyBytes = maxBodyBytes
            self.maxRedirects = maxRedirects
            self.cacheFolder = cacheFolder
        }

        /// `$XDG_CACHE_HOME/tessera/remote`, else `~/.cache/tessera/remote`; nil without a home folder.
        package static func defaultCacheFolder(
            environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
            RemoteCacheFolder.defaultPath(environment: environment)
        }
    }

    package struct Counters: Sendable, Equatable {
        /// Requests sent (downloads and revalidations).
        package var started = 0
        /// New copies downloaded and installed.
        package var completed = 0
        /// Revalidations answered 304: the cached copy was current.
        package var notModified = 0
        /// Downloads that ended failed (not counting those answered from the cache offline).
        package var failed = 0
        /// Queued downloads dropped by `retainQueued` before they started.
        package var cancelledQueued = 0
        /// Body bytes received, including those of downloads that failed.
        package var bytesDownloaded: Int64 = 0
        /// Downloads that failed but were answered with the cached copy.
        package var servedFromCacheOffline = 0
    }

    /// The folder downloads are kept in.
    package let cacheFolder: String
    private let engine: DownloadEngine
    private let removesCacheFolderAtShutdown: Bool

    /// - Parameters:
    ///   - onChange: called, on any thread, after a download's state changed in the background (ready or
    ///     failed): the app wakes its main loop with it. Changes the caller makes itself (`fetch`,
    ///     `retainQueued`, `forgetFailure`) are visible at once and not announced.
    ///   - now: the clock deadlines are measured with.
    package init(configuration: Configuration = Configuration(), logger: Logger = Logger(label: "tessera.remote"),
                now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
                onChange: @escaping @Sendable () -> Void) {
        // A cache folder that cannot be written means no cache across runs and one warning, not a failure
        // of every download: this run's copies go to a private folder removed at shutdown.
        var usable = configuration.cacheFolder
        if let wanted = usable, let problem = RemoteCacheFolder(path: wanted).create() ?? Self.writeProblem(wanted) {
            logger.warning("remote images are not cached across runs: \(problem)")
            usable = nil
        }
        let folder = usable ?? RemoteCacheFolder.privateTemporaryPath()
        cacheFolder = folder
        removesCacheFolderAtShutdown = usable == nil
        let timeout = max(configuration.timeout, .milliseconds(1))
        let limits = DownloadEngine.Limits(
            maxBodyBytes: max(0, configuration.maxBodyBytes), maxRedirects: max(0, configuration.maxRedirects),
            deadline: TransferDeadline(idleTimeout: timeout, overallTimeout: timeout * max(1, configuration.overallTimeoutFactor)))
        let diskCache = configuration.diskCache.flatMap { $0.remoteFolder == folder ? $0 : nil }
        engine = DownloadEngine(perHostLimit: configuration.perHostLimit, limits: limits,
                                cache: RemoteCacheFolder(path: folder), diskCache: diskCache, logger: logger, now: now,
                                onChange: onChange)

        let sessionConfiguration = URLSessionConfiguration.ephemeral
        // Our cache folder is the only cache: no second copy in URLCache, no answers from it.
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // The table keeps to the per-host limit; libcurl's own limit only needs to stay out of its way.
        sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.perHostLimit) * 2
        // Our deadline checks time out first. URLSession's timers stay as a backstop, set longer because
        // corelibs truncates them to whole seconds (0.3 s would become 0).
        let backstop = (limits.deadline.overallTimeout.seconds + 1).rounded(.up)
        sessionConfiguration.timeoutIntervalForRequest = backstop
        sessionConfiguration.timeoutIntervalForResource = backstop
        let session = URLSession(configuration: sessionConfiguration, delegate: engine, delegateQueue: engine.delegateQueue)
        engine.attach(session)
    }

    deinit { shutdown() }

    private static func writeProblem(_ folder: String) -> String? {
        access(folder, W_OK | X_OK) == 0 ? nil : "cannot write to \(folder): \(String(cString: strerror(errno)))"
    }

    // MARK: - RemoteFetching

    package func state(of url: String) -> RemoteState {
        engine.state.withLock { $0.table.state(of: url) }
    }

    package func fetch(_ url: String, priority: Int) {
        engine.fetch(url, priority: priority)
    }

    package func retainQueued(_ urls: Set<String>) {
        engine.state.withLock { state in
            state.counters.cancelledQueued += state.table.retainQueued(urls)
        }
    }

    package func forgetFailure(_ url: String) {
        engine.state.withLock { $0.table.forgetFailure(url) }
    }

    // MARK: - Reports

    package var counterValues: Counters { engine.state.withLock { $0.counters } }
    /// Downloads started and not yet finished.
    package var runningCount: Int { engine.state.withLock { $0.table.runningCount } }
    /// Downloads waiting for room on their host.
    package var queuedCount: Int { engine.state.withLock { $0.table.queuedCount } }
    /// The most downloads that ran at once on one host, over the store's life.
    package var maxRunningPerHostObserved: Int { engine.state.withLock { $0.table.maxRunningPerHostObserved } }

    // MARK: - Shutdown

    /// Cancels every download, invalidates the session and (for a private folder) deletes the cache.
    /// Idempotent. Waits at most a second for the download queue to drop its files, so that a process
    /// about to exit leaves nothing behind.
    package func shutdown() {
        guard engine.shutDown() else { return }
        let finished = DispatchSemaphore(value: 0)
        let engine = engine
        let removesCacheFolder = removesCacheFolderAtShutdown
        // On the download queue, after any callback already queued: nothing creates files after this.
        engine.delegateQueue.addOperation {
            engine.discardTransfers()
            if removesCacheFolder { engine.cache.removeAll() }
            finished.signal()
        }
        // Waiting from the download queue itself would wait for ever.
        if OperationQueue.current !== engine.delegateQueue {
            _ = finished.wait(timeout: .now() + 1)
        }
    }
}
