/// Which content of a file an image was made from: its size and modification time. The book's timestamp
/// rule: a cached image is keyed by path *and* version, so a file that changed gets a new key and is never
/// answered with the old pixels.
package struct FileVersion: Hashable, Sendable, CustomStringConvertible {
    package let size: Int64
    /// Modification time in nanoseconds since the epoch (nanoseconds, because two saves within one second
    /// are common when a tool writes a file twice).
    package let modifiedNanoseconds: Int64

    package init(size: Int64, modifiedNanoseconds: Int64) {
        self.size = size
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    package var description: String { "\(size)B@\(modifiedNanoseconds)" }
}
