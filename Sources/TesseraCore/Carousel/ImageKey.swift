/// What the image cache and the pipeline are keyed by: one item decoded for one pixel size. The same file
/// at cell size and at full-window size are two entries.
package struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    package let path: String
    /// The box the image is fitted into; zero for `.original` (not scaled at all).
    package let size: PixelSize
    package let variant: ImageVariant
    /// The file content the pixels come from: a changed file has a new key, so stale pixels are never
    /// found for it.
    package let version: FileVersion?
    /// An EXIF orientation (1 to 8) the decoded pixels are turned by after the file's own: the turns the
    /// viewer keeps for the session of images whose format stores none. 1 (none) for nearly every key.
    package let sessionOrientation: Int
    /// The fields' hash, worked out once: each frame the strip hashes every key it plans several times
    /// (its wanted set, the scheduler's queue, the cache, the in-flight marks), and hashing the path
    /// again each time would be a good part of its update.
    private let fieldsHash: Int

    package init(path: String, size: PixelSize, variant: ImageVariant = .cell, version: FileVersion? = nil,
                sessionOrientation: Int = 1) {
        self.path = path
        self.size = variant == .original ? PixelSize(width: 0, height: 0) : size
        self.variant = variant
        self.version = version
        self.sessionOrientation = sessionOrientation
        var hasher = Hasher()
        // The path's bytes, not the string: paths that differ only in normalisation are two files.
        var bytes = path
        bytes.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(self.size)
        hasher.combine(variant)
        hasher.combine(version)
        hasher.combine(sessionOrientation)
        fieldsHash = hasher.finalize()
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(fieldsHash) }

    package static func == (a: ImageKey, b: ImageKey) -> Bool {
        a.fieldsHash == b.fieldsHash && PathText.same(a.path, b.path) && a.size == b.size && a.variant == b.variant
            && a.version == b.version && a.sessionOrientation == b.sessionOrientation
    }

    /// The box to fit into, nil for no scaling.
    package var fittingBox: PixelSize? { size.area > 0 ? size : nil }

    package var description: String {
        "\(path)@\(size)\(variant == .cell ? "" : "/\(variant)")\(sessionOrientation == 1 ? "" : "/turned\(sessionOrientation)")"
    }
}
