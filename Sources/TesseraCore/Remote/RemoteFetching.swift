/// Where a remote image (an http(s) URL) stands: the carousel asks this before it asks for a decode.
package enum RemoteState: Equatable, Sendable {
    /// Not asked for in this run.
    case notStarted
    /// Queued or downloading (or being revalidated).
    case inFlight
    /// The bytes are in a local file; decode from there. `version` changes when a new copy is downloaded.
    case ready(localPath: String, version: FileVersion)
    case failed(LoadFailure)
}

/// Downloads remote images into a local cache: LazyTableImages' download table. The carousel decides
/// *when* to fetch (never while the strip is dragged or decelerating); the fetcher decides how (at most a
/// few per host, a timeout, a size limit, one download per URL at a time).
package protocol RemoteFetching: AnyObject, Sendable {
    func state(of url: String) -> RemoteState
    /// Starts (or queues) a download unless one is in flight, done, or failed. Lower priority runs first.
    func fetch(_ url: String, priority: Int)
    /// Drops queued downloads not in `urls` (they left the screen before starting); running ones finish.
    func retainQueued(_ urls: Set<String>)
    /// Forgets a failure so the next `fetch` tries again (the user asked to retry).
    func forgetFailure(_ url: String)
}

extension CarouselItem {
    /// Whether `path` is an http(s) URL.
    package static func isRemote(_ path: String) -> Bool {
        let lower = path.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
