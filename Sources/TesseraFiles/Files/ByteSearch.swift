import CTesseraFiles
import Foundation

/// Where a run of bytes first occurs in a buffer, found by libc's `memmem`: the generic `firstRange(of:)`
/// of `Data` goes through protocol witnesses for every byte it compares, which costs about a hundred
/// times more over a file's first 256 KiB, read for every cell on screen.
package enum ByteSearch {
    /// The offsets of the first `needle` in `haystack`; nil when it does not occur or is empty.
    package static func firstRange(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Range<Int>? {
        guard !needle.isEmpty, let base = haystack.baseAddress, haystack.count >= needle.count else { return nil }
        return needle.withUnsafeBytes { needleBytes -> Range<Int>? in
            guard let found = tessera_memmem(base, UInt(haystack.count), needleBytes.baseAddress, UInt(needle.count)) else { return nil }
            let start = UnsafeRawPointer(found) - base
            return start..<(start + needle.count)
        }
    }

    /// The offsets (from the first byte, whatever `data`'s indices) of the first `needle` in `data` at or
    /// after offset `start`.
    package static func firstRange(of needle: [UInt8], in data: Data, from start: Int = 0) -> Range<Int>? {
        guard start <= data.count else { return nil }
        return data.withUnsafeBytes { raw in
            firstRange(of: needle, in: UnsafeRawBufferPointer(rebasing: raw[start...])).map { ($0.lowerBound + start)..<($0.upperBound + start) }
        }
    }
}
