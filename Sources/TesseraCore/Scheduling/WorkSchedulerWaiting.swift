import Foundation
import Synchronization

extension WorkScheduler {
    /// Runs `work` for `key` on this lane and blocks the calling thread until it has run: for a thread of
    /// another executor handing work over (a fetch thread giving its bytes to the decoding workers, so the
    /// decodes stay within their count and memory budget). Once `cancellation` is set, the job is dropped if
    /// still queued or asked to stop if running, and this throws `DecodeCancelled` unless the work finished.
    /// Never call it from this lane's own workers: with all of them waiting, nothing would run the work.
    package func performAndWait(_ key: Key, priority: Int = 0, cancellation: DecodeCancellation?,
                                _ work: @escaping CancellableWork) throws -> Value {
        let handoff = Handoff<Value>()
        request(key, priority: priority, cancellableWork: work) { _, result in
            handoff.result.withLock { $0 = result }
            handoff.done.signal()
        }
        var askedToStop = false
        while true {
            guard let cancellation, !askedToStop else {
                handoff.done.wait()
                break
            }
            if handoff.done.wait(timeout: .now() + Self.cancellationCheckInterval) == .success { break }
            if cancellation.isCancelled {
                askedToStop = true
                cancel(key)
                cancelRunning([key])
            }
        }
        switch handoff.result.withLock({ $0 }) {
        case .success(let value)?:
            return value
        case .failure(let error)?:
            if askedToStop { throw DecodeCancelled() }
            throw error
        case nil:
            throw WorkSchedulerError.cancelled
        }
    }

    /// How often a waiting hand-off looks at its cancellation, which has no callback.
    private static var cancellationCheckInterval: Double { 0.02 }
}

/// Where a job's completion leaves its result for the thread waiting on it.
private final class Handoff<Value: Sendable>: Sendable {
    let result = Mutex<Result<Value, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
}
