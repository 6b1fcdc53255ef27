import CSDL2

/// An SDL call failed; carries the call and SDL's own message.
package struct SDLError: Error, Equatable, CustomStringConvertible {
    /// The SDL function, with what it was asked for when that helps (a size, a path).
    package let call: String
    package let message: String

    /// For `call`, with the message SDL left for the calling thread.
    init(_ call: String) {
        self.init(call, message: String(cString: SDL_GetError()))
    }

    init(_ call: String, message: String) {
        self.call = call
        self.message = message
    }

    package var description: String { "\(call) failed: \(message)" }
}
