import CSDL2

/// An SDL call failed; carries the call and SDL's own message.
public struct SDLError: Error, Equatable, CustomStringConvertible {
    /// The SDL function, with what it was asked for when that helps (a size, a path).
    public let call: String
    public let message: String

    /// For `call`, with the message SDL left for the calling thread.
    init(_ call: String) {
        self.init(call, message: String(cString: SDL_GetError()))
    }

    init(_ call: String, message: String) {
        self.call = call
        self.message = message
    }

    public var description: String { "\(call) failed: \(message)" }
}
