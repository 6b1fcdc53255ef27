import Foundation
import Logging
import Synchronization
import TesseraCore
import TesseraImaging

/// Reads, in the background, what the strip's order needs of its files (`CarouselModel.itemsToRead`) and
/// hands it to the model, which shows what it knows meanwhile (name order, for files not read yet):
/// - modification times and sizes come in together, when every file is stat'ed, and the strip re-sorts
///   once;
/// - dates taken (EXIF, one file head after another, far slower) come in batches, and the order is
///   refined as they come, at most twice a second.
/// Each re-sort keeps the selected image where it is on screen. While a read runs, `progress` says how far
/// it is, for the overlay. Main thread only, apart from the reads.
final class StripSorting {
    /// How far the read for an order has come.
    struct Progress: Equatable {
        var order: StripOrder
        var done: Int
        var total: Int
        /// The read is of ratings for the filter, not of what the order sorts by.
        var readsRatingsForFilter = false
    }

    /// What `update` did to the strip.
    enum Change: Equatable {
        /// The items were re-sorted with what arrived.
        case refined
        /// Everything the order needs is read and the items are in it.
        case finished(StripOrder)
    }

    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let wake: @Sendable () -> Void
    private let inbox = Inbox<Batch>()
    private let logger = Logger(label: "tessera.sort")
    /// How often the order is refined while dates taken come in.
    private let refineInterval: Duration
    /// Where dates taken are read.
    private let decoding: any DecodingService

    /// A read on its way: what it is for, whether it is for the order the strip opened in, and the flag
    /// that stops it.
    private struct Read {
        var number: Int
        var order: StripOrder
        var opening: Bool
        var progress: Progress
        var stop: StopFlag
    }
    private var read: Read?
    private var reads = 0
    private var hasUpdated = false
    /// The order and item list last found to need nothing read.
    private var settled: (order: StripOrder, revision: Int)?
    private var refinedAt: Duration?

    private struct Batch: Sendable {
        var read: Int
        var readings: [ItemFacts.Reading]
        var done: Int
        var finished: Bool
    }

    private final class StopFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// - Parameters:
    ///   - perform: runs a read off the main thread.
    ///   - decoding: where dates taken are read (libexif is C).
    init(wake: @escaping @Sendable () -> Void, refineInterval: Duration = .milliseconds(500),
         decoding: any DecodingService = .inProcess, perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.wake = wake
        self.perform = perform
        self.refineInterval = refineInterval
        self.decoding = decoding
    }

    /// How far the read for the strip's order has come; nil when nothing is being read.
    var progress: Progress? { read?.progress }

    /// Whether a read is under way.
    var isBusy: Bool { read != nil }

    /// Takes in what the reads brought and starts the read the strip's order needs, if any. Called once a
    /// frame, before the strip's own update.
    func update(model: CarouselModel, now: Duration) -> Change? {
        var change: Change?
        if let current = read, current.order != model.sortOrder {
            // The user moved on to another order: what was read still counts, the rest is not wanted.
            current.stop.value.store(true, ordering: .relaxed)
            read = nil
        }
        // The order the strip opened in shows its start as it comes, if the user has not moved yet; an
        // order chosen with o keeps the selected image instead.
        let opening = read?.opening ?? false
        var readings: [ItemFacts.Reading] = []
        var finished = false
        for batch in inbox.drain() {
            readings += batch.readings
            guard batch.read == read?.number else { continue }
            read?.progress.done = batch.done
            finished = finished || batch.finished
        }
        if finished, let order = read?.order {
            logger.info("sorted \(model.items.count) items by \(order.label)")
            read = nil
            settled = nil
            change = .finished(order)
        }
        // Dates taken and ratings come in batches: the order (or the filter) takes them in as they come.
        let comesInBatches = model.sortOrder == .taken || model.sortOrder == .rating || model.ratingFilter != .all
        let refines = change != nil || (comesInBatches && !readings.isEmpty
            && refinedAt.map { now - $0 >= refineInterval } ?? true)
        if !readings.isEmpty || refines {
            model.learn(readings, resort: refines, showingStart: opening, time: now)
            if refines {
                refinedAt = now
                change = change ?? .refined
            }
        }
        if read == nil { start(for: model, opening: !hasUpdated) }
        hasUpdated = true
        return change
    }

    /// Starts reading what the strip's order needs, when anything is still unread.
    private func start(for model: CarouselModel, opening: Bool) {
        let revision = model.itemsRevision
        guard settled?.order != model.sortOrder || settled?.revision != revision else { return }
        guard let wanted = model.itemsToRead else {
            settled = (model.sortOrder, revision)
            return
        }
        reads += 1
        let number = reads, order = model.sortOrder, stop = StopFlag()
        read = Read(number: number, order: order, opening: opening, progress: Progress(order: order, done: 0, total: wanted.ids.count,
                                     readsRatingsForFilter: wanted.kind == .rating && order != .rating), stop: stop)
        logger.info("sorting \(model.items.count) items by \(order.label): reading \(wanted.ids.count) files in the background")
        let inbox = inbox, wake = wake, decoding = decoding
        perform {
            Self.read(wanted.ids, of: wanted.table, kind: wanted.kind, number: number, stop: stop, decoding: decoding,
                      inbox: inbox, wake: wake)
        }
    }

    /// On the worker: reads each file, handing over dates taken in batches (a batch at least every quarter
    /// of a second) and stat readings all at once at the end, with the count done in between.
    private static func read(_ ids: [UInt32], of table: ItemTable, kind: ItemFacts.Kind, number: Int, stop: StopFlag,
                             decoding: any DecodingService, inbox: Inbox<Batch>, wake: @Sendable () -> Void) {
        let clock = ContinuousClock()
        var lastSent = clock.now
        var pending: [ItemFacts.Reading] = []
        for (done, id) in ids.enumerated() {
            if done % 256 == 0, stop.value.load(ordering: .relaxed) { return }
            pending.append(ItemFactReader.read(id, path: table.path(of: id), kind: kind, decoding: decoding))
            guard clock.now - lastSent >= .milliseconds(250) else { continue }
            lastSent = clock.now
            if kind != .stat {
                inbox.push(Batch(read: number, readings: pending, done: done + 1, finished: false))
                pending.removeAll(keepingCapacity: true)
            } else {
                inbox.push(Batch(read: number, readings: [], done: done + 1, finished: false))
            }
            wake()
        }
        inbox.push(Batch(read: number, readings: pending, done: ids.count, finished: true))
        wake()
    }
}
