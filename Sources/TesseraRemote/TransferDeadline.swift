import Foundation

/// When a download has taken too long: no byte for `idleTimeout` (a stalled server, a dead connection
/// without a reset), or longer than `overallTimeout` in all (a server trickling a byte every few seconds).
/// Pure, so the rules are tested with made-up instants.
struct TransferDeadline: Sendable {
    let idleTimeout: Duration
    let overallTimeout: Duration

    /// Why the download is over its time at `now`, or nil while it is not.
    func expiry(startedAt: ContinuousClock.Instant, lastProgressAt: ContinuousClock.Instant,
                now: ContinuousClock.Instant) -> String? {
        if now - startedAt >= overallTimeout {
            return "not finished after \(overallTimeout.secondsText) in all"
        }
        if now - lastProgressAt >= idleTimeout {
            return "nothing arrived for \(idleTimeout.secondsText)"
        }
        return nil
    }

    /// When to look again: the earlier of the two deadlines.
    func nextCheck(startedAt: ContinuousClock.Instant,
                   lastProgressAt: ContinuousClock.Instant) -> ContinuousClock.Instant {
        min(startedAt + overallTimeout, lastProgressAt + idleTimeout)
    }
}

extension Duration {
    /// Seconds as a Double, for APIs that take a TimeInterval.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }

    /// "0.3 s", "15 s" (to the millisecond).
    var secondsText: String {
        let milliseconds = Int((seconds * 1000).rounded())
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        return String(format: "%g s", Double(milliseconds) / 1000)
    }
}
