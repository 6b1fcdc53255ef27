/// Names kept as bytes (a file system's names, UTF-8 or not; strings as `PathText` makes them) one after another in one buffer: a folder's listing, or a strip of a million
/// items, without a `String` (and its allocation and header) per name.
package struct NameList: Sendable, Equatable {
    package private(set) var bytes: [UInt8] = []
    /// Where each name ends in `bytes`; each starts where the one before it ends.
    package private(set) var ends: [UInt32] = []

    package init() {}

    package init(_ names: some Sequence<String>) {
        for name in names { append(name) }
    }

    package var count: Int { ends.count }
    package var isEmpty: Bool { ends.isEmpty }

    /// Where name `index` lies in `bytes`.
    package func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
    }

    package subscript(index: Int) -> String {
        withName(index) { PathText.text(of: $0) }
    }

    /// Runs `body` on name `index`'s bytes.
    package func withName<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    package mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: name)
        precondition(bytes.count <= UInt32.max, "more than 4 GiB of names")
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// Appends the bytes `name` stands for (`PathText`).
    package mutating func append(_ name: String) {
        PathText.withBytes(name) { append($0) }
    }

    /// Makes room for `names` more names of `bytes` bytes in all (at least doubling, so that room made
    /// folder after folder does not copy everything each time).
    package mutating func reserveCapacity(names: Int, bytes count: Int) {
        Self.grow(&ends, by: names)
        Self.grow(&bytes, by: count)
    }

    static func grow<Element>(_ array: inout [Element], by extra: Int) {
        let needed = array.count + extra
        if array.capacity < needed { array.reserveCapacity(Swift.max(needed, array.capacity * 2)) }
    }

    /// All names, as strings.
    package var strings: [String] { (0..<count).map { self[$0] } }
}
