#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Logging
import TesseraCore

/// Runs the user's key-handler script as nsxiv runs `exec/key-handler`: after the prefix key (`Ctrl-x`),
/// the next key combo is its argument (`KeyCombo`, nsxiv's spelling) and the images to act on
/// are on its standard input, one path a line. Unlike nsxiv the viewer does not wait: the script runs
/// on a thread of its own, `KeyHandlerRun.isRunning` says whether it still does, and the completion
/// reports how it ended and which of the paths it changed or removed, for the viewer to reload.
///
/// The script's standard output goes to the viewer's standard error, so that `tessera -o` keeps standard
/// output for the marked paths. `TESSERA_USING_NULL` is `1` when the paths are NUL-separated (as
/// nsxiv's `NSXIV_USING_NULL`).
package final class KeyHandlerRunner: Sendable {
    /// `$XDG_CONFIG_HOME/tessera/key-handler`; nil without a config folder.
    package let handlerPath: String?
    /// How long a cancelled script has between SIGTERM and SIGKILL.
    package let killGrace: Duration
    private let startWorker: @Sendable (@escaping @Sendable () -> Void) -> Void
    private static let logger = Logger(label: "tessera.key-handler")

    /// `startWorker` runs the given work off the caller's thread (a new thread by default); the work
    /// blocks until the script ends.
    package init(handlerPath: String?, killGrace: Duration = .seconds(2),
                startWorker: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = KeyHandlerRunner.newThread) {
        self.handlerPath = handlerPath
        self.killGrace = killGrace
        self.startWorker = startWorker
    }

    /// The user's handler, from `XDG_CONFIG_HOME` or `HOME`.
    package convenience init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(handlerPath: Self.handlerPath(environment: environment))
    }

    /// `$XDG_CONFIG_HOME/tessera/key-handler`, or `$HOME/.config/tessera/key-handler` when XDG_CONFIG_HOME
    /// is unset, empty or relative.
    package static func handlerPath(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/tessera/key-handler" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home == "/" ? "" : home) + "/.config/tessera/key-handler"
    }

    package static let newThread: @Sendable (@escaping @Sendable () -> Void) -> Void = { work in
        let thread = Thread { work() }
        thread.name = "tessera.key-handler"
        thread.start()
    }

    /// Starts the handler with `combo` and `paths` and returns at once. `completion` is called once, on
    /// the handler's thread, when it has ended (or could not start): hand the result to the main thread
    /// through its inbox.
    @discardableResult
    package func run(_ combo: KeyCombo, paths: [String], nulSeparated: Bool = false,
                    completion: @escaping @Sendable (Result<KeyHandlerResult, KeyHandlerError>) -> Void) -> KeyHandlerRun {
        let run = KeyHandlerRun()
        startWorker { [self] in
            let result = Result { () throws(KeyHandlerError) in try execute(combo.argument, paths: paths, nulSeparated: nulSeparated, run: run) }
            run.finish()
            completion(result)
        }
        return run
    }

    private func execute(_ argument: String, paths: [String], nulSeparated: Bool, run: KeyHandlerRun) throws(KeyHandlerError) -> KeyHandlerResult {
        guard let handlerPath else { throw KeyHandlerError(handlerPath: "", reason: .noConfigFolder) }
        func fail(_ reason: KeyHandlerError.Reason) -> KeyHandlerError { KeyHandlerError(handlerPath: handlerPath, reason: reason) }
        var st = stat()
        guard POSIXFiles.stat(handlerPath, &st) == 0 else { throw fail(errno == ENOENT || errno == ENOTDIR ? .missing : .notExecutable(POSIXFiles.errorText(errno))) }
        guard st.st_mode & S_IFMT == S_IFREG else { throw fail(.notExecutable("not a regular file")) }
        guard POSIXFiles.access(handlerPath, X_OK) == 0 else { throw fail(.notExecutable("it has no execute permission (chmod +x)")) }

        let before = paths.map(FileVersion.ofFile(atPath:))
        let separator: UInt8 = nulSeparated ? 0 : UInt8(ascii: "\n")
        let input = paths.flatMap { PathText.bytes(of: $0) + [separator] }
        var environment = ProcessInfo.processInfo.environment
        environment["TESSERA_USING_NULL"] = nulSeparated ? "1" : "0"
        let process: HandlerProcess
        do {
            process = try HandlerProcess(executable: handlerPath, arguments: [handlerPath, argument],
                                         environment: environment.map { "\($0.key)=\($0.value)" },
                                         input: input, output: STDERR_FILENO)
        } catch {
            throw fail(.couldNotStart(error.text))
        }

        let clock = ContinuousClock()
        var terminatedAt: ContinuousClock.Instant?
        var killed = false
        let status = process.wait { process in
            guard run.isCancelled else { return }
            if let terminatedAt {
                if !killed, clock.now - terminatedAt >= killGrace {
                    Self.logger.warning("the key-handler (\(argument)) has not ended \(killGrace) after SIGTERM: SIGKILL to its process group")
                    process.signalGroup(SIGKILL)
                    killed = true
                }
            } else {
                process.signalGroup(SIGTERM)
                terminatedAt = clock.now
            }
        }

        var changed: [String] = [], vanished: [String] = []
        for (path, old) in zip(paths, before) {
            let new = FileVersion.ofFile(atPath: path)
            if new == nil, old != nil { vanished.append(path) } else if new != old { changed.append(path) }
        }
        return KeyHandlerResult(combo: argument, termination: KeyHandlerResult.Termination(waitStatus: status),
                                wasCancelled: run.isCancelled, standardErrorTail: process.standardErrorTail,
                                changed: changed, vanished: vanished)
    }
}
