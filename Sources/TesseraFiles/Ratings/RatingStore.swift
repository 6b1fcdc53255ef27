#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraCore

/// Star ratings and rejects kept in XMP sidecars, the files darktable, digiKam and Lightroom read them
/// from; the image itself is never written.
///
/// - Reading takes the first `xmp:Rating` found in `NAME.EXT.xmp`, Adobe's `NAME.xmp`, then the XMP
///   inside the image (`EmbeddedXMP`), as those programs let a sidecar's value win over the file's. A
///   missing sidecar costs one failed `open`, or nothing when the folder's `SidecarNames` are given.
/// - Writing merges `xmp:Rating` into `NAME.EXT.xmp` through Exempi, so everything else the sidecar
///   holds (keywords, darktable's history, digiKam's tags, namespaces nobody here knows) stays, and
///   replaces the file through `FileReplacement`: a reader sees the old sidecar or the new one, never
///   half of one, and a sidecar another program saved meanwhile is read again and merged into, not
///   overwritten. A sidecar that is not XMP is left as it is, with the reason.
/// - Undo (`RatingChange`) merges the previous value back rather than restoring old bytes, so what
///   another program wrote since survives it.
///
/// Blocking file I/O: call it from a worker. Safe from any thread; Exempi itself is used by one at a time
/// (`XMPToolkit`).
package struct RatingStore: Sendable {
    /// How many times a write reads and merges again when another program saved the sidecar meanwhile.
    static let attempts = 3

    package init() {}

    // MARK: - Reading

    /// The rating of the image at `imagePath`. `sidecars`, the folder's (`SidecarNames`), spares the
    /// opening of sidecars that are not there; `embedded: false` leaves the image file unread (for a whole
    /// folder's ratings in the background, where opening every photo costs more than the sidecars).
    package func rating(of imagePath: String, sidecars: SidecarNames? = nil, embedded: Bool = true) -> StoredRating {
        let sidecar = XMPSidecar.path(for: imagePath)
        if sidecars?.containsSidecar(ofImageAt: imagePath) ?? true {
            switch sidecarRating(sidecar) {
            case .rating(let rating): return StoredRating(rating, from: .sidecar)
            case .notXMP: return StoredRating(.unrated, from: .unreadableSidecar)
            case .noRating: break
            }
        }
        if let adobe = XMPSidecar.adobePath(for: imagePath), sidecars?.containsAdobeSidecar(ofImageAt: imagePath) ?? true,
           case .rating(let rating) = sidecarRating(adobe) {
            return StoredRating(rating, from: .adobeSidecar)
        }
        if embedded, let packet = EmbeddedXMP.packet(inImageAt: imagePath), let rating = Self.rating(inPacket: packet) {
            return StoredRating(rating, from: .embedded)
        }
        return StoredRating(.unrated, from: .nowhere)
    }

    /// The ratings of the images `names` in `folder`, in order, the folder listed once for its sidecars.
    package func ratings(ofNames names: [String], in folder: String, embedded: Bool = true) -> [StoredRating] {
        let sidecars = SidecarNames(listing: folder)
        return names.map { rating(of: FolderLister.path(of: $0, in: folder), sidecars: sidecars, embedded: embedded) }
    }

    private enum SidecarReading {
        case rating(Rating)
        /// No sidecar, one that cannot be read, or one without a rating (or with one that is no number).
        case noRating
        case notXMP
    }

    private func sidecarRating(_ path: String) -> SidecarReading {
        guard let contents = try? XMPSidecar.read(path) else { return .noRating }
        let text: String?? = XMPToolkit.withLock {
            XMPSidecar.packet(parsing: contents.bytes).map { $0.property(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty) }
        } ?? nil
        guard let text else { return .notXMP }
        return text.flatMap(Rating.init(xmpText:)).map(SidecarReading.rating) ?? .noRating
    }

    /// The rating an embedded packet gives; nil when it cannot be parsed or holds none.
    private static func rating(inPacket bytes: Data) -> Rating? {
        let text = XMPToolkit.withLock {
            bytes.withUnsafeBytes { XMPPacket(parsing: $0) }?.property(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
        }
        return (text ?? nil).flatMap(Rating.init(xmpText:))
    }

    // MARK: - Writing

    /// Writes `rating` into the sidecar `NAME.EXT.xmp` of the image at `imagePath`, creating it when there
    /// is none; returns the change, for undo. Throws why the rating stayed as it was.
    @discardableResult
    package func setRating(_ rating: Rating, of imagePath: String) throws(RatingError) -> RatingChange {
        try setRating(rating, of: imagePath, syncingFolder: true)
    }

    private func setRating(_ rating: Rating, of imagePath: String, syncingFolder: Bool) throws(RatingError) -> RatingChange {
        let sidecar = XMPSidecar.path(for: imagePath)
        do throws(RatingError.Reason) {
            for _ in 0..<Self.attempts {
                let written: RatingChange?
                if let contents = try Self.readForWriting(sidecar) {
                    written = try merge(rating, of: imagePath, into: contents, at: sidecar, syncingFolder: syncingFolder)
                } else {
                    written = try create(rating, of: imagePath, at: sidecar, syncingFolder: syncingFolder)
                }
                if let written { return written }
            }
            throw .keepsChanging
        } catch {
            throw RatingError(imagePath: imagePath, sidecarPath: sidecar, reason: error)
        }
    }

    /// `setRating` for each of `imagePaths`, in order: the change or why the rating stayed. `stop` is asked
    /// before each image (the rest are not tried and have no result); `progress` hears how many are done.
    /// Each sidecar is flushed to disk as it is written, each folder's entries once at the end.
    package func setRating(_ rating: Rating, of imagePaths: [String], stop: () -> Bool = { false },
                          progress: (Int) -> Void = { _ in }) -> [Result<RatingChange, RatingError>] {
        Self.batch(imagePaths, imagePath: { $0 }, stop: stop, progress: progress) { path throws(RatingError) in
            try setRating(rating, of: path, syncingFolder: false)
        }
    }

    /// `one` for each of `items` in order, asking `stop` before each and telling `progress` after; the
    /// folders of the images touched are flushed once each before it returns.
    private static func batch<Item, Value>(_ items: [Item], imagePath: (Item) -> String, stop: () -> Bool,
                                           progress: (Int) -> Void,
                                           _ one: (Item) throws(RatingError) -> Value) -> [Result<Value, RatingError>] {
        var results: [Result<Value, RatingError>] = []
        results.reserveCapacity(items.count)
        var folders = Set<PathText.Key>()
        for item in items {
            if stop() { break }
            folders.insert(PathText.Key(FileReplacement.split(imagePath(item)).folder))
            results.append(Result { () throws(RatingError) in try one(item) })
            progress(results.count)
        }
        for folder in folders { FileReplacement.syncFolder(folder.text) }
        return results
    }

    /// Merges `rating` into the sidecar's `contents`; nil when another program saved it meanwhile.
    private func merge(_ rating: Rating, of imagePath: String, into contents: XMPSidecar.Contents,
                       at sidecar: String, syncingFolder: Bool) throws(RatingError.Reason) -> RatingChange? {
        let edited = XMPToolkit.withLock { () -> Edited in
            guard let packet = XMPSidecar.packet(parsing: contents.bytes) else { return .notXMP }
            let previous = packet.property(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
            if previous.flatMap(Rating.init(xmpText:)) == rating { return .unchanged(previous: previous) }
            packet.setProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty, to: String(rating.xmpValue))
            guard let bytes = packet.serialized() else { return .toolkitFailed }
            return .changed(previous: previous, bytes: bytes)
        } ?? .toolkitFailed
        switch edited {
        case .notXMP: throw .notXMP
        case .toolkitFailed: throw .toolkitFailed
        case .unchanged(let previous):
            return RatingChange(imagePath: imagePath, sidecarPath: sidecar, rating: rating, wrote: false,
                                previousText: previous, createdRemainder: nil)
        case .changed(let previous, let bytes):
            guard try Self.replace(sidecar, with: bytes, expected: contents.version, syncingFolder: syncingFolder) else { return nil }
            return RatingChange(imagePath: imagePath, sidecarPath: sidecar, rating: rating, wrote: true,
                                previousText: previous, createdRemainder: nil)
        }
    }

    private enum Edited {
        case notXMP
        case toolkitFailed
        case unchanged(previous: String?)
        case changed(previous: String?, bytes: [UInt8])
    }

    /// Creates the sidecar with `rating`; nil when another program created it meanwhile.
    ///
    /// With only Adobe's `NAME.xmp` beside the image, the new sidecar starts as a copy of it and
    /// `NAME.xmp` is not touched. darktable and digiKam read `NAME.EXT.xmp` alone once it exists, so a
    /// sidecar of the rating only would hide the keywords and titles `NAME.xmp` gave them; and writing into
    /// `NAME.xmp` instead would change the rating of every file of that name (`IMG_1.CR2` and `IMG_1.JPG`
    /// share it) and put Tessera's edits into Lightroom's develop settings. A `NAME.xmp` that is not XMP
    /// is left out of it.
    private func create(_ rating: Rating, of imagePath: String, at sidecar: String,
                        syncingFolder: Bool) throws(RatingError.Reason) -> RatingChange? {
        let seed = XMPSidecar.adobePath(for: imagePath).flatMap { try? XMPSidecar.read($0) }
        if rating == .unrated, self.rating(of: imagePath).rating == .unrated {
            // Nothing says otherwise: a sidecar saying "no rating" would be one more file and no news.
            return RatingChange(imagePath: imagePath, sidecarPath: sidecar, rating: rating, wrote: false,
                                previousText: nil, createdRemainder: nil)
        }
        guard let mode = Self.sidecarMode(forImageAt: imagePath) else { throw .noImage }
        let made = XMPToolkit.withLock { () -> (bytes: [UInt8], remainder: [UInt8])? in
            guard let packet = seed.flatMap({ XMPSidecar.packet(parsing: $0.bytes) }) ?? XMPPacket(),
                  let remainder = packet.copy() else { return nil }
            remainder.deleteProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
            packet.setProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty, to: String(rating.xmpValue))
            guard let bytes = packet.serialized(), let compact = remainder.serialized(compact: true) else { return nil }
            return (bytes, compact)
        } ?? nil
        guard let made else { throw .toolkitFailed }
        do throws(FileReplacement.Failure) {
            try made.bytes.withUnsafeBytes { bytes in
                Result { () throws(FileReplacement.Failure) in
                    try FileReplacement.create(sidecar, with: bytes, mode: mode, syncingFolder: syncingFolder)
                }
            }.get()
        } catch {
            if error == .alreadyExists { return nil }
            throw .unwritable(error.description)
        }
        return RatingChange(imagePath: imagePath, sidecarPath: sidecar, rating: rating, wrote: true,
                            previousText: nil, createdRemainder: made.remainder)
    }

    /// A new sidecar is readable by whoever may read its image, and always the user's to write; nil when
    /// there is no image.
    static func sidecarMode(forImageAt imagePath: String) -> mode_t? {
        var st = stat()
        guard POSIXFiles.stat(imagePath, &st) == 0 else { return nil }
        return st.st_mode & 0o666 | 0o600
    }

    // MARK: - Undoing

    /// Undoes `change`: the sidecar's previous `xmp:Rating` merged back into it (or taken out of it, when
    /// it had none), or the sidecar removed when `change` created it and nothing but the rating was added
    /// to it since. A sidecar removed meanwhile stays removed. Returns the image's rating now; throws why
    /// the sidecar stayed as it was.
    @discardableResult
    package func undo(_ change: RatingChange) throws(RatingError) -> StoredRating {
        try undo(change, syncingFolder: true)
    }

    private func undo(_ change: RatingChange, syncingFolder: Bool) throws(RatingError) -> StoredRating {
        guard change.wrote else { return rating(of: change.imagePath) }
        let sidecar = change.sidecarPath
        do throws(RatingError.Reason) {
            for _ in 0..<Self.attempts {
                guard let contents = try Self.readForWriting(sidecar) else { return rating(of: change.imagePath) }
                let edited = XMPToolkit.withLock { () -> Undone in
                    guard let packet = XMPSidecar.packet(parsing: contents.bytes) else { return .notXMP }
                    if let created = change.createdRemainder, let rest = packet.copy() {
                        rest.deleteProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
                        if rest.serialized(compact: true) == created { return .remove }
                    }
                    let current = packet.property(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
                    if current == change.previousText { return .unchanged }
                    if let previous = change.previousText {
                        packet.setProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty, to: previous)
                    } else {
                        packet.deleteProperty(XMPSidecar.basicNamespace, XMPSidecar.ratingProperty)
                    }
                    guard let bytes = packet.serialized() else { return .toolkitFailed }
                    return .changed(bytes)
                } ?? .toolkitFailed
                switch edited {
                case .notXMP: throw .notXMP
                case .toolkitFailed: throw .toolkitFailed
                case .unchanged: return rating(of: change.imagePath)
                case .remove:
                    // Moved aside first, then checked: a sidecar another program saved since is not the one
                    // read, and goes back to be merged into instead. A save that comes after the move makes
                    // a new sidecar, which stays.
                    let (folder, name) = FileReplacement.split(sidecar)
                    let aside = folder + "/.\(name).undone-\(getpid())"
                    guard POSIXFiles.rename(sidecar, aside) == 0 else {
                        // Another program removed it already: what undo was to do is done.
                        if errno == ENOENT { return rating(of: change.imagePath) }
                        throw .unwritable("cannot remove it: \(POSIXFiles.errorText(errno))")
                    }
                    guard FileVersion.ofFile(atPath: aside) == contents.version else {
                        if FileReplacement.renameWithoutReplacing(aside, sidecar) != nil {
                            throw .unwritable("another program saved it twice while it was being removed; one of its saves is kept as \(aside)")
                        }
                        continue
                    }
                    guard POSIXFiles.unlink(aside) == 0 else { throw .unwritable("cannot remove it: \(POSIXFiles.errorText(errno))") }
                    if syncingFolder { FileReplacement.syncFolder(folder) }
                    return rating(of: change.imagePath)
                case .changed(let bytes):
                    guard try Self.replace(sidecar, with: bytes, expected: contents.version, syncingFolder: syncingFolder) else { continue }
                    return rating(of: change.imagePath)
                }
            }
            throw .keepsChanging
        } catch {
            throw RatingError(imagePath: change.imagePath, sidecarPath: sidecar, reason: error)
        }
    }

    /// `undo` for each of `changes`, in order, as `setRating` does a batch: the rating now, or why the
    /// sidecar stayed as it was.
    package func undo(_ changes: [RatingChange], stop: () -> Bool = { false },
                     progress: (Int) -> Void = { _ in }) -> [Result<StoredRating, RatingError>] {
        Self.batch(changes, imagePath: \.imagePath, stop: stop, progress: progress) { change throws(RatingError) in
            try undo(change, syncingFolder: false)
        }
    }

    private enum Undone {
        case notXMP
        case toolkitFailed
        case unchanged
        case remove
        case changed([UInt8])
    }

    // MARK: - Files

    /// The sidecar's contents, nil when there is none.
    private static func readForWriting(_ sidecar: String) throws(RatingError.Reason) -> XMPSidecar.Contents? {
        do {
            return try XMPSidecar.read(sidecar)
        } catch {
            throw .unreadable(error.description)
        }
    }

    /// Replaces the sidecar with `bytes` if it is still at `expected`; false when another program saved it
    /// meanwhile.
    private static func replace(_ sidecar: String, with bytes: [UInt8], expected: FileVersion,
                                syncingFolder: Bool) throws(RatingError.Reason) -> Bool {
        do throws(FileReplacement.Failure) {
            try bytes.withUnsafeBytes { buffer in
                Result { () throws(FileReplacement.Failure) in
                    try FileReplacement.replace(sidecar, with: buffer, expected: expected, syncingFolder: syncingFolder)
                }
            }.get()
            return true
        } catch {
            if error == .changedMeanwhile { return false }
            throw .unwritable(error.description)
        }
    }
}
