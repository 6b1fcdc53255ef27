import CSDL2
import Logging

/// The failures of SDL calls made on one renderer and its textures. Every failure is counted; the first
/// of each SDL function is logged with SDL's message, the rest only counted, so a draw that fails every
/// frame shows in the log once, not sixty times a second.
///
/// Drawing calls (copies, fills, clips, a texture's alpha or blending) fail only when SDL is broken, and
/// no caller can do anything about one frame's draw: they report here and carry on. Calls whose failure
/// the caller must act on (making, updating or locking a texture, reading pixels) report here too and
/// also throw or return the failure.
final class SDLFailureLog {
    /// Failed calls in all.
    private(set) var count = 0
    /// Failed calls per SDL function.
    private(set) var counts: [String: Int] = [:]
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Records a failure if `status`, what an SDL call returned (negative on failure), says so. Inlined, so
    /// a call that succeeds costs its caller a compare and a branch.
    @inline(__always)
    func check(_ status: Int32, _ function: StaticString) {
        if status < 0 { record(function, message: String(cString: SDL_GetError())) }
    }

    /// Records a failure of `function`, with the message SDL gave.
    @inline(never)
    func record(_ function: StaticString, message: String) {
        count += 1
        let name = function.description
        let failures = counts[name, default: 0] + 1
        counts[name] = failures
        if failures == 1 {
            logger.error("\(name) failed: \(message) (further failures of \(name) are counted, not logged)")
        }
    }

    /// Records `error`, a failure of `function`, and hands it back to be thrown.
    func recorded(_ error: SDLError, of function: StaticString) -> SDLError {
        record(function, message: error.message)
        return error
    }
}
