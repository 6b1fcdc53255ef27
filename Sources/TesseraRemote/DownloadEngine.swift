#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging

/// The moving part behind `RemoteImageStore`: the URLSession delegate that streams each body into a
/// temporary file, enforces the limits, checks the result and reports it to the download table.
///
/// Threads: the UI thread only touches `state` (in-memory, under a mutex). Everything that touches the
/// disk or a transfer runs on `delegateQueue`, which is serial, so one transfer's callbacks, its deadline
/// checks and the start of the next download never overlap. Sendable without `@unchecked`: every mutable
/// thing sits in a `Mutex`.
///
/// Longer than most files because URLSession's delegate protocol hands every callback of every transfer
/// to one object, and the limits it enforces read the private transfer record those callbacks share.
final class DownloadEngine: NSObject, URLSessionDataDelegate, Sendable {
    struct State: Sendable {
        var table: DownloadTable
        var counters = RemoteImageStore.Counters()
        var isShutDown = false
    }

    struct Limits: Sendable {
        let maxBodyBytes: Int
        let maxRedirects: Int
        let deadline: TransferDeadline
    }

    /// One download in progress. Touched only on the delegate queue.
    private struct Transfer {
        let url: String
        let task: URLSessionDataTask
        /// The copy on disk when the download started; its validators made the request conditional.
        let cachedCopy: CachedCopy?
        let startedAt: ContinuousClock.Instant
        var lastProgressAt: ContinuousClock.Instant
        var redirectCount = 0
        var response: HTTPURLResponse?
        var temporaryFile: (descriptor: Int32, path: String)?
        var receivedBytes = 0
        /// The first bytes of the body, for `ImageFormat.sniff`.
        var leadingBytes: [UInt8] = []
        /// Set when we end the transfer ourselves; the cancellation error that follows is then ignored.
        var failure: DownloadFailure?
    }

    let state: Mutex<State>
    let delegateQueue: OperationQueue
    let cache: RemoteCacheFolder
    private let diskCache: DiskCacheJanitor?
    private let limits: Limits
    private let transfers = Mutex<[Int: Transfer]>([:])
    /// Nil before `attach` and after shutdown. Tasks are created under this lock so none can be created
    /// on a session that shutdown has just invalidated.
    private let session = Mutex<URLSession?>(nil)
    private let onChange: @Sendable () -> Void
    private let logger: Logger
    private let now: @Sendable () -> ContinuousClock.Instant

    init(perHostLimit: Int, limits: Limits, cache: RemoteCacheFolder, diskCache: DiskCacheJanitor? = nil, logger: Logger,
         now: @escaping @Sendable () -> ContinuousClock.Instant, onChange: @escaping @Sendable () -> Void) {
        state = Mutex(State(table: DownloadTable(perHostLimit: perHostLimit)))
        self.limits = limits
        self.cache = cache
        self.diskCache = diskCache
        self.logger = logger
        self.now = now
        self.onChange = onChange
        delegateQueue = OperationQueue()
        delegateQueue.name = "tessera.remote.downloads"
        // Serial: corelibs hands each callback to this queue as its own operation, so a concurrent queue
        // could write a body's chunks out of order.
        delegateQueue.maxConcurrentOperationCount = 1
        super.init()
    }

    func attach(_ session: URLSession) {
        self.session.withLock { $0 = session }
    }

    // MARK: - Called from the UI thread (memory only)

    func fetch(_ url: String, priority: Int) {
        // Known URLs (the common case: the carousel asks every frame) cost one dictionary lookup.
        if state.withLock({ $0.table.reprioritize(url, priority: priority) }) { return }
        guard let hostKey = Self.hostKey(of: url) else {
            let failure = DownloadFailure.badURL.loadFailure(url: url)
            state.withLock { if !$0.isShutDown { $0.table.refuse(url, failure: failure) } }
            return
        }
        let startsNow = state.withLock { state in
            !state.isShutDown && state.table.request(url, hostKey: hostKey, priority: priority)
        }
        if startsNow { enqueueStart(url) }
    }

