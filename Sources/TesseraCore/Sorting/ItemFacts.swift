/// What the orders other than name sort by, per item id: the modification time and size a `stat` gives,
/// and the date a photo was taken from its EXIF. None of it is read when the strip opens: a worker reads
/// it when an order asks (`StripOrder.needs`), and what is not read yet sorts last. Each column is made
/// the first time something is known for it, eight bytes per item.
package struct ItemFacts: Sendable {
    /// What a worker reads from a file for an order.
    package enum Kind: Sendable, Equatable {
        /// Its `stat`: modification time and size.
        case stat
        /// Its `stat` and its EXIF date taken.
        case taken
        /// Its rating (from its XMP sidecar or its own XMP).
        case rating
    }

    /// What a worker read of one item.
    package struct Reading: Sendable, Equatable {
        package var id: UInt32
        /// nil when the file could not be stat'ed (gone, unreadable).
        package var version: FileVersion?
        /// Nanoseconds since the epoch of the EXIF date taken; nil when the file has none or it was not
        /// asked for (`takenRead` says which).
        package var taken: Int64?
        package var takenRead: Bool
        /// The rating, as XMP stores it: -1 rejected, 0 none, 1 to 5 stars; nil when not asked for.
        package var rating: Int?
        /// Whether `version` was read: a reading of the rating alone leaves what is known of the file's
        /// `stat` as it was (an order by time still reads it in its turn).
        package var versionRead = true

        package init(id: UInt32, version: FileVersion?, taken: Int64? = nil, takenRead: Bool = false, rating: Int? = nil) {
            self.id = id
            self.version = version
            self.taken = taken
            self.takenRead = takenRead
            self.rating = rating
        }
    }

    /// Not read yet.
    private static let unread = Int64.min
    /// Read, and there is nothing: a file that could not be stat'ed, a photo without a date.
    private static let absent = Int64.min + 1

    private var modifiedColumn: [Int64] = []
    private var sizeColumn: [Int64] = []
    private var takenColumn: [Int64] = []
    private var ratingColumn: [Int64] = []
    /// Items whose rating Tessera wrote this run: a read that started before the write must not undo it.
    private var ratingsWritten = Set<UInt32>()

    package init() {}

    package func modified(_ id: UInt32) -> Int64? { Self.value(modifiedColumn, id) }
    package func size(_ id: UInt32) -> Int64? { Self.value(sizeColumn, id) }
    /// The EXIF date taken, in nanoseconds since the epoch (read as local time, as cameras write it).
    package func taken(_ id: UInt32) -> Int64? { Self.value(takenColumn, id) }

    /// The rating: -1 rejected, 0 none, 1 to 5 stars; nil while not read.
    package func rating(_ id: UInt32) -> Int? { Self.value(ratingColumn, id).map(Int.init) }

    /// Whether what `kind` reads of item `id` is still to be read.
    package func needsReading(_ kind: Kind, _ id: UInt32) -> Bool {
        switch kind {
        case .stat: Self.raw(modifiedColumn, id) == Self.unread
        case .taken: Self.raw(modifiedColumn, id) == Self.unread || Self.raw(takenColumn, id) == Self.unread
        case .rating: Self.raw(ratingColumn, id) == Self.unread
        }
    }

    /// Item `id`'s rating is `rating` now (Tessera wrote it).
    package mutating func setRating(_ rating: Int, of id: UInt32) {
        Self.set(&ratingColumn, id, Int64(rating))
        ratingsWritten.insert(id)
    }

    /// Item `id`'s file is `version` now (the watcher or a download said so; nil: gone or unreadable).
    package mutating func setVersion(_ version: FileVersion?, of id: UInt32) {
        Self.set(&modifiedColumn, id, version.map(\.modifiedNanoseconds) ?? Self.absent)
        Self.set(&sizeColumn, id, version.map(\.size) ?? Self.absent)
    }

    /// Item `id`'s file changed: its date taken is to be read again.
    package mutating func forgetTaken(of id: UInt32) {
        if Int(id) < takenColumn.count { takenColumn[Int(id)] = Self.unread }
    }

    /// Item `id`'s sidecar may have changed: its rating is to be read again.
    package mutating func forgetRating(of id: UInt32) {
        if Int(id) < ratingColumn.count { ratingColumn[Int(id)] = Self.unread }
    }

    package mutating func learn(_ reading: Reading) {
        if reading.versionRead { setVersion(reading.version, of: reading.id) }
        if reading.takenRead { Self.set(&takenColumn, reading.id, reading.taken ?? Self.absent) }
        if let rating = reading.rating, !ratingsWritten.contains(reading.id) { Self.set(&ratingColumn, reading.id, Int64(rating)) }
    }

    private static func raw(_ column: [Int64], _ id: UInt32) -> Int64 {
        Int(id) < column.count ? column[Int(id)] : unread
    }

    private static func value(_ column: [Int64], _ id: UInt32) -> Int64? {
        let value = raw(column, id)
        return value == unread || value == absent ? nil : value
    }

    private static func set(_ column: inout [Int64], _ id: UInt32, _ value: Int64) {
        if Int(id) >= column.count {
            // Grown in steps, so items arriving one by one do not copy the column each time.
            column.reserveCapacity(max(Int(id) + 1, column.count * 3 / 2))
            column.append(contentsOf: repeatElement(unread, count: Int(id) + 1 - column.count))
        }
        column[Int(id)] = value
    }
}
