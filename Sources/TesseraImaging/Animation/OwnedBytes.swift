import Foundation

/// A copy of a file's bytes at an address that stays put for the life of a reader: giflib and libwebp's
/// animation decoder keep pointers into their input between calls, which `Data` does not promise outside
/// `withUnsafeBytes`.
final class OwnedBytes {
    let buffer: UnsafeMutableRawBufferPointer

    init(_ data: Data) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { buffer.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
        self.buffer = buffer
        count = data.count
    }

    let count: Int
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer.baseAddress, count: count) }

    deinit { buffer.deallocate() }
}
