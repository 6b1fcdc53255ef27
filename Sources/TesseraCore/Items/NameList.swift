/// Names kept as bytes (a file system's names, UTF-8 or not; strings as `PathText` makes them) one after another in one buffer: a folder's listing, or a strip of a million
/// items, without a `String` (and its allocation and header) per name.
public struct NameList: Sendable, Equatable {
    public private(set) var bytes: [UInt8] = []
    /// Where each name ends in `bytes`; each starts where the one before it ends.
    public private(set) var ends: [UInt32] = []

    public init() {}

    public init(_ names: some Sequence<String>) {
        for name in names { append(name) }
    }

    public var count: Int { ends.count }
    public var isEmpty: Bool { ends.isEmpty }

    /// Where name `index` lies in `bytes`.
    public func range(_ index: Int) -> Range<Int> {
        (index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])
    }

    public subscript(index: Int) -> String {
        withName(index) { PathText.text(of: $0) }
    }

    /// Runs `body` on name `index`'s bytes.
    public func withName<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(index)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    public mutating func append(_ name: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: name)
        precondition(bytes.count <= UInt32.max, "more than 4 GiB of names")
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    /// Appends the bytes `name` stands for (`PathText`).
    public mutating func append(_ name: String) {
        PathText.withBytes(name) { append($0) }
    }

    /// Makes room for `names` more names of `bytes` bytes in all (at least doubling, so that room made
    /// folder after folder does not copy everything each time).
    public mutating func reserveCapacity(names: Int, bytes count: Int) {
        Self.grow(&ends, by: names)
        Self.grow(&bytes, by: count)
    }

    static func grow<Element>(_ array: inout [Element], by extra: Int) {
        let needed = array.count + extra
        if array.capacity < needed { array.reserveCapacity(Swift.max(needed, array.capacity * 2)) }
    }

    /// All names, as strings.
    public var strings: [String] { (0..<count).map { self[$0] } }
}
