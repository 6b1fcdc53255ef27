import Foundation

/// What the scroll model tells the rest of the app when a gesture or motion ends: the
/// `UIScrollViewDelegate` end-callbacks, as values. Other code (full-quality loading, preloading, saving
/// the position) hangs off these instead of polling `phase`.
package enum ScrollEvent: Equatable, Sendable {
    /// The finger (mouse button) let go. `willDecelerate` is true when the content keeps moving on its own
    /// (a fling, or a bounce back from past an edge); a `didEndDecelerating` then follows.
    case didEndDragging(willDecelerate: Bool)
    /// Movement after a drag (deceleration or bounce-back) has ended.
    case didEndDecelerating
    /// An animated `scroll(to:animated: true, time:)` has ended.
    case didEndScrollingAnimation
}
