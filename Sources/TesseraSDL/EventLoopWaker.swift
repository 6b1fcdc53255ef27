import CSDL2

/// Wakes a main loop blocked in `SDL_WaitEventTimeout` from any thread.
package struct EventLoopWaker: Sendable {
    let eventType: UInt32

    /// Pushes the wake event. When SDL refuses it (its queue is full) the wake is not needed: the loop
    /// has events to take already.
    package func wake() {
        var event = SDL_Event()
        event.type = eventType
        _ = SDL_PushEvent(&event)
    }
}
