import Synchronization

/// A handler that was started: whether it still runs, and how to stop it.
package final class KeyHandlerRun: Sendable {
    private struct State {
        var running = true
        var cancelled = false
    }

    private let state = Mutex(State())

    init() {}

    /// True from `run` until just before the completion is called.
    package var isRunning: Bool { state.withLock { $0.running } }

    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Stops the handler and what it started: SIGTERM to its process group, SIGKILL after the runner's
    /// `killGrace`. The completion still comes, with `wasCancelled` set.
    package func cancel() {
        state.withLock { $0.cancelled = true }
    }

    func finish() {
        state.withLock { $0.running = false }
    }
}
