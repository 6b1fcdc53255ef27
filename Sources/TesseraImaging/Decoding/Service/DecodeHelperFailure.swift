/// How a decode helper process failed a decode, as its error cell says it: each is that one image's
/// failure, the helper is replaced and the viewer carries on.
package enum DecodeHelperFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// It died of a signal (a fault, an abort) other than the ones below.
    case crashed(signal: Int32)
    /// An allocation failed under its address-space limit (or the kernel's OOM killer took it).
    case memoryLimit
    /// The watchdog killed it: the decode ran past the pool's time limit.
    case timeLimit
    /// The seccomp filter killed it (SIGSYS): its decoder made a system call decoding never needs.
    case forbiddenSystemCall
    /// No helper could be started, or it broke the protocol; the text says how.
    case unavailable(String)
    /// The helper warmed up only some formats (the first, for the first image) and not the file's; it
    /// read nothing, and another helper can.
    case formatNotLoaded

    package var shortText: String {
        switch self {
        case .crashed: "Decoder crashed"
        case .memoryLimit: "Decoder exceeded its memory limit"
        case .timeLimit: "Decoder took too long"
        case .forbiddenSystemCall: "Decoder tried a forbidden system call"
        case .unavailable(let why): "Decoder unavailable: \(why)"
        case .formatNotLoaded: "Decoder not loaded for this format"
        }
    }

    package var description: String {
        if case .crashed(let signal) = self { return "\(shortText) (signal \(signal))" }
        return shortText
    }
}