    /// Marks the engine shut down and invalidates the session; returns false when it already was.
    func shutDown() -> Bool {
        let first = state.withLock { state -> Bool in
            guard !state.isShutDown else { return false }
            state.isShutDown = true
            state.table.dropUnfinished()
            return true
        }
        guard first else { return false }
        session.withLock { session in
            session?.invalidateAndCancel()
            session = nil
        }
        return true
    }

    // MARK: - Delegate queue

    private func enqueueStart(_ url: String) {
        delegateQueue.addOperation { [self] in start(url) }
    }

    private func start(_ url: String) {
        guard let requestURL = URL(string: url) else { return }
        // Pinned for the run, before any copy exists: the strip may show it at any time from now on.
        diskCache?.pin(cache.dataPath(for: url))
        let cachedCopy = cache.cachedCopy(for: url)
        var request = URLRequest(url: requestURL)
        request.setValue("image/*, */*;q=0.5", forHTTPHeaderField: "Accept")
        if let metadata = cachedCopy?.metadata {
            if let etag = metadata.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let lastModified = metadata.lastModified {
                request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since")
            }
        }
        let startedAt = now()
        let taskID: Int? = session.withLock { session in
            guard let session else { return nil }
            let task = session.dataTask(with: request)
            transfers.withLock {
                $0[task.taskIdentifier] = Transfer(url: url, task: task, cachedCopy: cachedCopy,
                                                   startedAt: startedAt, lastProgressAt: startedAt)
            }
            task.resume()
            return task.taskIdentifier
        }
        guard let taskID else { return }
        state.withLock { $0.counters.started += 1 }
        logger.debug("download started", metadata: ["url": "\(url)", "conditional": "\(cachedCopy?.metadata != nil)"])
        scheduleDeadlineCheck(taskID, at: limits.deadline.nextCheck(startedAt: startedAt, lastProgressAt: startedAt))
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void) {
        // corelibs cannot pause libcurl and ignores the disposition, so refusals cancel the task instead.
        completionHandler(.allow)
        let isShutDown = state.withLock { $0.isShutDown }
        updateTransfer(of: dataTask) { transfer in
            transfer.lastProgressAt = now()
            guard let response = response as? HTTPURLResponse else {
                return .network(code: URLError.badServerResponse.rawValue, description: "not an HTTP response")
            }
            transfer.response = response
            switch response.statusCode {
            case 304 where transfer.cachedCopy?.metadata != nil:
                return nil
            case 200..<300:
                if response.expectedContentLength > Int64(limits.maxBodyBytes) {
                    return .tooLarge(limitBytes: limits.maxBodyBytes, declaredBytes: response.expectedContentLength)
                }
                // After shutdown the private folder may be gone; recreating it would leak it.
                guard !isShutDown else { return .network(code: URLError.cancelled.rawValue, description: "shut down") }
                switch cache.makeTemporaryFile(for: transfer.url) {
                case .success(let file): transfer.temporaryFile = file
                case .failure(let failure): return failure
                }
                return nil
            default:
                return .httpStatus(response.statusCode)
            }
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        updateTransfer(of: dataTask) { transfer in
            transfer.lastProgressAt = now()
            transfer.receivedBytes += data.count
            // Counted as it arrives: Content-Length may be absent (chunked, close-delimited) or wrong.
            if transfer.receivedBytes > limits.maxBodyBytes {
                return .tooLarge(limitBytes: limits.maxBodyBytes, declaredBytes: nil)
            }
            if transfer.leadingBytes.count < ImageFormat.sniffLength {
                transfer.leadingBytes += data.prefix(ImageFormat.sniffLength - transfer.leadingBytes.count)
            }
            // No file for the (empty) body of a 304.
            guard let file = transfer.temporaryFile else { return nil }
            if let error = data.withUnsafeBytes({ POSIXFiles.writeAll(file.descriptor, $0) }) {
                return .cacheNotWritable(reason: "write \(file.path): \(error)")
            }
            return nil
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void) {
        var follows = false
        updateTransfer(of: task, cancelsOnFailure: false) { transfer in
            transfer.lastProgressAt = now()
            transfer.redirectCount += 1
            guard transfer.redirectCount <= limits.maxRedirects else {
                return .tooManyRedirects(limit: limits.maxRedirects)
            }
            follows = true
            return nil
        }
        // Not followed: corelibs then completes the task with the 3xx as its response. Cancelling here as
        // well would race that completion inside corelibs, so the recorded failure decides instead.
        completionHandler(follows ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        finish(transfer, error: error)
    }

    /// Runs `change` on the transfer of `task`, unless it already failed. A failure it returns is recorded
    /// and (unless told otherwise) cancels the task.
    private func updateTransfer(of task: URLSessionTask, cancelsOnFailure: Bool = true,
                                _ change: (inout Transfer) -> DownloadFailure?) {
        transfers.withLock { transfers in
            guard var transfer = transfers[task.taskIdentifier], transfer.failure == nil else { return }
            let failure = change(&transfer)
            transfer.failure = failure
            transfers[task.taskIdentifier] = transfer
            // cancel() only queues work on corelibs' own queue; the completion comes back to us later.
            if failure != nil && cancelsOnFailure { transfer.task.cancel() }
        }
    }

    private func scheduleDeadlineCheck(_ taskID: Int, at instant: ContinuousClock.Instant) {
        let delay = max(.zero, instant - now())
        let queue = delegateQueue
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay.seconds) { [weak self] in
            guard let self else { return }
            queue.addOperation { self.checkDeadline(taskID) }
        }
    }

    private func checkDeadline(_ taskID: Int) {
        let current = now()
        var recheckAt: ContinuousClock.Instant?
        transfers.withLock { transfers in
            guard var transfer = transfers[taskID], transfer.failure == nil else { return }
            guard let reason = limits.deadline.expiry(startedAt: transfer.startedAt,
                                                      lastProgressAt: transfer.lastProgressAt, now: current) else {
                recheckAt = limits.deadline.nextCheck(startedAt: transfer.startedAt,
                                                      lastProgressAt: transfer.lastProgressAt)
                return
            }
            transfer.failure = .timedOut(reason: reason)
            transfers[taskID] = transfer
            transfer.task.cancel()
        }
        if let recheckAt { scheduleDeadlineCheck(taskID, at: recheckAt) }
    }

    // MARK: - Finishing

    private func finish(_ transfer: Transfer, error: (any Error)?) {
        var closeFailure: DownloadFailure?
        if let file = transfer.temporaryFile, close(file.descriptor) != 0 {
            closeFailure = .cacheNotWritable(reason: "close \(file.path): \(RemoteCacheFolder.errorText(errno))")
        }
        if state.withLock({ $0.isShutDown }) {
            if let file = transfer.temporaryFile { unlink(file.path) }
            return
        }
        let failure = transfer.failure
            ?? error.map { DownloadFailure(transportError: $0, redirectLimit: limits.maxRedirects) }
            ?? closeFailure
        let result: Result<(path: String, version: FileVersion, isNew: Bool), DownloadFailure>
        if let failure {
            result = .failure(failure)
        } else {
            result = outcome(of: transfer)
        }
        if case .failure = result, let file = transfer.temporaryFile { unlink(file.path) }
        report(result, for: transfer)
    }

    /// What a transfer that ended without an error produced.
    private func outcome(of transfer: Transfer) -> Result<(path: String, version: FileVersion, isNew: Bool), DownloadFailure> {
        guard let response = transfer.response else {
            return .failure(.network(code: URLError.badServerResponse.rawValue, description: "no response"))
        }
        if response.statusCode == 304, let cachedCopy = transfer.cachedCopy {
            guard let version = FileVersion.ofFile(atPath: cachedCopy.path) else {
                return .failure(.cachedCopyMissing(reason: "304 Not Modified, but \(cachedCopy.path) is gone"))
            }
            return .success((cachedCopy.path, version, false))
        }
        guard let file = transfer.temporaryFile else {
            return .failure(.httpStatus(response.statusCode))
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        guard ImageFormat.sniff(transfer.leadingBytes) != .unknown else {
            return .failure(.notAnImage(isHTML: Self.looksLikeHTML(transfer.leadingBytes, contentType: contentType),
                                        contentType: contentType))
        }
        let metadata = CachedResponseMetadata(url: transfer.url,
                                              etag: response.value(forHTTPHeaderField: "ETag"),
                                              lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
                                              contentType: contentType)
        return cache.install(temporaryPath: file.path, for: transfer.url, metadata: metadata)
            .map { (cache.dataPath(for: transfer.url), $0, true) }
    }

    /// Tells the table, counts, starts whatever takes the freed slot, and wakes the app.
    private func report(_ result: Result<(path: String, version: FileVersion, isNew: Bool), DownloadFailure>,
                        for transfer: Transfer) {
        var phase: DownloadTable.Phase
        var servedOffline = false
        switch result {
        case .success(let ready):
            phase = .ready(localPath: ready.path, version: ready.version)
        case .failure(let failure):
            let loadFailure = failure.loadFailure(url: transfer.url)
            phase = .failed(loadFailure)
            if failure.allowsOfflineFallback, let cachedCopy = transfer.cachedCopy,
               let version = FileVersion.ofFile(atPath: cachedCopy.path) {
                phase = .ready(localPath: cachedCopy.path, version: version)
                servedOffline = true
                logger.warning("download failed, showing the cached copy: \(loadFailure.detail)")
            } else {
                logger.notice("download failed: \(loadFailure.detail)")
            }
        }
        let next = state.withLock { state -> String? in
            guard !state.isShutDown else { return nil }
            state.counters.bytesDownloaded += Int64(transfer.receivedBytes)
            switch result {
            case .success(let ready) where ready.isNew: state.counters.completed += 1
            case .success: state.counters.notModified += 1
            case .failure where servedOffline: state.counters.servedFromCacheOffline += 1
            case .failure: state.counters.failed += 1
            }
            return state.table.finish(transfer.url, with: phase)
        }
        if case .ready(let path, _) = phase {
            diskCache?.stampUse(ofDownload: path)
            if case .success(let ready) = result, ready.isNew { diskCache?.requestSweep() }
        }
        if let next { start(next) }
        onChange()
    }

    /// Closes and deletes the files of transfers still open (at shutdown, after the session let go).
    func discardTransfers() {
        let open = transfers.withLock { transfers -> [(descriptor: Int32, path: String)] in
            let files = transfers.values.compactMap(\.temporaryFile)
            transfers = [:]
            return files
        }
        for file in open {
            close(file.descriptor)
            unlink(file.path)
        }
    }

    // MARK: - Helpers

    /// "host:port" (default port filled in), or nil for anything but an http(s) URL with a host.
    static func hostKey(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty else { return nil }
        return "\(host.lowercased()):\(components.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Whether a body that is not an image is a web page (a login wall, an error page, a gallery page
    /// linked instead of its image), so the cell can say so.
    static func looksLikeHTML(_ leadingBytes: [UInt8], contentType: String?) -> Bool {
        if let contentType, contentType.lowercased().contains("html") { return true }
        let text = String(decoding: leadingBytes, as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }.lowercased()
        return ["<!doctype html", "<html", "<head", "<body", "<!--"].contains { text.hasPrefix($0) }
    }
}
