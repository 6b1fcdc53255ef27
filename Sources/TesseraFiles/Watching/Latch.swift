import Dispatch
import Synchronization

/// Opens once; every wait, before or after, returns once it is open. A DispatchGroup because it lets
/// any number of threads wait, which a semaphore does not.
package final class Latch: Sendable {
    private let group = DispatchGroup()
    private let isOpen = Atomic<Bool>(false)

    package init() { group.enter() }

    package func open() {
        guard !isOpen.exchange(true, ordering: .acquiringAndReleasing) else { return }
        group.leave()
    }

    /// False when `timeout` passed before the latch opened.
    package func wait(timeout: Duration?) -> Bool {
        guard let timeout else {
            group.wait()
            return true
        }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        return group.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success
    }
}
