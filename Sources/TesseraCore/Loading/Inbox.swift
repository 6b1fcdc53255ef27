import Synchronization

/// A lock-protected queue that workers push finished results into and the main loop drains once per
/// frame. Delivery goes through this instead of `DispatchQueue.main`/MainActor because the blocking SDL
/// loop owns the main thread and would starve them (see ANCHORS: SDL2 rules).
package final class Inbox<Element: Sendable>: Sendable {
    private let queue = Mutex<[Element]>([])

    package init() {}

    package func push(_ element: Element) {
        queue.withLock { $0.append(element) }
    }

    /// Everything that arrived since the last drain, oldest first.
    package func drain() -> [Element] {
        queue.withLock { elements in
            defer { elements.removeAll(keepingCapacity: true) }
            return elements
        }
    }

    package var isEmpty: Bool { queue.withLock { $0.isEmpty } }
}
