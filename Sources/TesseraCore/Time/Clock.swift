import Foundation

/// The one source of "now" for everything that animates: scrolling physics, fades, frame statistics.
///
/// Time is a `Duration` since an arbitrary origin rather than a wall-clock date because only differences
/// matter, and wall clocks jump (NTP, suspend, the user changing the time) while an animation must not.
/// Code takes a `FrameClock` instead of reading a clock itself so tests can drive time by hand
/// (`ManualClock`) and step physics in exact 1/60 s frames.
package protocol FrameClock: Sendable {
    /// Time elapsed since this clock's origin. Never decreases.
    func now() -> Duration
}

/// The real clock: monotonic, unaffected by wall-clock changes (`ContinuousClock` is CLOCK_MONOTONIC-class on
/// Linux), and keeps counting while the process is stopped, so an animation that was suspended completes
/// rather than resuming mid-way.
package struct MonotonicClock: FrameClock {
    /// One origin for the whole process, so readings from different `MonotonicClock` values are comparable
    /// (a fade started by one component can be timed by another).
    private static let origin = ContinuousClock.now

    package init() {}

    package func now() -> Duration {
        MonotonicClock.origin.duration(to: ContinuousClock.now)
    }
}

/// A clock that only moves when told to, for deterministic tests of anything time-based.
///
/// It is a class so the test and the code under test share one timeline; the lock makes it safe to hand to
/// code running on other threads (hence the checked-by-hand `@unchecked Sendable`).
package final class ManualClock: FrameClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Duration

    package init(start: Duration = .zero) {
        current = start
    }

    package func now() -> Duration {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    /// Moves time forward by `delta`. Negative deltas are refused: a `FrameClock` never goes backwards.
    package func advance(by delta: Duration) {
        precondition(delta >= .zero, "ManualClock: cannot advance by a negative duration \(delta)")
        lock.lock()
        defer { lock.unlock() }
        current += delta
    }

    /// Sets the time outright (tests that want absolute timestamps). Allowed to move backwards only because
    /// a test may deliberately probe that; production clocks never do.
    package func set(_ time: Duration) {
        lock.lock()
        defer { lock.unlock() }
        current = time
    }
}
