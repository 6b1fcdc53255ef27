/// How a handler ended.
package struct KeyHandlerResult: Sendable, Equatable {
    package enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        init(waitStatus status: Int32) {
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import (they are macros).
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }

        package var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        }
    }

    /// The argument it was given.
    package let combo: String
    package let termination: Termination
    /// Whether `KeyHandlerRun.cancel` stopped it.
    package let wasCancelled: Bool
    /// The end of its standard error, trimmed: what to show when it failed.
    package let standardErrorTail: String
    /// Paths whose size or mtime changed: reload them.
    package let changed: [String]
    /// Paths no longer there: drop them.
    package let vanished: [String]

    package var succeeded: Bool { termination == .exited(0) && !wasCancelled }
}
