#if canImport(Glibc)
import Glibc
#endif
import CTesseraSandbox
import TesseraCore
import TesseraFiles
import TesseraImaging

/// The shared memory a helper fills for a rows or frames exchange: a memfd of `length` bytes, sealed
/// against shrinking and growing (so the viewer's mapping cannot fault), mapped here for writing.
enum SealedSlots {
    /// The memfd and its mapping; the caller sends and closes the one and unmaps the other. Nil when
    /// either fails, with errno saying why.
    static func make(_ name: String, length: Int) -> (descriptor: Int32, memory: UnsafeMutableRawPointer)? {
        let memfd = tessera_memfd_sealed(name, Int64(length))
        guard memfd >= 0 else { return nil }
        guard let memory = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0), memory != MAP_FAILED else {
            let saved = errno
            close(memfd)
            errno = saved
            return nil
        }
        return (memfd, memory)
    }
}
