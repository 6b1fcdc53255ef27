/// A photo's rating as read, and where it was found.
package struct StoredRating: Hashable, Sendable, CustomStringConvertible {
    package enum Source: Hashable, Sendable {
        /// `NAME.EXT.xmp`, the sidecar Tessera writes.
        case sidecar
        /// Adobe's `NAME.xmp`.
        case adobeSidecar
        /// The XMP packet inside the image file.
        case embedded
        /// `NAME.EXT.xmp` is there but is not XMP: the photo shows no rating, and writing one fails
        /// until the sidecar is repaired or removed.
        case unreadableSidecar
        /// No rating anywhere.
        case nowhere
    }

    package var rating: Rating
    package var source: Source

    package init(_ rating: Rating, from source: Source) {
        self.rating = rating
        self.source = source
    }

    package var description: String { "\(rating) (\(source))" }
}

/// One rating written, and what undoing it takes: undo merges the sidecar's previous `xmp:Rating` back
/// into it (whatever else another program wrote there since is kept), or removes the sidecar when this
/// change created it and it still holds nothing else.
package struct RatingChange: Hashable, Sendable {
    package let imagePath: String
    /// `NAME.EXT.xmp`.
    package let sidecarPath: String
    /// The rating written.
    package let rating: Rating
    /// Whether the sidecar was written: false when it said this rating already (or, for `unrated`, when
    /// nothing said any), and then undo has nothing to do.
    package let wrote: Bool
    /// Whether this change created the sidecar.
    package var createdSidecar: Bool { createdRemainder != nil }
    /// The `xmp:Rating` text the sidecar held before, nil when it held none or did not exist.
    let previousText: String?
    /// When this change created the sidecar: everything else it put there (the `xmp:Rating` taken out),
    /// in the compact serialisation, to tell whether the sidecar holds anything more by the time of undo.
    let createdRemainder: [UInt8]?
}
