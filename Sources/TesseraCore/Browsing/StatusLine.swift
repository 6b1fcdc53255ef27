/// The overlay's transient message: what an action did or why it failed ("moved 3 images to the trash",
/// "a.png: rotated for this session, not saved"), shown for a few seconds and replaced by the next one.
package struct StatusLine: Sendable, Equatable {
    package struct Message: Sendable, Equatable {
        package var text: String
        package var isError: Bool
        package var shownAt: Duration
    }

    /// How long a message stays; errors stay longer, to be read.
    package let lifetime: Duration
    package let errorLifetime: Duration
    package private(set) var message: Message?

    package init(lifetime: Duration = .seconds(4), errorLifetime: Duration = .seconds(8)) {
        self.lifetime = lifetime
        self.errorLifetime = errorLifetime
    }

    package mutating func show(_ text: String, isError: Bool = false, now: Duration) {
        message = Message(text: text, isError: isError, shownAt: now)
    }

    /// The message on show at `now`, if any.
    package func current(now: Duration) -> Message? {
        guard let message, let expiresAt, now < expiresAt else { return nil }
        return message
    }

    /// When the message on show goes; nil without one.
    package var expiresAt: Duration? {
        message.map { $0.shownAt + ($0.isError ? errorLifetime : lifetime) }
    }
}
