#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraTiling

/// Synchronous GETs into memory for remote pyramids (`RemoteIIIFTileSource`, `RemoteDeepZoomTileSource`),
/// called on the views' fetch threads and the opening's: each waits for its body, within a byte limit, an
/// idle and an overall time limit, a redirect limit, http(s) only (redirects too), and at most
/// `perHostConnections` connections to a host, so fetches queue behind one another rather than flood a
/// server. A fetch given a `DecodeCancellation` ends its transfer once that is set (the tile left the
/// screen), which frees the connection for a tile still wanted.
///
/// Whatever is not the expected body fails with one sentence: a status other than success, a web page
/// (a login wall or an error page served with 200), a body over the limit, silence.
///
/// With a cache folder, what arrives is kept there (`RemoteCacheFolder`: the bytes and the server's
/// validators, under Tessera's one disk-cache limit). A copy the server's `Cache-Control: max-age` still
/// calls fresh serves without a request; otherwise the next fetch of the URL asks whether it changed
/// (If-None-Match, If-Modified-Since): a 304 is answered from the copy (and renews its freshness), as is a
/// fetch that fails before the server answers (offline). A copy that cannot be written only costs a fetch
/// next time.
///
/// Sendable without `@unchecked`: the transfers' state sits in a `Mutex`; the delegate's callbacks run on
/// a serial queue, so a body's chunks arrive in order.
package final class HTTPFetcher: NSObject, URLSessionDataDelegate, TileFetching, Sendable {
    package struct Limits: Sendable {
        /// No byte for this long ends a fetch: a stalled server.
        package var idleTimeout: Duration = .seconds(20)
        /// A fetch that takes longer than this in all ends too: a server trickling bytes.
        package var overallTimeout: Duration = .seconds(120)
        package var maxRedirects = 5
        package var perHostConnections = 6

        package init() {}
    }

    /// One fetch under way.
    private struct Transfer {
        let url: String
        let task: URLSessionDataTask
        let byteLimit: Int
        let done: DispatchSemaphore
        var lastProgressAt: ContinuousClock.Instant
        var response: HTTPURLResponse?
        var body = Data()
        var redirects = 0
        /// Set when we end the transfer ourselves; the cancellation error that follows is then ignored.
        var failure: String?
        var error: (any Error)?
    }

    /// The one fetcher the process's views share, so the per-host limit holds across them; it keeps what it
    /// fetches in Tessera's cache folder.
    package static let shared = HTTPFetcher(cacheFolder: RemoteCacheFolder.defaultPath())

    private let limits: Limits
    private let cache: RemoteCacheFolder?
    /// The wall clock a kept copy's freshness is measured against.
    private let now: @Sendable () -> Date
    private let transfers = Mutex<[Int: Transfer]>([:])
    /// Nil after `invalidate`.
    private let session = Mutex<URLSession?>(nil)
    private let delegateQueue: OperationQueue

    /// - Parameters:
    ///   - cacheFolder: where fetched bodies are kept and revalidated; nil keeps nothing.
    ///   - now: the wall clock, for the kept copies' freshness (tests pass their own).
    package init(limits: Limits = Limits(), cacheFolder: String? = nil, now: @escaping @Sendable () -> Date = { Date() }) {
        self.limits = limits
        self.now = now
        cache = cacheFolder.map(RemoteCacheFolder.init(path:))
        delegateQueue = OperationQueue()
        delegateQueue.name = "tessera.remote.fetches"
        delegateQueue.maxConcurrentOperationCount = 1
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = limits.perHostConnections
        // A backstop only, beyond the limits `get` keeps itself: corelibs hands libcurl whole seconds, and
        // a fraction of one would end every transfer at once.
        configuration.timeoutIntervalForRequest = (limits.overallTimeout.seconds + 1).rounded(.up)
        configuration.timeoutIntervalForResource = (limits.overallTimeout.seconds + 1).rounded(.up)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session.withLock { $0 = URLSession(configuration: configuration, delegate: self, delegateQueue: delegateQueue) }
    }

    /// Ends the fetches under way and lets the session (which holds this fetcher as its delegate) go.
    package func invalidate() {
        session.withLock { session in
            session?.invalidateAndCancel()
            session = nil
        }
    }

    /// How often a fetch that can be cancelled looks at its cancellation while it waits: the signal has no
    /// callback, and a tile left behind should free its connection within a frame or so.
    static let cancellationCheckInterval = Duration.milliseconds(20)

    package func get(_ url: String, byteLimit: Int, cancellation: DecodeCancellation?) throws(TileFetchError) -> Data {
        if cancellation?.isCancelled == true { throw TileFetchError.cancelled(url) }
        guard let requestURL = URL(string: url), Self.isHTTP(requestURL) else {
            throw TileFetchError(url: url, reason: "not an http(s) URL")
        }
        var request = URLRequest(url: requestURL)
        request.setValue("*/*", forHTTPHeaderField: "Accept")
        let copy = cache?.cachedCopy(for: url)
        if let copy, let freshUntil = copy.metadata?.freshUntil, now() < freshUntil,
           let kept = FileManager.default.contents(atPath: copy.path), kept.count <= byteLimit {
            return kept
        }
        if let metadata = copy?.metadata {
            if let etag = metadata.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
            if let modified = metadata.lastModified { request.setValue(modified, forHTTPHeaderField: "If-Modified-Since") }
        }
        let done = DispatchSemaphore(value: 0)
        let startedAt = ContinuousClock.now
        let taskID: Int? = session.withLock { session in
            guard let session else { return nil }
            let task = session.dataTask(with: request)
            transfers.withLock {
                $0[task.taskIdentifier] = Transfer(url: url, task: task, byteLimit: byteLimit, done: done, lastProgressAt: startedAt)
            }
            task.resume()
            return task.taskIdentifier
        }
        guard let taskID else { throw TileFetchError(url: url, reason: "the fetcher is shut down") }
        while true {
            guard let lastProgressAt = transfers.withLock({ $0[taskID]?.lastProgressAt }) else { break }
            let deadline = min(startedAt + limits.overallTimeout, lastProgressAt + limits.idleTimeout)
            var wait = max(.zero, deadline - ContinuousClock.now)
            if cancellation != nil { wait = min(wait, Self.cancellationCheckInterval) }
            if done.wait(timeout: .now() + wait.seconds) == .success { break }
            if cancellation?.isCancelled == true {
                transfers.withLock { $0.removeValue(forKey: taskID) }?.task.cancel()
                throw TileFetchError.cancelled(url)
            }
            let now = ContinuousClock.now
            let expired: String? = transfers.withLock { transfers in
                guard let transfer = transfers[taskID] else { return nil }
                if now - startedAt >= limits.overallTimeout { return "not finished after \(limits.overallTimeout.secondsText) in all" }
                if now - transfer.lastProgressAt >= limits.idleTimeout { return "nothing arrived for \(limits.idleTimeout.secondsText)" }
                return nil
            }
            if let expired {
                transfers.withLock { $0.removeValue(forKey: taskID) }?.task.cancel()
                throw TileFetchError(url: url, reason: "the server did not answer in time (\(expired))")
            }
        }
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: taskID) }) else {
            throw TileFetchError(url: url, reason: "the fetch was cancelled")
        }
        if let copy, transfer.failure == nil, transfer.response == nil || transfer.response?.statusCode == 304,
           let kept = FileManager.default.contents(atPath: copy.path), kept.count <= byteLimit {
            // Not changed, or no answer at all (offline): the copy kept serves.
            if let cache, let response = transfer.response, var metadata = copy.metadata {
                let renewed = Self.freshUntil(of: response, receivedAt: now())
                if renewed != metadata.freshUntil {
                    metadata.freshUntil = renewed
                    cache.writeMetadata(metadata, for: url)
                }
            }
            return kept
        }
        let body = try Self.body(of: transfer)
        if let cache, let response = transfer.response { Self.keep(body, of: url, response: response, receivedAt: now(), in: cache) }
        return body
    }

    private static func freshUntil(of response: HTTPURLResponse, receivedAt: Date) -> Date? {
        ResponseFreshness.freshUntil(cacheControl: response.value(forHTTPHeaderField: "Cache-Control"),
                                     age: response.value(forHTTPHeaderField: "Age"), receivedAt: receivedAt)
    }

    /// Keeps `body` as the copy of `url` with the server's validators and freshness; a failure is only a
    /// copy not kept.
    private static func keep(_ body: Data, of url: String, response: HTTPURLResponse, receivedAt: Date, in cache: RemoteCacheFolder) {
        guard case .success(let temporary) = cache.makeTemporaryFile(for: url) else { return }
        let written = body.withUnsafeBytes { POSIXFiles.writeAll(temporary.descriptor, $0) == nil }
        guard close(temporary.descriptor) == 0, written else {
            unlink(temporary.path)
            return
        }
        _ = cache.install(temporaryPath: temporary.path, for: url, metadata: CachedResponseMetadata(
            url: url, etag: response.value(forHTTPHeaderField: "ETag"),
            lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
            contentType: response.value(forHTTPHeaderField: "Content-Type"),
            freshUntil: freshUntil(of: response, receivedAt: receivedAt)))
    }

    /// The body of a finished transfer, or why it is not one.
    private static func body(of transfer: Transfer) throws(TileFetchError) -> Data {
        let url = transfer.url
        if let failure = transfer.failure { throw TileFetchError(url: url, reason: failure) }
        if let error = transfer.error { throw TileFetchError(url: url, reason: describe(error)) }
        guard let response = transfer.response else { throw TileFetchError(url: url, reason: "no HTTP answer") }
        let status = response.statusCode
        if (300..<400).contains(status), let location = response.value(forHTTPHeaderField: "Location") {
            let target = URL(string: location, relativeTo: response.url ?? URL(string: url))
            if let target, !isHTTP(target) {
                throw TileFetchError(url: url, reason: "the server redirected to \(location), not an http(s) URL", status: status)
            }
        }
        guard (200..<300).contains(status) else {
            throw TileFetchError(url: url, reason: "the server answered \(status) \(HTTPURLResponse.localizedString(forStatusCode: status))",
                                 status: status)
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        if DownloadEngine.looksLikeHTML(Array(transfer.body.prefix(64)), contentType: contentType) {
            throw TileFetchError(url: url, reason: "the server answered with a web page (Content-Type \(contentType ?? "absent")), not the file")
        }
        return transfer.body
    }

    private static func isHTTP(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host.map { !$0.isEmpty } ?? false
    }

    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return (error as NSError).localizedDescription }
        switch urlError.code {
        case .cannotConnectToHost: return "the server refused the connection"
        case .cannotFindHost, .dnsLookupFailed: return "the host name could not be resolved"
        case .timedOut: return "the server did not answer in time"
        case .httpTooManyRedirects: return "too many redirects"
        default: return "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))"
        }
    }

    // MARK: - Delegate queue

    /// Runs `change` on the transfer of `task`, unless it has failed already; a failure it returns is
    /// recorded and cancels the task.
    private func update(_ task: URLSessionTask, cancelsOnFailure: Bool = true, _ change: (inout Transfer) -> String?) {
        transfers.withLock { transfers in
            guard var transfer = transfers[task.taskIdentifier], transfer.failure == nil else { return }
            transfer.lastProgressAt = .now
            transfer.failure = change(&transfer)
            transfers[task.taskIdentifier] = transfer
            if transfer.failure != nil && cancelsOnFailure { task.cancel() }
        }
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                            completionHandler: @Sendable @escaping (URLSession.ResponseDisposition) -> Void) {
        completionHandler(.allow)
        update(dataTask) { transfer in
            guard let response = response as? HTTPURLResponse else { return "not an HTTP answer" }
            transfer.response = response
            if (200..<300).contains(response.statusCode), response.expectedContentLength > Int64(transfer.byteLimit) {
                return "the server declared \(response.expectedContentLength) bytes, over the limit of \(transfer.byteLimit)"
            }
            return nil
        }
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        update(dataTask) { transfer in
            transfer.body.append(data)
            // Counted as it arrives: Content-Length may be absent or wrong.
            if transfer.body.count > transfer.byteLimit {
                return "more than \(transfer.byteLimit) bytes arrived, over the limit"
            }
            return nil
        }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                            newRequest request: URLRequest, completionHandler: @Sendable @escaping (URLRequest?) -> Void) {
        var follows = false
        // Not cancelled here: a redirect not followed completes with its 3xx, and cancelling as well would
        // race that completion inside corelibs.
        update(task, cancelsOnFailure: false) { transfer in
            transfer.redirects += 1
            guard let target = request.url, Self.isHTTP(target) else {
                return "the server redirected to \(request.url?.absoluteString ?? "nothing"), not an http(s) URL"
            }
            guard transfer.redirects <= limits.maxRedirects else { return "more than \(limits.maxRedirects) redirects" }
            follows = true
            return nil
        }
        completionHandler(follows ? request : nil)
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let done = transfers.withLock { transfers -> DispatchSemaphore? in
            guard var transfer = transfers[task.taskIdentifier] else { return nil }
            if transfer.failure == nil { transfer.error = error }
            transfers[task.taskIdentifier] = transfer
            return transfer.done
        }
        done?.signal()
    }
}

