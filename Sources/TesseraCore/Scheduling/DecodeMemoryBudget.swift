import Foundation

/// A bound on the working memory of the decodes running at once, shared by every worker pool that
/// decodes (the strip's and the tiled view's), so two large photos are not decoded side by side when
/// together they would pass it.
///
/// Each decode asks for its estimated working memory before it starts and gives it back when it ends. It
/// starts at once when the decodes already running plus this one fit the limit, and always when none is
/// running, so an image larger than the whole budget still decodes (alone). Otherwise it waits. Waiters
/// are served in the order they arrived (workers take jobs most urgent first, so that is priority order),
/// and one that arrives later never starts ahead of one already waiting, so a large decode is not starved
/// by a stream of small ones.
///
/// A waiting decode whose `DecodeCancellation` is set leaves the line and throws `DecodeCancelled`; the
/// signal is an atomic flag nobody is told about, so a waiter with one looks at it every
/// `cancellationPollInterval`.
package final class DecodeMemoryBudget: @unchecked Sendable {
    /// One decode's share of the budget, from `admit` until `release`.
    package struct Admission: Sendable {
        package let bytes: Int
    }

    /// Occupancy and counters, read in one consistent snapshot.
    package struct Stats: Sendable, Equatable {
        /// Estimated bytes of the decodes running now.
        package var inUseBytes = 0
        /// Decodes running now.
        package var running = 0
        /// Decodes waiting for room now.
        package var waiting = 0
        /// The most `inUseBytes` has been.
        package var peakInUseBytes = 0
        /// The most decodes that have run at once.
        package var peakRunning = 0
        /// Decodes that had to wait before starting.
        package var waited = 0
    }

    package let limitBytes: Int
    private let cancellationPollInterval: TimeInterval
    /// Guards everything below and wakes waiters when room is freed.
    private let condition = NSCondition()
    private var state = Stats()
    /// Tickets of the waiting decodes, in arrival order; only the first may start.
    private var line: [Int] = []
    private var nextTicket = 0

    /// - Parameters:
    ///   - limitBytes: estimated working memory the running decodes may hold together (one runs whatever
    ///     its size).
    ///   - cancellationPollInterval: how often a waiter with a cancellation signal looks at it.
    package init(limitBytes: Int, cancellationPollInterval: Duration = .milliseconds(20)) {
        self.limitBytes = max(0, limitBytes)
        self.cancellationPollInterval = max(0.001, cancellationPollInterval / .seconds(1))
    }

    /// Blocks until a decode of `bytes` may start, and counts it as running. Throws `DecodeCancelled` if
    /// `cancellation` is set while waiting (having taken no room). Never call it from the main thread.
    package func admit(bytes: Int, cancellation: DecodeCancellation? = nil) throws(DecodeCancelled) -> Admission {
        let bytes = max(0, bytes)
        condition.lock()
        defer { condition.unlock() }
        if line.isEmpty && fits(bytes) { return start(bytes) }
        let ticket = nextTicket
        nextTicket += 1
        line.append(ticket)
        state.waiting += 1
        state.waited += 1
        while !(line.first == ticket && fits(bytes)) {
            if let cancellation {
                if cancellation.isCancelled {
                    leaveLine(ticket)
                    throw DecodeCancelled()
                }
                _ = condition.wait(until: Date(timeIntervalSinceNow: cancellationPollInterval))
            } else {
                condition.wait()
            }
        }
        leaveLine(ticket)
        return start(bytes)
    }

    /// Gives back what `admit` took; waiters that now fit start.
    package func release(_ admission: Admission) {
        condition.lock()
        defer { condition.unlock() }
        state.inUseBytes -= admission.bytes
        state.running -= 1
        condition.broadcast()
    }

    /// Runs `body` once a decode of `bytes` may start, and releases its share when `body` returns or throws.
    package func withAdmission<Result>(bytes: Int, cancellation: DecodeCancellation? = nil,
                                      _ body: () throws -> Result) throws -> Result {
        let admission = try admit(bytes: bytes, cancellation: cancellation)
        defer { release(admission) }
        return try body()
    }

    package var stats: Stats {
        condition.lock()
        defer { condition.unlock() }
        return state
    }

    // MARK: - With the lock held

    private func fits(_ bytes: Int) -> Bool {
        state.running == 0 || state.inUseBytes + bytes <= limitBytes
    }

    private func start(_ bytes: Int) -> Admission {
        state.inUseBytes += bytes
        state.running += 1
        state.peakInUseBytes = max(state.peakInUseBytes, state.inUseBytes)
        state.peakRunning = max(state.peakRunning, state.running)
        return Admission(bytes: bytes)
    }

    /// Removes a ticket (admitted or given up) and lets the next in line look again.
    private func leaveLine(_ ticket: Int) {
        line.removeAll { $0 == ticket }
        state.waiting -= 1
        condition.broadcast()
    }
}
