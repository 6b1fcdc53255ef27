import Foundation
import Logging
import TesseraCore
import TesseraImaging

/// The trash and the turns (`Delete`, `<` `>` `|` `_`), run on a worker because they move and rewrite
/// files, and `Ctrl-z`, which undoes the last of them: one stack of actions, as a user expects of undo.
/// What a job did comes back through an inbox as an `Outcome` for the main thread to apply: items that
/// left or changed (the strip does not wait for the watcher, which may be off), turns kept for the
/// session, and a line for the overlay. Main thread only, apart from the jobs.
final class FileActions {
    /// A turn of one image: written into the file (with the orientation it had, to undo it) or kept for
    /// the session.
    struct TurnRecord: Sendable {
        var path: String
        var turn: OrientationTurn
        /// The file's orientation before the turn was written; nil when the turn is the session's only.
        var savedPrevious: ImageOrientation?
    }

    /// An action that can be undone.
    enum UndoEntry: Sendable {
        case trashed([TrashEntry])
        case turned([TurnRecord])
    }

    /// What a job did.
    struct Outcome: Sendable {
        /// Items that left (trashed) or came back or changed (restored, rewritten), with their new versions.
        var changes: [ItemChange] = []
        /// Turns to apply to the session's orientation of an item (formats that store none, downloads).
        var sessionTurns: [(path: String, turn: OrientationTurn)] = []
        var message: String?
        var isError = false
        /// What undoes this job; nil for an undo, or when nothing was done.
        var undo: UndoEntry?
    }

    /// Whether `undo` started, and if not, why.
    enum UndoStart { case started, nothingToUndo, busy }

    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let trashCan: Trash
    private let rotator: LosslessRotator
    private let wake: @Sendable () -> Void
    private let results = Inbox<Outcome>()
    private var undoStack: [UndoEntry] = []
    /// Jobs started and not yet drained.
    private(set) var pending = 0
    /// Paths on their way to the trash, by job, oldest first: a second Delete before the first is done
    /// does not ask again (the image is still shown until its job's outcome is applied).
    private var trashing: [Set<String>] = []
    private static let logger = Logger(label: "tessera.actions")

    /// - Parameters:
    ///   - perform: runs a job off the main thread (a serial queue, so jobs keep their order).
    ///   - wake: wakes the main loop when a job has finished.
    init(trash: Trash, rotator: LosslessRotator, wake: @escaping @Sendable () -> Void,
         perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        trashCan = trash
        self.rotator = rotator
        self.wake = wake
        self.perform = perform
    }

    var isBusy: Bool { pending > 0 }

    /// What finished since the last call; the undo stack takes what each job did.
    func drain() -> [Outcome] {
        let outcomes = results.drain()
        pending -= outcomes.count
        trashing.removeFirst(min(outcomes.count, trashing.count))
        for outcome in outcomes { if let undo = outcome.undo { undoStack.append(undo) } }
        return outcomes
    }

    private func run(trashing paths: Set<String> = [], _ job: @escaping @Sendable () -> Outcome) {
        pending += 1
        trashing.append(paths)
        let results = results, wake = wake
        perform {
            results.push(job())
            wake()
        }
    }

    // MARK: - Trash

    /// Moves `paths` to the trash; a file that cannot go stays, and the first reason is shown.
    func trash(_ paths: [String]) {
        let busy = trashing.reduce(into: Set<String>()) { $0.formUnion($1) }
        let paths = paths.filter { !busy.contains($0) }
        guard !paths.isEmpty else { return }
        let trashCan = trashCan
        run(trashing: Set(paths)) {
            let local = paths.filter { !CarouselItem.isRemote($0) }
            var failures = paths.filter(CarouselItem.isRemote).map { "\($0): a download, not a file: not moved to the trash" }
            var moved: [TrashEntry] = []
            for result in trashCan.trash(local) {
                switch result {
                case .success(let entry): moved.append(entry)
                case .failure(let error): failures.append(error.description)
                }
            }
            var outcome = Outcome(changes: moved.map { .removed(path: $0.path) })
            outcome.undo = moved.isEmpty ? nil : .trashed(moved)
            Self.describe(&outcome, done: moved.isEmpty ? nil : "moved \(Self.count(moved.map(\.path))) to the trash",
                          failures: failures)
            return outcome
        }
    }

    // MARK: - Turns

