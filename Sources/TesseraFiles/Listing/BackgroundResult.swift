import Foundation
import Synchronization

/// A result made on a thread of its own from the moment it is asked for, and waited for later: a folder's
/// listing or a manifest's reading, while the main thread makes the window.
package final class BackgroundResult<Value: Sendable, Failure: Error>: Sendable {
    private let outcome = Mutex<Result<Value, Failure>?>(nil)
    private let done = Latch()

    /// Starts `make` on a thread named `name`; `afterward` runs on that thread once the result is handed
    /// over, so no waiter waits for it.
    package init(name: String, _ make: @escaping @Sendable () throws(Failure) -> Value,
                 afterward: @escaping @Sendable (Result<Value, Failure>) -> Void = { _ in }) {
        let thread = Thread { [self] in
            let result: Result<Value, Failure>
            do throws(Failure) { result = .success(try make()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.open()
            afterward(result)
        }
        thread.name = name
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Whether the result is in, waiting at most `limit` for it.
    package func hasEnded(within limit: Duration) -> Bool {
        done.wait(timeout: limit)
    }

    /// Waits for the result.
    package func wait() throws(Failure) -> Value {
        _ = done.wait(timeout: nil)
        return try outcome.withLock { $0! }.get()
    }
}
