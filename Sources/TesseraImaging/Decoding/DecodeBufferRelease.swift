import CTesseraFiles

/// Makes glibc give large buffers back to the system when they are freed. A decoder's frame buffers are
/// tens of megabytes each; after the first such free glibc raises its mmap threshold to that size, so later
/// frames come from a worker's heap and stay in the process when freed, and browsing a folder of HEIC or
/// AVIF photos would hold each worker's largest decode for the rest of the run. A fixed 1 MB threshold
/// keeps big buffers in mappings of their own, returned at free; small allocations are unaffected.
package enum DecodeBufferRelease {
    /// Call once, early in `main`, before decoding threads start.
    package static func apply() {
        _ = tessera_set_mmap_threshold(1 << 20)
    }
}