    /// Turns `paths`: JPEGs for good, through their orientation tag; other formats (and downloads) for the
    /// session.
    func turn(_ paths: [String], by turn: OrientationTurn) {
        let rotator = rotator
        run {
            var outcome = Outcome()
            var records: [TurnRecord] = [], failures: [String] = [], notSaved: [String] = []
            for path in paths {
                guard !CarouselItem.isRemote(path) else {
                    outcome.sessionTurns.append((path, turn))
                    records.append(TurnRecord(path: path, turn: turn))
                    notSaved.append("a download")
                    continue
                }
                do {
                    switch try rotator.turn(path, by: turn) {
                    case .written(let previous, _):
                        records.append(TurnRecord(path: path, turn: turn, savedPrevious: previous))
                        if let version = FileVersion.ofFile(atPath: path) { outcome.changes.append(.present(path: path, version: version)) }
                    case .notSaved(let format):
                        outcome.sessionTurns.append((path, turn))
                        records.append(TurnRecord(path: path, turn: turn))
                        notSaved.append(format.displayName)
                    }
                } catch {
                    failures.append(String(describing: error))
                }
            }
            outcome.undo = records.isEmpty ? nil : .turned(records)
            var done: String?
            if !records.isEmpty {
                done = "\(Self.count(records.map(\.path))) \(turn.pastTense)"
                if !notSaved.isEmpty {
                    let kinds = Array(Set(notSaved)).sorted().joined(separator: ", ")
                    done! += notSaved.count == records.count ? ", not saved (\(kinds))" : " (\(notSaved.count) not saved: \(kinds))"
                }
            }
            Self.describe(&outcome, done: done, failures: failures)
            return outcome
        }
    }

    // MARK: - Undo

    /// Undoes the last trash or turn not undone yet, on the worker. Refused while a job runs: its undo is
    /// not on the stack yet, and undoing the one before would surprise.
    func undo() -> UndoStart {
        guard !isBusy else { return .busy }
        guard let entry = undoStack.popLast() else { return .nothingToUndo }
        let trashCan = trashCan, rotator = rotator
        run {
            switch entry {
            case .trashed(let entries): return Self.restore(entries, from: trashCan)
            case .turned(let records): return Self.undoTurns(records, rotator: rotator)
            }
        }
        return .started
    }

    private static func restore(_ entries: [TrashEntry], from trashCan: Trash) -> Outcome {
        var outcome = Outcome(), restored: [String] = [], failures: [String] = []
        for result in trashCan.restore(entries) {
            switch result {
            case .success(let entry):
                restored.append(entry.path)
                if let version = FileVersion.ofFile(atPath: entry.path) { outcome.changes.append(.present(path: entry.path, version: version)) }
            case .failure(let error):
                failures.append(error.description)
            }
        }
        describe(&outcome, done: restored.isEmpty ? nil : "restored \(count(restored)) from the trash", failures: failures)
        return outcome
    }

    private static func undoTurns(_ records: [TurnRecord], rotator: LosslessRotator) -> Outcome {
        var outcome = Outcome(), failures: [String] = []
        for record in records.reversed() {
            guard let previous = record.savedPrevious else {
                outcome.sessionTurns.append((record.path, record.turn.inverse))
                continue
            }
            do {
                _ = try rotator.setOrientation(previous, ofFileAt: record.path)
                if let version = FileVersion.ofFile(atPath: record.path) {
                    outcome.changes.append(.present(path: record.path, version: version))
                }
            } catch {
                failures.append(error.description)
            }
        }
        let undone = records.count - failures.count
        describe(&outcome, done: undone == 0 ? nil : "turned \(count(records.map(\.path))) back", failures: failures)
        return outcome
    }

    // MARK: - Messages

    /// "a.jpg" for one image, "3 images" for more.
    private static func count(_ paths: [String]) -> String {
        paths.count == 1 ? (paths[0] as NSString).lastPathComponent : "\(paths.count) images"
    }

    /// The overlay's line: what was done, or the first failure (and how many more), logged in full.
    private static func describe(_ outcome: inout Outcome, done: String?, failures: [String]) {
        for failure in failures { logger.warning("\(failure)") }
        guard let first = failures.first else {
            outcome.message = done
            return
        }
        let more = failures.count > 1 ? " (and \(failures.count - 1) more)" : ""
        outcome.message = (done.map { $0 + "; " } ?? "") + first + more
        outcome.isError = true
    }
}

extension OrientationTurn {
    /// What the overlay says was done.
    var pastTense: String {
        switch self {
        case .rotateLeft: "rotated 90° counter-clockwise"
        case .rotateRight: "rotated 90° clockwise"
        case .flipHorizontal: "flipped left to right"
        case .flipVertical: "flipped top to bottom"
        }
    }
}
