#if canImport(Glibc)
import Glibc
#endif

/// An open file's descriptor that several threads use at once, closed with the last holder: libtiff
/// readers each reading with pread at offsets of their own, or the tiled view's workers attaching it to
/// their requests to decode helpers. The file is read, never moved through, so sharing it is safe.
package final class SharedDescriptor: Sendable {
    package let descriptor: Int32
    /// Bytes, as `fstat` gave them when the file was opened.
    package let size: Int
    package let path: String

    /// Takes over `file`'s descriptor.
    package init(_ file: ImageFile) {
        size = file.size
        path = file.path
        descriptor = file.takeDescriptor()
    }

    deinit { close(descriptor) }
}
