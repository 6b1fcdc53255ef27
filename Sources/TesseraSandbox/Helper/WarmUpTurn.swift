#if canImport(Glibc)
import Glibc
#endif

/// When a forked helper warms up: the first at once; the others only once the viewer first lends them
/// (or its first screen is shown), so on a machine of few cores the decode the user waits for does not
/// share the CPU with warm-ups it does not need. Descriptor 4 of a forked helper (`tessera_fork_helper`):
/// its end of a socket pair whose other end the viewer holds, and writes to, or closes, to wake it.
package struct WarmUpTurn: Sendable {
    /// Where to wait for the viewer's word, -1: nowhere.
    package var waitDescriptor: Int32

    /// A helper that warms up at once.
    package static let now = WarmUpTurn(waitDescriptor: -1)

    /// The descriptor a forked helper finds its turn at.
    package static func forked(waits: Bool) -> WarmUpTurn { WarmUpTurn(waitDescriptor: waits ? 4 : -1) }

    package init(waitDescriptor: Int32) {
        self.waitDescriptor = waitDescriptor
    }

    /// Blocks until the viewer says go: a byte, or the end of the socket when the viewer has gone.
    package func waitForTheWord() {
        guard waitDescriptor >= 0 else { return }
        var byte: UInt8 = 0
        while recv(waitDescriptor, &byte, 1, 0) < 0 && errno == EINTR {}
        close(waitDescriptor)
    }

    /// The viewer's side: wakes the helper waiting on the other end of `descriptor`, and closes it.
    package static func wake(through descriptor: Int32) {
        var byte: UInt8 = 1
        while send(descriptor, &byte, 1, Int32(MSG_NOSIGNAL)) < 0 && errno == EINTR {}
        close(descriptor)
    }
}
