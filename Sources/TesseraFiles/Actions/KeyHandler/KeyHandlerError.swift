/// Why a handler did not run.
package struct KeyHandlerError: Error, Sendable, Equatable, CustomStringConvertible {
    package var handlerPath: String
    package var reason: Reason

    package init(handlerPath: String, reason: Reason) {
        self.handlerPath = handlerPath
        self.reason = reason
    }

    package enum Reason: Sendable, Equatable {
        /// Neither XDG_CONFIG_HOME nor HOME is set.
        case noConfigFolder
        /// No file at the handler's path.
        case missing
        /// The file is there but cannot be run (why).
        case notExecutable(String)
        /// Starting it failed (errno's text).
        case couldNotStart(String)
    }

    package var description: String {
        switch reason {
        case .noConfigFolder: "no key handler: neither XDG_CONFIG_HOME nor HOME is set"
        case .missing: "no key handler at \(handlerPath)"
        case .notExecutable(let why): "the key handler \(handlerPath) cannot be run: \(why)"
        case .couldNotStart(let why): "the key handler \(handlerPath) could not start: \(why)"
        }
    }
}
