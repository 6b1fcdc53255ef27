import Foundation
import TesseraCore
import TesseraFiles
import TesseraImaging

/// The key-handler as the viewer runs it (`Ctrl-x`, then a key): one run at a time, as in nsxiv, on its
/// own thread so the viewer stays responsive; when it ends, what it changed and removed comes back
/// through an inbox as item changes, so the strip shows them even when folders are not watched.
/// Main thread only, apart from the run's completion.
final class KeyHandlerSession {
    /// How a run ended, with the items to reload or drop.
    struct Outcome: Sendable {
        var combo: KeyCombo
        var result: Result<KeyHandlerResult, KeyHandlerError>
        var changes: [ItemChange]
    }

    private let runner: KeyHandlerRunner
    private let wake: @Sendable () -> Void
    private let results = Inbox<Outcome>()
    /// The run in progress and the combo it was given.
    private(set) var running: (combo: KeyCombo, run: KeyHandlerRun)?

    init(runner: KeyHandlerRunner, wake: @escaping @Sendable () -> Void) {
        self.runner = runner
        self.wake = wake
    }

    var isRunning: Bool { running != nil }

    /// Starts the handler with `combo` and `paths`; false (and nothing started) while a run is in progress.
    func start(_ combo: KeyCombo, paths: [String], nulSeparated: Bool) -> Bool {
        guard running == nil else { return false }
        let results = results, wake = wake
        let run = runner.run(combo, paths: paths, nulSeparated: nulSeparated) { result in
            // On the handler's thread: the new versions are read here, not on the main thread.
            var changes: [ItemChange] = []
            if case .success(let ended) = result {
                changes += ended.changed.compactMap { path in
                    FileVersion.ofFile(atPath: path).map { .present(path: path, version: $0) }
                }
                changes += ended.vanished.map { .removed(path: $0) }
            }
            results.push(Outcome(combo: combo, result: result, changes: changes))
            wake()
        }
        running = (combo, run)
        return true
    }

    /// Runs that ended since the last call.
    func drain() -> [Outcome] {
        let outcomes = results.drain()
        if !outcomes.isEmpty { running = nil }
        return outcomes
    }

    /// Stops the run in progress (the viewer is quitting): SIGTERM, then SIGKILL after the runner's grace.
    func cancel() { running?.run.cancel() }

    /// How long a stopped handler has between SIGTERM and SIGKILL, in words.
    var killGraceText: String { "\(runner.killGrace.seconds.formatted()) s" }
}
