#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TesseraCore

/// Reads an image list (`-i FILE`, `-i -` for standard input) as it comes, a chunk at a time: one path or
/// URL per line, blank lines and lines starting with # skipped, surrounding spaces trimmed; with
/// `nulSeparated` (`-0`, as `find -print0` writes) entries end with NUL and are taken as they are, so a
/// name may hold any other character. A list of a million paths is never one string in memory.
package struct ListReader: Sequence {
    /// Where the list comes from: a descriptor to read until its end.
    private let descriptor: Int32
    private let nulSeparated: Bool
    private static let chunkSize = 256 * 1024

    /// Reads `descriptor` (the caller closes it).
    package init(descriptor: Int32, nulSeparated: Bool) {
        self.descriptor = descriptor
        self.nulSeparated = nulSeparated
    }

    package func makeIterator() -> Iterator { Iterator(descriptor: descriptor, nulSeparated: nulSeparated) }

    package struct Iterator: IteratorProtocol {
        private let descriptor: Int32
        private let separator: UInt8
        private let nulSeparated: Bool
        private var buffer: [UInt8] = []
        private var start = 0
        private var ended = false
        /// Entries of the line taken last, still to hand out (a line can hold other line breaks).
        private var pending: [String] = []
        /// Whether reading failed before the end (the entries read so far still count).
        package private(set) var failure: Int32?

        init(descriptor: Int32, nulSeparated: Bool) {
            self.descriptor = descriptor
            self.nulSeparated = nulSeparated
            separator = nulSeparated ? 0 : UInt8(ascii: "\n")
        }

        package mutating func next() -> String? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                guard let piece = nextPiece() else { return nil }
                let simple = buffer.withUnsafeBufferPointer { bytes in
                    ListReader.simpleEntry(in: UnsafeBufferPointer(rebasing: bytes[piece]), nulSeparated: nulSeparated)
                }
                switch simple {
                case .entry(let entry)?: return entry
                case .nothing?: continue
                case nil:
                    pending = ListReader.entries(in: PathText.text(of: buffer[piece]), nulSeparated: nulSeparated)
                }
            }
        }

        /// Where the bytes up to the next separator (or the end) lie in `buffer`.
        private mutating func nextPiece() -> Range<Int>? {
            while true {
                if let end = buffer[start...].firstIndex(of: separator) {
                    defer { start = end + 1 }
                    return start..<end
                }
                if ended {
                    guard start < buffer.count else { return nil }
                    defer { start = buffer.count }
                    return start..<buffer.count
                }
                buffer.removeSubrange(..<start)
                start = 0
                let old = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: ListReader.chunkSize))
                let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, ListReader.chunkSize) }
                if got < 0, errno == EINTR {
                    buffer.removeSubrange(old...)
                    continue
                }
                if got < 0 { failure = errno }
                buffer.removeSubrange((old + Swift.max(0, got))...)
                if got <= 0 { ended = true }
            }
        }
    }

    /// The entries of a list's text: what `ListReader` yields for it.
    package static func parse(_ text: String, nulSeparated: Bool = false) -> [String] {
        entries(in: text, nulSeparated: nulSeparated)
    }

    private enum SimplePiece {
        case entry(String)
        case nothing
    }

    /// The entry of one piece of a list read straight from its bytes, in the common case: a NUL-separated
    /// entry, or a line with no other line break in it and ASCII at its ends (so that trimming spaces and
    /// tabs is all the trimming there is). Nil for anything else, which `entries(in:)` takes as text.
    private static func simpleEntry(in piece: UnsafeBufferPointer<UInt8>, nulSeparated: Bool) -> SimplePiece? {
        if nulSeparated { return piece.isEmpty ? .nothing : .entry(PathText.text(of: piece)) }
        var lower = piece.startIndex, upper = piece.endIndex
        if upper > lower, piece[upper - 1] == UInt8(ascii: "\r") { upper -= 1 }
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        while lower < upper, isSpace(piece[lower]) { lower += 1 }
        while upper > lower, isSpace(piece[upper - 1]) { upper -= 1 }
        guard lower < upper else { return .nothing }
        guard piece[lower] < 0x80, piece[upper - 1] < 0x80 else { return nil }
        // Other line breaks: CR, VT, FF; NEL (C2 85), LINE and PARAGRAPH SEPARATOR (E2 80 A8 and A9).
        for index in lower..<upper {
            let byte = piece[index]
            if byte == 0x0B || byte == 0x0C || byte == 0x0D { return nil }
            if byte == 0x85, piece[index - 1] == 0xC2 { return nil }
            if byte == 0xA8 || byte == 0xA9, index - lower >= 2, piece[index - 1] == 0x80, piece[index - 2] == 0xE2 { return nil }
        }
        if piece[lower] == UInt8(ascii: "#") { return .nothing }
        return .entry(PathText.text(of: UnsafeBufferPointer(rebasing: piece[lower..<upper])))
    }

    /// The entries in one piece of a list, by the rules above.
    static func entries(in text: String, nulSeparated: Bool) -> [String] {
        if nulSeparated { return text.split(separator: "\0").map(String.init) }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
