import Synchronization

/// A stop signal from the scheduler to one running decode. Decodes cannot be interrupted from outside, so
/// the decoders look at it between slices of their work (PNG every batch of rows, WebP between slices of
/// input, JPEG before it starts) and throw `DecodeCancelled` when it is set: the worker is then free for
/// work that still pays off, instead of finishing a cell the strip has already flung past.
package final class DecodeCancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    private let checkCount = Atomic<Int>(0)
    /// Sets the flag by itself at this check (counted from 1), so tests can stop a decode at a known point.
    private let tripAtCheck: Int?

    package init() { tripAtCheck = nil }

    /// A signal that sets itself at its `check`-th check: a decode stopped after a known amount of work.
    package init(cancellingAtCheck check: Int) { tripAtCheck = check }

    package var isCancelled: Bool { flag.load(ordering: .relaxed) }

    /// How many times a decode has looked at the signal.
    package var checks: Int { checkCount.load(ordering: .relaxed) }

    /// Asks the decode to stop at its next check.
    package func cancel() { flag.store(true, ordering: .releasing) }

    /// Withdraws a request to stop (the key is wanted again before the decode saw it). A decode that has
    /// already stopped stays stopped.
    package func withdraw() { flag.store(false, ordering: .releasing) }

    /// Throws `DecodeCancelled` if the decode should stop. Cheap: one atomic load and one add.
    package func check() throws(DecodeCancelled) {
        let count = checkCount.add(1, ordering: .relaxed).newValue
        if let tripAtCheck, count >= tripAtCheck { cancel() }
        if flag.load(ordering: .acquiring) { throw DecodeCancelled() }
    }
}

extension Optional where Wrapped == DecodeCancellation {
    /// `check()` on a signal that may be absent (absent never cancels).
    package func check() throws(DecodeCancelled) { if let self = self { try self.check() } }
}

/// Thrown by a decode that stopped because its `DecodeCancellation` was set: not a failure of the image.
package struct DecodeCancelled: Error, Sendable, Equatable {
    package init() {}
}
