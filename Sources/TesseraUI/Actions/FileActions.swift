import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraFiles
import TesseraImaging

/// The trash, the turns and the ratings (`Delete`, `<` `>` `|` `_`, `ctrl+1`...), run on a worker because
/// they move and rewrite files (a rating, the image's XMP sidecar), and `Ctrl-z`, which undoes the last of them: one stack of actions, as a user expects of undo.
/// What a job did comes back through an inbox as an `Outcome` for the main thread to apply: items that
/// left or changed (the strip does not wait for the watcher, which may be off), turns kept for the
/// session, and a line for the overlay. Main thread only, apart from the jobs.
///
/// Every job works file by file and asks before each file whether to stop (`stopBetweenFiles`, when the
/// user insists on quitting): a file is never left half moved or half written, and the files not reached
/// stay as they were. How far the running job is can be read at any time (`progressText`), for the window
/// to say what quitting waits for.
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
        case rated([RatingChange])
    }

    /// What a job did.
    struct Outcome: Sendable {
        /// Items that left (trashed) or came back or changed (restored, rewritten), with their new versions.
        var changes: [ItemChange] = []
        /// Turns to apply to the session's orientation of an item (formats that store none, downloads).
        var sessionTurns: [(path: String, turn: OrientationTurn)] = []
        /// Ratings now stored (-1 rejected, 0 none, 1 to 5 stars), for the strip to show.
        var ratings: [(path: String, rating: Int)] = []
        var message: String?
        var isError = false
        /// What undoes this job; nil for an undo, or when nothing was done.
        var undo: UndoEntry?
        /// What an undo could not undo and may try again (a file now in the way can be moved by the
        /// user): it goes back on the undo stack.
        var retry: UndoEntry?
    }

    /// Whether `undo` started, and if not, why.
    enum UndoStart { case started, nothingToUndo, busy }

    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let trashCan: Trash
    private let rotator: LosslessRotator
    private let ratingStore = RatingStore()
    private let wake: @Sendable () -> Void
    private let results = Inbox<Outcome>()
    private let progress = JobProgress()
    private var undoStack: [UndoEntry] = []
    /// Jobs started and not yet drained.
    private(set) var pending = 0
    /// Paths on their way to the trash, by job, oldest first: a second Delete before the first is done
    /// does not ask again (the image is still shown until its job's outcome is applied).
    private var trashing: [Set<PathText.Key>] = []
    /// What each job started and not yet drained does, oldest first, for `progressText`.
    private var plans: [(job: Int, plan: Plan)] = []
    private var jobsStarted = 0
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
        plans.removeFirst(min(outcomes.count, plans.count))
        for outcome in outcomes {
            if let undo = outcome.undo { undoStack.append(undo) }
            if let retry = outcome.retry { undoStack.append(retry) }
        }
        return outcomes
    }

    /// Asks the running job to stop before its next file, and the queued ones not to start: what quitting
    /// now does. The running job's current file is finished first.
    func stopBetweenFiles() { progress.stop() }

    /// What the running job is doing, as the window says it: "moving 212 of 300 to the trash"; nil when
    /// no job runs.
    var progressText: String? {
        guard let (job, plan) = plans.first else { return nil }
        let queued = plans.count - 1
        let more = queued > 0 ? " (then \(queued) more)" : ""
        // A batch of downloads only has no file to count.
        guard plan.total > 0 else { return plan.verb + more }
        let done = progress.done(ofJob: job, total: plan.total)
        return "\(plan.verb) \(min(done + 1, plan.total)) of \(plan.total)\(plan.object)" + more
    }

    /// What a job does to how many files, in the words of `progressText`.
    struct Plan {
        var verb: String
        var total: Int
        var object = ""
    }

    private func run(_ plan: Plan, trashing paths: Set<PathText.Key> = [], _ job: @escaping @Sendable () -> Outcome) {
        pending += 1
        trashing.append(paths)
        jobsStarted += 1
        plans.append((jobsStarted, plan))
        let results = results, wake = wake, progress = progress, number = jobsStarted
        perform {
            progress.begin(job: number)
            let outcome = job()
            progress.finish()
            results.push(outcome)
            wake()
        }
    }

    // MARK: - Trash

    /// Moves `paths` to the trash; a file that cannot go stays, and the first reason is shown.
    func trash(_ paths: [String]) {
        let busy = trashing.reduce(into: Set<PathText.Key>()) { $0.formUnion($1) }
        let paths = paths.filter { !busy.contains(PathText.Key($0)) }
        guard !paths.isEmpty else { return }
        let trashCan = trashCan, progress = progress
        let local = paths.filter { !CarouselItem.isRemote($0) }
        run(Plan(verb: "moving", total: local.count, object: " to the trash"), trashing: Set(paths.map(PathText.Key.init))) {
            var failures = paths.filter(CarouselItem.isRemote).map { Failure(path: $0, reason: "a download, not a file: not moved to the trash") }
            var moved: [TrashEntry] = []
            let results = trashCan.trash(local, stop: progress.shouldStop, progress: progress.setDone)
            for result in results {
                switch result {
                case .success(let entry): moved.append(entry)
                case .failure(let error): failures.append(Failure(path: error.path, reason: error.reason.text))
                }
            }
            var outcome = Outcome(changes: moved.map { .removed(path: $0.path) })
            outcome.undo = moved.isEmpty ? nil : .trashed(moved)
            Self.describe(&outcome, done: moved.isEmpty ? nil : "moved \(Self.count(moved.map(\.path))) to the trash",
                          failures: failures, notReached: local.count - results.count)
            return outcome
        }
    }

    // MARK: - Turns

    /// Turns `paths`: JPEGs for good, through their orientation tag; other formats (and downloads) for the
    /// session.
    func turn(_ paths: [String], by turn: OrientationTurn) {
        let rotator = rotator, progress = progress
        run(Plan(verb: "turning", total: paths.count)) {
            var outcome = Outcome()
            var records: [TurnRecord] = [], failures: [Failure] = [], notSaved: [String] = []
            var tried = 0
            for path in paths {
                if progress.shouldStop() { break }
                defer {
                    tried += 1
                    progress.setDone(tried)
                }
                guard !CarouselItem.isRemote(path) else {
                    outcome.sessionTurns.append((path, turn))
                    records.append(TurnRecord(path: path, turn: turn))
                    notSaved.append("a download")
                    continue
                }
                do throws(RotationError) {
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
                    failures.append(Failure(path: error.path, reason: error.reason.text))
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
            Self.describe(&outcome, done: done, failures: failures, notReached: paths.count - tried)
            return outcome
        }
    }

    // MARK: - Ratings

    /// Gives `paths` `rating` in their XMP sidecars (`NAME.EXT.xmp`, merged into what is there); a
    /// sidecar that cannot be read or written is left as it is, and the first reason is shown.
    func rate(_ paths: [String], _ rating: Rating) {
        let store = ratingStore, progress = progress
        run(Plan(verb: "rating", total: paths.count)) {
            var outcome = Outcome(), failures: [Failure] = []
            let local = paths.filter { !CarouselItem.isRemote($0) }
            let results = store.setRating(rating, of: local, stop: progress.shouldStop, progress: progress.setDone)
            var changes: [RatingChange] = []
            for result in results {
                switch result {
                case .success(let change):
                    changes.append(change)
                    outcome.ratings.append((change.imagePath, change.rating.xmpValue))
                case .failure(let error):
                    failures.append(Failure(path: error.imagePath, reason: error.description))
                }
            }
            for path in paths where CarouselItem.isRemote(path) {
                failures.append(Failure(path: path, reason: "a download has no sidecar to rate it in"))
            }
            let written = changes.filter(\.wrote)
            outcome.undo = written.isEmpty ? nil : .rated(written)
            let done = changes.isEmpty ? nil : "\(Self.count(changes.map(\.imagePath))): \(rating)"
            Self.describe(&outcome, done: done, failures: failures, notReached: local.count - results.count)
            return outcome
        }
    }

    /// Puts the ratings before `changes` back; what fails stays undoable.
    private static func undoRatings(_ changes: [RatingChange], store: RatingStore, progress: JobProgress) -> Outcome {
        var outcome = Outcome(), failures: [Failure] = [], retry: [RatingChange] = []
        let results = store.undo(changes, stop: progress.shouldStop, progress: progress.setDone)
        for (change, result) in zip(changes, results) {
            switch result {
            case .success(let stored): outcome.ratings.append((change.imagePath, stored.rating.xmpValue))
            case .failure(let error):
                failures.append(Failure(path: error.imagePath, reason: error.description))
                if error.reason != .noImage { retry.append(change) }
            }
        }
        retry += changes.dropFirst(results.count)
        outcome.retry = retry.isEmpty ? nil : .rated(retry)
        let undone = results.count - failures.count
        describe(&outcome, done: undone == 0 ? nil : "rating of \(count(changes.map(\.imagePath))) undone", failures: failures,
                 notReached: changes.count - results.count, canRetry: !retry.isEmpty)
        return outcome
    }

    // MARK: - Undo

    /// Undoes the last trash or turn not undone yet, on the worker. Refused while a job runs: its undo is
    /// not on the stack yet, and undoing the one before would surprise.
    func undo() -> UndoStart {
        guard !isBusy else { return .busy }
        guard let entry = undoStack.popLast() else { return .nothingToUndo }
        let trashCan = trashCan, rotator = rotator, progress = progress, store = ratingStore
        let plan = switch entry {
        case .trashed(let entries): Plan(verb: "restoring", total: entries.count, object: " from the trash")
        case .turned(let records): Plan(verb: "turning back", total: records.count)
        case .rated(let changes): Plan(verb: "undoing the rating of", total: changes.count)
        }
        run(plan) {
            switch entry {
            case .trashed(let entries): return Self.restore(entries, from: trashCan, progress: progress)
            case .turned(let records): return Self.undoTurns(records, rotator: rotator, progress: progress)
            case .rated(let changes): return Self.undoRatings(changes, store: store, progress: progress)
            }
        }
        return .started
    }

    /// Puts trashed files back. What could not come back because of something the user can change (a
    /// file now in the way, a folder to make again), and what a stop left untried, stays undoable.
    private static func restore(_ entries: [TrashEntry], from trashCan: Trash, progress: JobProgress) -> Outcome {
        var outcome = Outcome(), restored: [String] = [], failures: [Failure] = [], retry: [TrashEntry] = []
        let results = trashCan.restore(entries, stop: progress.shouldStop, progress: progress.setDone)
        for (entry, result) in zip(entries, results) {
            switch result {
            case .success(let entry):
                restored.append(entry.path)
                if let version = FileVersion.ofFile(atPath: entry.path) { outcome.changes.append(.present(path: entry.path, version: version)) }
            case .failure(let error):
                failures.append(Failure(path: error.path, reason: error.reason.text))
                if error.reason != .notInTrash { retry.append(entry) }
            }
        }
        retry += entries.dropFirst(results.count)
        outcome.retry = retry.isEmpty ? nil : .trashed(retry)
        describe(&outcome, done: restored.isEmpty ? nil : "restored \(count(restored)) from the trash", failures: failures,
                 notReached: entries.count - results.count, canRetry: !retry.isEmpty)
        return outcome
    }

    /// Writes turned files' orientations back, the last turned first; what fails stays undoable.
    private static func undoTurns(_ records: [TurnRecord], rotator: LosslessRotator, progress: JobProgress) -> Outcome {
        var outcome = Outcome(), failures: [Failure] = [], retry: [TurnRecord] = []
        var tried = 0
        for record in records.reversed() {
            if progress.shouldStop() { break }
            defer {
                tried += 1
                progress.setDone(tried)
            }
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
                failures.append(Failure(path: error.path, reason: error.reason.text))
                if error.reason != .missing { retry.append(record) }
            }
        }
        // Kept in the order they were turned, as the stack entry had them.
        retry = (retry.reversed() + records.reversed().dropFirst(tried)).reversed()
        outcome.retry = retry.isEmpty ? nil : .turned(retry)
        let undone = tried - failures.count
        describe(&outcome, done: undone == 0 ? nil : "turned \(count(records.map(\.path))) back", failures: failures,
                 notReached: records.count - tried, canRetry: !retry.isEmpty)
        return outcome
    }

    // MARK: - Messages

    /// A file an action could not act on, and why.
    struct Failure: Sendable {
        var path: String
        var reason: String
    }

    /// "a.jpg" for one image, "3 images" for more.
    private static func count(_ paths: [String]) -> String {
        paths.count == 1 ? shortName(paths[0]) : "\(paths.count) images"
    }

    /// The overlay's line: what was done, or the first failure (and how many more), logged in full. The
    /// line names a file by its name alone, shortened in the middle, so that the reason after it still
    /// fits in the window.
    private static func describe(_ outcome: inout Outcome, done: String?, failures: [Failure], notReached: Int = 0,
                                 canRetry: Bool = false) {
        for failure in failures { logger.warning("\(PathText.displayName(failure.path)): \(failure.reason)") }
        var parts = done.map { [$0] } ?? []
        if let first = failures.first {
            let more = failures.count > 1 ? " (and \(failures.count - 1) more)" : ""
            parts.append("\(shortName(first.path)): \(first.reason)\(more)")
        }
        if notReached > 0 { parts.append("stopped before the other \(notReached)") }
        if canRetry { parts.append("undo again to retry") }
        outcome.message = parts.isEmpty ? nil : parts.joined(separator: "; ")
        outcome.isError = !failures.isEmpty || notReached > 0
    }

    /// The most characters of a file's name the overlay's line gives it.
    static let nameLimit = 40

    /// A path's last name as drawn, its middle replaced by "…" when longer than `nameLimit`.
    static func shortName(_ path: String) -> String {
        let name = PathText.displayName((path as NSString).lastPathComponent)
        guard name.count > nameLimit else { return name }
        let keep = nameLimit - 1
        return String(name.prefix(keep - keep / 2)) + "…" + String(name.suffix(keep / 2))
    }
}

/// How far the running job is and the request to stop, shared between the main thread (which reads and
/// asks) and the actions' worker (which counts, and checks before each file).
final class JobProgress: Sendable {
    private struct State {
        /// The job running, or the last one run (jobs are numbered from 1 as they are started).
        var job = 0
        var done = 0
        var finished = false
        var stopping = false
    }

    private let state = Mutex(State())

    func begin(job: Int) { state.withLock { $0 = State(job: job, stopping: $0.stopping) } }

    func setDone(_ done: Int) { state.withLock { $0.done = done } }

    func finish() { state.withLock { $0.finished = true } }

    /// How many of its `total` files job `job` has done: all once it has finished, none before it began.
    func done(ofJob job: Int, total: Int) -> Int {
        state.withLock { state in
            if state.job > job || (state.job == job && state.finished) { return total }
            return state.job == job ? state.done : 0
        }
    }

    /// Once asked, every later job stops before its first file too: the viewer is quitting.
    func stop() { state.withLock { $0.stopping = true } }

    func shouldStop() -> Bool { state.withLock { $0.stopping } }
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
