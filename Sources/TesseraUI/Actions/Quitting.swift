import Logging

/// What a request to quit (`q`, closing the window, SIGTERM or SIGINT, the end of a script) waits for:
/// the file actions started (a Delete, a turn, an undo, or a batch of them) and a running key-handler,
/// as nsxiv waits for its key-handler. The frame loop keeps running meanwhile, and the window says what
/// is being finished; the viewer ends once nothing is left.
///
/// A second request asks once more ("press q again to stop now"); a third abandons: the file actions stop
/// between two files (the current one is finished, so every file is whole and every trash record has
/// its file), and the key-handler's process group gets SIGTERM, then SIGKILL after a grace. The viewer
/// still ends only when those have stopped, which takes at most one file's work and the grace.
/// Main thread only.
final class Quitting {
    enum Stage: Equatable {
        /// No quit asked for.
        case running
        /// Asked once; waiting for the work to end.
        case finishing
        /// Asked twice; the next request abandons.
        case confirming
        /// Asked three times; waiting for the work to stop.
        case abandoning
        /// Nothing left: the viewer may end.
        case done
    }

    private(set) var stage = Stage.running
    private let fileActions: FileActions
    private let keyHandler: KeyHandlerSession
    private let logger = Logger(label: "tessera.quit")

    init(fileActions: FileActions, keyHandler: KeyHandlerSession) {
        self.fileActions = fileActions
        self.keyHandler = keyHandler
    }

    /// Whether quitting was asked for: no new action starts after that.
    var isRequested: Bool { stage != .running }

    /// Whether the viewer may end now.
    var isDone: Bool { stage == .done }

    /// Whether quitting waits for work: the frame loop keeps drawing, to show how far it is.
    var isWaiting: Bool { isRequested && !isDone }

    private var hasWork: Bool { fileActions.isBusy || keyHandler.isRunning }

    /// One request to quit.
    func request() {
        switch stage {
        case .running:
            stage = hasWork ? .finishing : .done
        case .finishing:
            stage = .confirming
        case .confirming:
            stage = .abandoning
            abandon()
        case .abandoning, .done:
            break
        }
    }

    /// Ends the wait once the work is over; call each frame after the work's results were taken.
    func update() {
        if isWaiting, !hasWork { stage = .done }
    }

    private func abandon() {
        if fileActions.isBusy {
            logger.warning("quitting now: the file actions stop after the current file (\(fileActions.progressText ?? ""))")
            fileActions.stopBetweenFiles()
        }
        if let running = keyHandler.running {
            logger.warning("quitting now: stopping the key-handler (\(running.combo.argument)): SIGTERM to its process group, SIGKILL if it has not ended \(keyHandler.killGraceText) later")
            keyHandler.cancel()
        }
    }

    /// What the window says while quitting waits; nil otherwise.
    var statusText: String? {
        guard isWaiting else { return nil }
        var waits: [String] = []
        if let progress = fileActions.progressText { waits.append(progress) }
        if let running = keyHandler.running { waits.append("waiting for the key-handler (\(running.combo.argument))") }
        let what = waits.joined(separator: ", ")
        switch stage {
        case .finishing: return "finishing: \(what)…"
        case .confirming: return "finishing: \(what)… press q again to stop now"
        default: return "stopping: \(what)…"
        }
    }
}
