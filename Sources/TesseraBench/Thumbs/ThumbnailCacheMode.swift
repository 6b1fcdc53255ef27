/// What the freedesktop thumbnail cache does while `ThumbsBench` measures.
package enum ThumbnailCacheMode: String, CaseIterable, Codable, Sendable {
    /// No cache: pure decoding throughput.
    case none
    /// A new, empty cache each run: every thumbnail is also PNG-encoded and written (a first visit).
    case save
    /// A cache filled by an untimed pass first: every file is a hit (a second visit).
    case warm
}
