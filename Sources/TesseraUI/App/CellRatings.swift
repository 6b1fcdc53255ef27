import TesseraCore
import TesseraImaging

/// Reads the ratings of the images on or near the screen (their XMP sidecars, or their own XMP) so that
/// their cells show stars, one batch at a time in the background; the rest are read only when the
/// filter or the rating order asks (`StripSorting`). Main thread only, apart from the reads.
final class CellRatings {
    private let perform: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let wake: @Sendable () -> Void
    private let inbox = Inbox<[ItemFacts.Reading]>()
    private var reading = false

    init(wake: @escaping @Sendable () -> Void, perform: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.wake = wake
        self.perform = perform
    }

    /// Takes in what the last read brought and starts the next, when cells near the screen lack a rating.
    func update(model: CarouselModel, now: Duration) {
        for readings in inbox.drain() {
            reading = false
            model.learn(readings, resort: false, time: now)
        }
        guard !reading, let wanted = model.ratingsToRead else { return }
        reading = true
        let inbox = inbox, wake = wake
        perform {
            inbox.push(wanted.ids.map { ItemFactReader.read($0, path: wanted.table.path(of: $0), kind: .rating) })
            wake()
        }
    }
}
