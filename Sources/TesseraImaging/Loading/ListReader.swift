#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads an image list (`-i FILE`, `-i -` for standard input) as it comes, a chunk at a time: one path or
/// URL per line, blank lines and lines starting with # skipped, surrounding spaces trimmed; with
/// `nulSeparated` (`-0`, as `find -print0` writes) entries end with NUL and are taken as they are, so a
/// name may hold any other character. A list of a million paths is never one string in memory.
public struct ListReader: Sequence {
    /// Where the list comes from: a descriptor to read until its end.
    private let descriptor: Int32
    private let nulSeparated: Bool
    private static let chunkSize = 256 * 1024

    /// Reads `descriptor` (the caller closes it).
    public init(descriptor: Int32, nulSeparated: Bool) {
        self.descriptor = descriptor
        self.nulSeparated = nulSeparated
    }

    public func makeIterator() -> Iterator { Iterator(descriptor: descriptor, nulSeparated: nulSeparated) }

    public struct Iterator: IteratorProtocol {
        private let descriptor: Int32
        private let separator: UInt8
        private let nulSeparated: Bool
        private var buffer: [UInt8] = []
        private var start = 0
        private var ended = false
        /// Entries of the line taken last, still to hand out (a line can hold other line breaks).
        private var pending: [String] = []
        /// Whether reading failed before the end (the entries read so far still count).
        public private(set) var failure: Int32?

        init(descriptor: Int32, nulSeparated: Bool) {
            self.descriptor = descriptor
            self.nulSeparated = nulSeparated
            separator = nulSeparated ? 0 : UInt8(ascii: "\n")
        }

        public mutating func next() -> String? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                guard let piece = nextPiece() else { return nil }
                pending = ListReader.entries(in: piece, nulSeparated: nulSeparated)
            }
        }

        /// The bytes up to the next separator (or the end), as text.
        private mutating func nextPiece() -> String? {
            while true {
                if let end = buffer[start...].firstIndex(of: separator) {
                    defer { start = end + 1 }
                    return String(decoding: buffer[start..<end], as: UTF8.self)
                }
                if ended {
                    guard start < buffer.count else { return nil }
                    defer { start = buffer.count }
                    return String(decoding: buffer[start...], as: UTF8.self)
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
    public static func parse(_ text: String, nulSeparated: Bool = false) -> [String] {
        entries(in: text, nulSeparated: nulSeparated)
    }

    /// The entries in one piece of a list, by the rules above.
    static func entries(in text: String, nulSeparated: Bool) -> [String] {
        if nulSeparated { return text.split(separator: "\0").map(String.init) }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}
